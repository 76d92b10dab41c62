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
