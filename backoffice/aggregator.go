package backoffice

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
)

// Aggregator keeps the summaries up to date in a goroutine of its own: every Every it lists
// the journals whose head is past their mark and folds their new records, Batch at a time,
// each batch applied in one transaction that moves the mark (so a crash between batches
// repeats nothing, and servers sharing a database may each run one: the second to fold a
// batch finds the mark moved and leaves it). It never touches the commit path: a table's
// commit does not wait for it, and a report is as fresh as the last pass.
type Aggregator struct {
	Source Journals
	Log    *slog.Logger
	Every  time.Duration // between passes (default 2 s)
	Batch  int           // records folded per transaction (default 500)

	kick chan struct{}
	stop chan struct{}
	done chan struct{}
	once sync.Once
	mu   sync.Mutex
	last time.Time // when the last pass ended
}

// Defaults of an Aggregator.
const (
	DefaultEvery = 2 * time.Second
	DefaultBatch = 500
)

// Start starts folding in the background; Stop stops it.
func (a *Aggregator) Start() *Aggregator {
	if a.Log == nil {
		a.Log = slog.New(slog.DiscardHandler)
	}
	if a.Every <= 0 {
		a.Every = DefaultEvery
	}
	a.kick, a.stop, a.done = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	go a.run()
	return a
}

// Stop stops the aggregator after the batch in hand; stopping it again does nothing.
func (a *Aggregator) Stop() {
	if a == nil || a.stop == nil {
		return
	}
	a.once.Do(func() {
		close(a.stop)
		<-a.done
	})
}

// Kick asks for a pass now rather than at the next tick.
func (a *Aggregator) Kick() {
	if a == nil || a.kick == nil {
		return
	}
	select {
	case a.kick <- struct{}{}:
	default:
	}
}

// LastPass is when the last pass ended (zero before the first).
func (a *Aggregator) LastPass() time.Time {
	if a == nil {
		return time.Time{}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.last
}

func (a *Aggregator) run() {
	defer close(a.done)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-a.stop
		cancel()
	}()
	t := time.NewTicker(a.Every)
	defer t.Stop()
	for {
		if _, err := a.Pass(ctx); err != nil && ctx.Err() == nil {
			a.Log.Warn("back office: folding the journals", "err", err)
		}
		a.mu.Lock()
		a.last = time.Now()
		a.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-a.kick:
		}
	}
}

// Pass folds every journal behind its mark up to its head as it was when the pass began, and
// reports how many records it folded. A journal another aggregator is folding is left to it;
// a journal that cannot be folded is logged and passed over (the next pass tries again).
func (a *Aggregator) Pass(ctx context.Context) (int, error) {
	batch := a.Batch
	if batch <= 0 {
		batch = DefaultBatch
	}
	total := 0
	for {
		lags, err := a.Source.Lagging(ctx, 500)
		if err != nil {
			return total, err
		}
		moved := 0
		for _, l := range lags {
			n, err := FoldJournal(ctx, a.Source, l, batch)
			total += n
			moved += n
			if err != nil && baccarat.ErrorCode(err) != baccarat.CodeConflict {
				if ctx.Err() != nil {
					return total, ctx.Err()
				}
				a.logf("back office: folding a journal", "journal", l.Table, "err", err)
			}
		}
		if len(lags) < 500 || moved == 0 {
			return total, nil
		}
	}
}

func (a *Aggregator) logf(msg string, args ...any) {
	if a.Log != nil {
		a.Log.Warn(msg, args...)
	}
}

// FoldJournal folds one journal from its mark up to l.Head, batch records at a time.
func FoldJournal(ctx context.Context, src Journals, l Lag, batch int) (int, error) {
	mark, n := l.Mark, 0
	for mark.Seq < l.Head {
		to := min(l.Head, mark.Seq+uint64(batch))
		recs, err := src.LoadRange(ctx, l.Table, mark.Seq+1, to)
		if err != nil {
			return n, err
		}
		if len(recs) == 0 {
			return n, nil
		}
		f, err := FoldRecords(mark, recs)
		if err != nil {
			return n, err
		}
		if err := src.ApplyFold(ctx, f); err != nil {
			return n, err
		}
		n += len(recs)
		mark = Mark{Table: l.Table, Seq: f.To, State: f.State}
	}
	return n, nil
}

// CatchUp folds every journal up to its head now (what a test or a one-off report needs).
func CatchUp(ctx context.Context, src Journals) (int, error) {
	a := &Aggregator{Source: src}
	return a.Pass(ctx)
}
