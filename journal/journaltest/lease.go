package journaltest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

var leaseNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func acquire(t *testing.T, s journal.Store, owner string, at time.Time, want bool) {
	t.Helper()
	ok, err := s.Acquire(t.Context(), "t1", owner, 10*time.Second, at)
	if err != nil || ok != want {
		t.Fatalf("Acquire(t1, %s, at +%v) = %v, %v; want %v", owner, at.Sub(leaseNow), ok, err, want)
	}
}

func wantLease(t *testing.T, s journal.Store, owner string, expires time.Time) {
	t.Helper()
	l, err := s.Lease(t.Context(), "t1")
	if err != nil || l.Table != "t1" || l.Owner != owner || (owner != "" && !l.Expires.Equal(expires)) {
		t.Fatalf("Lease = %+v, %v; want owner %q until %s", l, err, owner, expires)
	}
}

func testLease(t *testing.T, s journal.Store) {
	ctx := t.Context()
	wantLease(t, s, "", time.Time{})
	acquire(t, s, "s1", leaseNow, true)
	wantLease(t, s, "s1", leaseNow.Add(10*time.Second))
	acquire(t, s, "s2", leaseNow.Add(5*time.Second), false)
	acquire(t, s, "s1", leaseNow.Add(5*time.Second), true) // re-acquiring extends to +15s
	acquire(t, s, "s2", leaseNow.Add(14*time.Second), false)
	if err := s.Renew(ctx, "t1", "s1", 10*time.Second, leaseNow.Add(14*time.Second)); err != nil {
		t.Fatalf("the holder renews: %v", err)
	}
	WantCode(t, s.Renew(ctx, "t1", "s2", 10*time.Second, leaseNow.Add(14*time.Second)), baccarat.CodeConflict)
	// s1 stops renewing; at +24s exactly the lease has lapsed and s2 takes the table.
	acquire(t, s, "s2", leaseNow.Add(24*time.Second), true)
	wantLease(t, s, "s2", leaseNow.Add(34*time.Second))
	WantCode(t, s.Renew(ctx, "t1", "s1", 10*time.Second, leaseNow.Add(25*time.Second)), baccarat.CodeConflict)
	if err := s.Release(ctx, "t1", "s1"); err != nil {
		t.Fatalf("releasing a lease one lost must be a no-op: %v", err)
	}
	acquire(t, s, "s1", leaseNow.Add(25*time.Second), false)
	if err := s.Release(ctx, "t1", "s2"); err != nil {
		t.Fatal(err)
	}
	acquire(t, s, "s1", leaseNow.Add(25*time.Second), true) // released: free at once
	WantCode(t, s.Renew(ctx, "t2", "s1", time.Second, leaseNow), baccarat.CodeConflict)
	ok, err := s.Acquire(ctx, "t2", "s2", time.Second, leaseNow)
	if err != nil || !ok {
		t.Fatalf("leases are per table: %v, %v", ok, err)
	}
}

func testLeaseRace(t *testing.T, s journal.Store) {
	warm(t, s)
	var mu sync.Mutex
	var wins int
	var errs []error
	race(Goroutines, func(i int) {
		ok, err := s.Acquire(t.Context(), "t1", fmt.Sprintf("server-%d", i), time.Minute, leaseNow)
		mu.Lock()
		defer mu.Unlock()
		if ok {
			wins++
		}
		if err != nil {
			errs = append(errs, err)
		}
	})
	if wins != 1 || len(errs) > 0 {
		t.Fatalf("%d servers racing: %d got the lease, errors %v; want 1, none", Goroutines, wins, errs)
	}
}

func testLeaseArgs(t *testing.T, s journal.Store) {
	ctx := t.Context()
	cases := []struct {
		name         string
		table, owner string
		ttl          time.Duration
		now          time.Time
	}{
		{"the table is an id", "t/1", "s1", time.Second, leaseNow},
		{"the owner is an id", "t1", "", time.Second, leaseNow},
		{"the ttl is positive", "t1", "s1", 0, leaseNow},
		{"the time is set", "t1", "s1", time.Second, time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.Acquire(ctx, c.table, c.owner, c.ttl, c.now)
			WantCode(t, err, baccarat.CodeBadRequest)
			WantCode(t, s.Renew(ctx, c.table, c.owner, c.ttl, c.now), baccarat.CodeBadRequest)
		})
	}
	WantCode(t, s.Release(ctx, "t/1", "s1"), baccarat.CodeBadRequest)
}

func wantEpoch(t *testing.T, s journal.Store, want uint64) {
	t.Helper()
	if l, err := s.Lease(t.Context(), "t1"); err != nil || l.Epoch != want {
		t.Fatalf("Lease = %+v, %v; want epoch %d", l, err, want)
	}
}

// testLeaseEpoch: the epoch rises with each new tenure (a takeover, a release and a new
// acquire), stays while its holder extends or renews it, and survives a release.
func testLeaseEpoch(t *testing.T, s journal.Store) {
	ctx := t.Context()
	wantEpoch(t, s, 0)
	acquire(t, s, "s1", leaseNow, true)
	wantEpoch(t, s, 1)
	acquire(t, s, "s1", leaseNow.Add(5*time.Second), true) // extended: the same tenure
	if err := s.Renew(ctx, "t1", "s1", 10*time.Second, leaseNow.Add(9*time.Second)); err != nil {
		t.Fatal(err)
	}
	wantEpoch(t, s, 1)
	acquire(t, s, "s2", leaseNow.Add(30*time.Second), true) // s1 lapsed: a takeover
	wantEpoch(t, s, 2)
	if err := s.Release(ctx, "t1", "s2"); err != nil {
		t.Fatal(err)
	}
	wantEpoch(t, s, 2) // kept by the released row
	acquire(t, s, "s1", leaseNow.Add(31*time.Second), true)
	wantEpoch(t, s, 3)
}

// testCommitFenced: a batch commits only under the lease it was decided under: the same
// owner and epoch. A paused owner that lost its lease to another writes nothing, even with
// the journal's head right.
func testCommitFenced(t *testing.T, s CommitStore) {
	ctx := t.Context()
	w := setup(t, s, 10_000)
	if ok, err := s.Acquire(ctx, "t1", "s1", 10*time.Second, leaseNow); err != nil || !ok {
		t.Fatal(ok, err)
	}
	l, _ := s.Lease(ctx, "t1")
	fence := &journal.Fence{Table: "t1", Owner: "s1", Epoch: l.Epoch, Now: leaseNow.Add(time.Second)}
	b, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 2)
	b.Fence = fence
	Commit(t, s, b)
	for _, c := range []struct {
		name  string
		fence journal.Fence
	}{
		{"an epoch gone by", journal.Fence{Table: "t1", Owner: "s1", Epoch: l.Epoch - 1, Now: leaseNow.Add(time.Second)}},
		{"another owner", journal.Fence{Table: "t1", Owner: "s2", Epoch: l.Epoch, Now: leaseNow.Add(time.Second)}},
	} {
		next, _ := Wagers(head, "t1", w, 100, "r-"+c.name, 1)
		next.Fence = &c.fence
		WantCode(t, s.Commit(ctx, next), baccarat.CodeLeaseLost)
		wantUnchanged(t, s, "t1", head, w, 9800)
	}
	// s1 is paused past its lease; s2 takes the table over and writes; s1 wakes and tries.
	if ok, err := s.Acquire(ctx, "t1", "s2", 10*time.Second, leaseNow.Add(11*time.Second)); err != nil || !ok {
		t.Fatal(ok, err)
	}
	l2, _ := s.Lease(ctx, "t1")
	won, head2 := Wagers(head, "t1", w, 100, "r-s2", 1)
	won.Fence = &journal.Fence{Table: "t1", Owner: "s2", Epoch: l2.Epoch, Now: leaseNow.Add(12 * time.Second)}
	Commit(t, s, won)
	late, _ := Wagers(head2, "t1", w, 100, "r-late", 1) // even on the right head
	late.Fence = &journal.Fence{Table: "t1", Owner: "s1", Epoch: l.Epoch, Now: leaseNow.Add(5 * time.Second)}
	WantCode(t, s.Commit(ctx, late), baccarat.CodeLeaseLost)
	wantUnchanged(t, s, "t1", head2, w, 9700)
}

// testSeizeAndVacant: where a store lets a server seize a lease (it alone writes the store),
// the lease is taken whoever holds it, as a new tenure; where it lists vacancies, they are
// the tables nobody holds now and those the asker holds.
func testSeizeAndVacant(t *testing.T, s journal.Store) {
	ctx := t.Context()
	recs, _ := Chain(journal.Head{}, "t1", 1)
	Append(t, s, recs...)
	recs2, _ := Chain(journal.Head{}, "t2", 1)
	Append(t, s, recs2...)
	acquire(t, s, "s1", leaseNow, true)
	if v, ok := s.(journal.Vacancies); ok {
		got, err := v.Vacant(ctx, "s2", leaseNow.Add(time.Second))
		if err != nil || len(got) != 1 || got[0] != "t2" {
			t.Fatalf("vacant for s2 while s1 holds t1: %v %v", got, err)
		}
		got, err = v.Vacant(ctx, "s1", leaseNow.Add(time.Second))
		if err != nil || len(got) != 2 {
			t.Fatalf("vacant for s1, who holds t1: %v %v", got, err)
		}
		got, err = v.Vacant(ctx, "s2", leaseNow.Add(11*time.Second))
		if err != nil || len(got) != 2 {
			t.Fatalf("vacant for s2 once s1's lease lapsed: %v %v", got, err)
		}
	}
	sz, ok := s.(journal.Seizer)
	if !ok {
		return
	}
	if err := sz.Seize(ctx, "t1", "s2", 10*time.Second, leaseNow.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	wantLease(t, s, "s2", leaseNow.Add(11*time.Second))
	wantEpoch(t, s, 2)
}
