// Package accesstest is the conformance suite every access.Store runs on itself.
package accesstest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
)

// At is the creation time the suite gives accounts; stores keep it to the nanosecond.
var At = time.Date(2026, 3, 1, 20, 0, 0, 123456789, time.UTC)

// Run runs the suite. open must return a new, empty store for each call.
func Run(t *testing.T, open func(t *testing.T) access.Store) {
	t.Run("accounts are created once and read back", func(t *testing.T) { testCreate(t, open(t)) })
	t.Run("an update is all or nothing", func(t *testing.T) { testUpdate(t, open(t)) })
	t.Run("concurrent updates all land", func(t *testing.T) { testUpdateRace(t, open(t)) })
	t.Run("accounts are listed by id in pages", func(t *testing.T) { testList(t, open(t)) })
}

func wantCode(t *testing.T, err error, code baccarat.Code) {
	t.Helper()
	if baccarat.ErrorCode(err) != code {
		t.Fatalf("got %v, want code %s", err, code)
	}
}

func testCreate(t *testing.T, s access.Store) {
	ctx := t.Context()
	a := access.Account{ID: "dealer-7", Role: access.RoleDealer, Name: "Lin 林", Tables: []string{"t1", "t2"}, Created: At}
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.CreateAccount(ctx, a), baccarat.CodeConflict)
	got, err := s.Account(ctx, "dealer-7")
	if err != nil || got.Name != a.Name || got.Role != a.Role || !slices.Equal(got.Tables, a.Tables) || !got.Created.Equal(At) || got.Disabled || got.Epoch != 0 {
		t.Fatalf("Account = %+v, %v", got, err)
	}
	_, err = s.Account(ctx, "nobody")
	wantCode(t, err, baccarat.CodeNotFound)
	wantCode(t, s.CreateAccount(ctx, access.Account{ID: "bad.id", Role: access.RolePlayer}), baccarat.CodeBadRequest)
}

func testUpdate(t *testing.T, s access.Store) {
	ctx := t.Context()
	if err := s.CreateAccount(ctx, access.Account{ID: "ann", Role: access.RolePlayer, Created: At}); err != nil {
		t.Fatal(err)
	}
	got, err := s.UpdateAccount(ctx, "ann", func(a *access.Account) error { a.Disabled, a.Epoch = true, a.Epoch+1; return nil })
	if err != nil || !got.Disabled || got.Epoch != 1 {
		t.Fatalf("UpdateAccount = %+v, %v", got, err)
	}
	_, err = s.UpdateAccount(ctx, "ann", func(a *access.Account) error {
		a.Disabled = false
		return baccarat.Errorf(baccarat.CodeBadRequest, "changed my mind")
	})
	wantCode(t, err, baccarat.CodeBadRequest)
	if got, _ := s.Account(ctx, "ann"); !got.Disabled {
		t.Fatal("a refused update was written")
	}
	_, err = s.UpdateAccount(ctx, "ann", func(a *access.Account) error { a.Tables = []string{"t1"}; return nil })
	wantCode(t, err, baccarat.CodeBadRequest) // a player has no tables
	_, err = s.UpdateAccount(ctx, "nobody", func(a *access.Account) error { return nil })
	wantCode(t, err, baccarat.CodeNotFound)
}

func testUpdateRace(t *testing.T, s access.Store) {
	ctx := t.Context()
	if err := s.CreateAccount(ctx, access.Account{ID: "pit", Role: access.RolePit, Created: At}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.UpdateAccount(ctx, "pit", func(a *access.Account) error { a.Epoch++; return nil }); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got, _ := s.Account(ctx, "pit"); got.Epoch != 8 {
		t.Fatalf("epoch %d after 8 concurrent increments", got.Epoch)
	}
}

func testList(t *testing.T, s access.Store) {
	ctx := t.Context()
	for _, id := range []string{"c", "a", "b"} {
		if err := s.CreateAccount(ctx, access.Account{ID: id, Role: access.RolePlayer, Created: At}); err != nil {
			t.Fatal(err)
		}
	}
	page, err := s.ListAccounts(ctx, "a", 1)
	if err != nil || len(page) != 1 || page[0].ID != "b" {
		t.Fatalf("ListAccounts(after a, 1) = %+v, %v", page, err)
	}
	all, _ := s.ListAccounts(ctx, "", 100)
	if len(all) != 3 || all[0].ID != "a" || all[2].ID != "c" {
		t.Fatalf("ListAccounts = %+v", all)
	}
}
