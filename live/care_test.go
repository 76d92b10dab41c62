package live

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/sqlite"
)

// manyCounted is a store that reads many standings at once (as PostgreSQL's does), counting
// how often it is asked and how many it is asked for.
type manyCounted struct {
	*sqlite.DB
	calls, read atomic.Int64
}

func (m *manyCounted) Standings(ctx context.Context, players []string, currency string, now time.Time) ([]responsible.Standing, error) {
	m.calls.Add(1)
	m.read.Add(int64(len(players)))
	out := make([]responsible.Standing, len(players))
	for i, p := range players {
		st, err := m.Standing(ctx, p, currency, now)
		if err != nil {
			return nil, err
		}
		out[i] = st
	}
	return out, nil
}

// TestStandingsNotAtHandAreReadTogether: players a host meets at once have their standings
// read in a few reads of many, not one each, and each gets their own: the limits of the one
// with limits, none for the others.
func TestStandingsNotAtHandAreReadTogether(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "care.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := db.SetLimits(ctx, "p7", "EUR", responsible.Limits{LossPerDay: 5_000}, "operator", t0); err != nil {
		t.Fatal(err)
	}
	store := &manyCounted{DB: db}
	c := newCare(store, func() time.Time { return t0 })
	const n = 2000
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := fmt.Sprintf("p%d", i)
			e, err := c.standing(ctx, p, "EUR", false)
			switch {
			case err != nil:
				errs <- err
			case e.st.Player != p:
				errs <- fmt.Errorf("%s got %s's standing", p, e.st.Player)
			case (e.st.Limits.LossPerDay == 5_000) != (p == "p7"):
				errs <- fmt.Errorf("%s: limits %+v", p, e.st.Limits)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := store.read.Load(); got != n {
		t.Errorf("%d standings read, want %d (each once)", got, n)
	}
	if calls := store.calls.Load(); calls > n/10 {
		t.Errorf("%d reads for %d players: want them read together", calls, n)
	}
	t.Logf("%d players' standings in %d reads", n, store.calls.Load())
}
