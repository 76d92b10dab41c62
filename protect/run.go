package protect

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/odds"
)

// chunkShoes is how many seeded shoes a worker takes at a time.
const chunkShoes = 16

// Run deals the shoes and reports. It stops early, with ctx's error, when ctx is done; an
// order it cannot use (see Orders) stops it with an error naming the shoe and nothing else.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.setup(); err != nil {
		return nil, err
	}
	r, err := newRunner(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	total, err := r.run(ctx)
	if err != nil {
		return nil, err
	}
	return r.report(total), nil
}

// newRunner derives the counts and the full shoe's expectations of a configuration set up.
func newRunner(ctx context.Context, cfg *Config) (*runner, error) {
	counts, err := DeriveCounts(ctx, cfg.Game, cfg.Decks)
	if err != nil {
		return nil, err
	}
	ex, err := odds.NewExpecter(cfg.Game, nil)
	if err != nil {
		return nil, err
	}
	full := baccarat.NewCounts(cfg.Decks)
	centre := make([]float64, len(ex.Bets()))
	if err := ex.Returns(&full, centre); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, counts: counts, centre: centre, cuts: cfg.CutCards}
	for _, b := range ex.Bets() {
		r.bets = append(r.bets, b.ID)
	}
	return r, nil
}

// runner is what the workers of a run share, read-only, and the run's progress.
type runner struct {
	cfg    *Config
	counts *Counts
	centre []float64 // each bet's expectation from a full shoe
	bets   []string
	cuts   []int

	mu   sync.Mutex
	done int
	err  error
}

// run deals every shoe on cfg.Workers goroutines and merges what they counted.
func (r *runner) run(ctx context.Context) (*tally, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	maxLeft := r.cfg.Decks * baccarat.NumCards
	n := r.cfg.Workers
	if r.cfg.Orders == nil {
		n = min(n, (r.cfg.Shoes+chunkShoes-1)/chunkShoes)
	}
	workers := make([]*worker, n)
	for i := range workers {
		w, err := r.newWorker(maxLeft)
		if err != nil {
			return nil, err
		}
		workers[i] = w
	}
	var wg sync.WaitGroup
	if r.cfg.Orders != nil {
		shoes := make(chan indexed, 2*len(workers))
		for _, w := range workers {
			wg.Add(1)
			go func() { defer wg.Done(); r.fromOrders(ctx, w, shoes) }()
		}
		r.feed(ctx, shoes, cancel)
	} else {
		var next atomic.Int64
		for _, w := range workers {
			wg.Add(1)
			go func() { defer wg.Done(); r.seeded(ctx, w, &next) }()
		}
	}
	wg.Wait()
	if r.err != nil {
		return nil, r.err
	}
	for _, w := range workers {
		if w.err != nil {
			return nil, w.err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	total := newTally(len(r.bets), maxLeft, len(r.cuts), r.cfg.Bands)
	for _, w := range workers {
		total.merge(w.t)
	}
	return total, nil
}

type indexed struct {
	i     int
	cards []baccarat.Card
}

// feed reads the orders, checks each, and hands them to the workers in the order read.
func (r *runner) feed(ctx context.Context, shoes chan<- indexed, cancel func()) {
	defer close(shoes)
	for i := 0; ; i++ {
		o, err := r.cfg.Orders.Next()
		if errors.Is(err, io.EOF) {
			if i == 0 {
				r.fail(baccarat.Errorf(baccarat.CodeBadRequest, "no shoes to analyse: the orders hold no shoe"), cancel)
			}
			return
		}
		if err == nil {
			err = checkOrder(&o, i, r.cfg.Decks, r.cfg.maxCut())
		}
		if err != nil {
			r.fail(err, cancel)
			return
		}
		select {
		case shoes <- indexed{i, o.Cards}:
		case <-ctx.Done():
			return
		}
	}
}

func (r *runner) fail(err error, cancel func()) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	cancel()
}

func (r *runner) fromOrders(ctx context.Context, w *worker, shoes <-chan indexed) {
	n := 0
	for s := range shoes {
		if ctx.Err() != nil {
			continue // drain, so the feeder is never stuck
		}
		w.shoe(s.i, s.cards)
		if n++; n == chunkShoes {
			r.progress(n)
			n = 0
		}
	}
	r.progress(n)
}

func (r *runner) seeded(ctx context.Context, w *worker, next *atomic.Int64) {
	for ctx.Err() == nil {
		first := int(next.Add(chunkShoes) - chunkShoes)
		if first >= r.cfg.Shoes {
			return
		}
		last := min(first+chunkShoes, r.cfg.Shoes)
		for i := first; i < last; i++ {
			w.shoe(i, SeededShoe(r.cfg.Decks, r.cfg.Seed, i).Undealt())
		}
		r.progress(last - first)
	}
}

// SeededShoe is shoe i of a run with the given seed: a baccarat.Shoe of decks decks,
// shuffled by baccarat.Shoe.Shuffle from its unshuffled order with a baccarat.SeededSource of
// its own, so that each shoe depends on the seed and its index alone, whichever worker deals
// it.
func SeededShoe(decks int, seed uint64, i int) *baccarat.Shoe {
	s := baccarat.NewShoe(decks)
	s.Shuffle(baccarat.SeededSource(shoeSeed(seed, i)))
	return s
}

func (r *runner) progress(n int) {
	if r.cfg.Progress == nil || n == 0 {
		return
	}
	r.mu.Lock()
	r.done += n
	r.cfg.Progress(r.done)
	r.mu.Unlock()
}

// shoeSeed derives shoe i's seed from the run's: splitmix64 of both, as sim seeds its chunks.
func shoeSeed(seed uint64, i int) uint64 {
	return splitmix64(splitmix64(seed) ^ splitmix64(uint64(i)+0x632be59bd9b4e019))
}

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
