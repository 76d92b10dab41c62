package cluster_test

import (
	"context"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
)

// TestAnyServerServesAnyTournament: a tournament run by one server is seen, entered and
// cancelled through another, listed by every server, and a tournament nobody has is not
// found anywhere.
func TestAnyServerServesAnyTournament(t *testing.T) {
	ss := startCluster(t, 2)
	a, b := ss[0], ss[1]
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	cfg := tournament.Config{ID: "cup", Name: "Cup", Game: "mbs-tournament", Currency: "XXX", EntryFee: 1000,
		StartingChips: 10_000, MaxEntrants: 8, TableSize: 8, RegistrationOpens: now, RegistrationCloses: now.Add(time.Hour),
		Start: now.Add(time.Hour), Stakes: tournament.Stakes{Min: 100, Max: 1000}, Rounds: []tournament.Round{{Hands: 5}},
		Prizes: []int{10_000}}
	if err := a.host.CreateTournament(ctx, live.TournamentSpec{Config: cfg}); err != nil {
		t.Fatal(err)
	}
	if err := b.host.Credit(ctx, "c1", "ann", live.PlayMoney, 5000); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if v, err := b.host.Tournament(ctx, "cup", ""); err == nil && v.Phase == tournament.PhaseRegistering {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("B never saw the tournament A runs: %+v %v", v, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := b.host.Register(ctx, "cup", "ann"); err != nil {
		t.Fatalf("registering through B: %v", err)
	}
	v, err := b.host.Tournament(ctx, "cup", "ann")
	if err != nil || v.Me == nil || !v.Me.Registered || v.Me.Balance != 4000 {
		t.Fatalf("ann through B: %+v %v", v.Me, err)
	}
	if err := b.host.Register(ctx, "cup", "ann"); baccarat.ErrorCode(err) != tournament.CodeAlreadyRegistered {
		t.Fatalf("a second registration through B: %v", err)
	}
	b.node.WaitHeard(ctx) // the servers B asks for their lists are those it heard of
	listed := false
	for _, tv := range b.host.Tournaments() {
		listed = listed || tv.ID == "cup"
	}
	if !listed {
		t.Fatal("B's list of tournaments lacks the one A runs")
	}
	if _, err := b.host.Tournament(ctx, "nope", ""); baccarat.ErrorCode(err) != baccarat.CodeNotFound {
		t.Fatalf("a tournament nobody has: %v", err)
	}
	if err := b.host.CancelTournament(ctx, "cup", "called off from B"); err != nil {
		t.Fatalf("cancelling through B: %v", err)
	}
	if v, _ := a.host.Tournament(ctx, "cup", "ann"); v == nil || v.Phase != tournament.PhaseCancelled || v.Me.Balance != 5000 {
		t.Fatalf("after the cancellation: %+v", v)
	}
}
