package live_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
)

// benchWagers measures durable, acknowledged wagers per second on one table: clients
// submit wagers concurrently and each waits for its acknowledgement (which comes only
// after the group commit that made it durable).
func benchWagers(b *testing.B, store live.Store, clients int) {
	ctx := context.Background()
	h := live.New(live.Options{Store: store, Owner: "bench"})
	if err := h.Open(ctx); err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	id := fmt.Sprintf("bench%d", time.Now().UnixNano()%1_000_000)
	if err := h.Create(ctx, live.Spec{ID: id, Mode: live.ModeDealer,
		Config: table.Config{Game: "mbs-tournament", DefaultLimit: table.Limit{Min: 1, Max: 1 << 40}}}); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < clients; i++ {
		if err := h.Credit(ctx, fmt.Sprintf("%s-c%d", id, i), fmt.Sprintf("p%d", i), live.PlayMoney, 1_000_000_000_000); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []table.Command{&table.NewShoe{}, &table.Open{}} {
		if _, err := h.Submit(ctx, id, c); err != nil {
			b.Fatal(err)
		}
	}
	// A round holds at most table.MaxWagersPerRound wagers: when it is full, one client
	// settles it (a natural, dealt from the dealer's shoe) and opens the next, as a table
	// would, and the others place theirs there.
	var roll sync.Mutex
	var round atomic.Int64
	next := func(seen int64) {
		roll.Lock()
		defer roll.Unlock()
		if round.Load() != seen {
			return
		}
		cmds := []table.Command{&table.Close{}}
		for _, c := range []string{"9h", "Kd", "Qc", "2s"} {
			k := baccarat.MustParseCard(c)
			cmds = append(cmds, &table.Card{Card: &k})
		}
		for _, c := range append(cmds, &table.Open{}) {
			if _, err := h.Submit(ctx, id, c); err != nil {
				b.Error(err)
			}
		}
		round.Add(1)
	}
	var n atomic.Int64
	lat := make([][]time.Duration, clients)
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			player := fmt.Sprintf("p%d", c)
			for n.Add(1) <= int64(b.N) {
				start := time.Now()
				gen := round.Load()
				_, err := h.Submit(ctx, id, &table.Place{Player: player, Bet: "banker", Stake: 1})
				if code := baccarat.ErrorCode(err); code == baccarat.CodeRoundFull || code == baccarat.CodeBettingClosed {
					next(gen)
					n.Add(-1)
					continue
				}
				if err != nil {
					b.Error(err)
					return
				}
				lat[c] = append(lat[c], time.Since(start))
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "wagers/s")
	if len(all) > 0 {
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	}
}

func BenchmarkDurableWagersSQLite(b *testing.B) {
	for _, clients := range []int{1, 64, 512} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			db, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			benchWagers(b, db, clients)
		})
	}
}

func BenchmarkDurableWagersPostgres(b *testing.B) {
	if os.Getenv("BACCARAT_TEST_POSTGRES") == "" {
		b.Skip("set BACCARAT_TEST_POSTGRES to a PostgreSQL connection string")
	}
	for _, clients := range []int{1, 64, 512} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			// A schema of its own: a host adopts every table it finds, and the tables of
			// earlier runs would be recovered in the background while this one measures.
			db := pgSchemaB(b, 1)[0]
			benchWagers(b, db, clients)
		})
	}
}
