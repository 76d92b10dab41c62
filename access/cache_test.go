package access_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/sqlite"
)

// countingStore is a real store that counts the accounts read from it.
type countingStore struct {
	access.Store
	reads atomic.Int64
}

func (s *countingStore) Account(ctx context.Context, id string) (access.Account, error) {
	s.reads.Add(1)
	return s.Store.Account(ctx, id)
}

func cacheOver(t *testing.T, ttl time.Duration, announce func(string)) (*access.Cache, *countingStore) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	store := &countingStore{Store: db}
	c := access.NewCache(store, ttl, announce)
	if err := c.CreateAccount(context.Background(), access.Account{ID: "ann", Role: access.RolePlayer, Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	return c, store
}

// An account read once is not read again while the cache may believe it; a change made
// through the cache is seen at once, and announced to the other servers.
func TestCacheKeepsAnAccountAndSeesEveryChangeMadeThroughIt(t *testing.T) {
	ctx := context.Background()
	var announced []string
	c, store := cacheOver(t, time.Hour, func(id string) { announced = append(announced, id) })
	for range 5 {
		if _, err := c.Account(ctx, "ann"); err != nil {
			t.Fatal(err)
		}
	}
	if n := store.reads.Load(); n != 1 {
		t.Fatalf("5 reads of one account read the store %d times, want 1", n)
	}
	if _, err := c.UpdateAccount(ctx, "ann", func(a *access.Account) error { a.Disabled = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if a, err := c.Account(ctx, "ann"); err != nil || !a.Disabled {
		t.Fatalf("after disabling: %+v %v", a, err)
	}
	if len(announced) != 2 || announced[1] != "ann" {
		t.Fatalf("announced %v, want the creation and the change of ann", announced)
	}
}

// Another server's change arrives as Forget; a lost one is outlived by the TTL; Clear drops
// everything.
func TestCacheForgetsOnNewsAndAfterItsTTL(t *testing.T) {
	ctx := context.Background()
	c, store := cacheOver(t, 100*time.Millisecond, nil)
	read := func() access.Account {
		t.Helper()
		a, err := c.Account(ctx, "ann")
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	read()
	// Changed behind the cache's back, as by another server.
	if _, err := store.Store.UpdateAccount(ctx, "ann", func(a *access.Account) error { a.Epoch = 7; return nil }); err != nil {
		t.Fatal(err)
	}
	if a := read(); a.Epoch != 0 {
		t.Fatalf("the cache read the store again before any news: %+v", a)
	}
	c.Forget("ann")
	if a := read(); a.Epoch != 7 {
		t.Fatalf("after Forget: %+v", a)
	}
	if _, err := store.Store.UpdateAccount(ctx, "ann", func(a *access.Account) error { a.Epoch = 8; return nil }); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
	if a := read(); a.Epoch != 8 {
		t.Fatalf("after the TTL: %+v", a)
	}
	if _, err := store.Store.UpdateAccount(ctx, "ann", func(a *access.Account) error { a.Epoch = 9; return nil }); err != nil {
		t.Fatal(err)
	}
	c.Clear()
	if a := read(); a.Epoch != 9 {
		t.Fatalf("after Clear: %+v", a)
	}
}
