package live_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestMethodCOnTheHostDrawsForAWaitingHolderAndSurvivesARestart (Tiger 3.11): at an automatic
// Method C table the highest stake holds the shoe after No more bets; the host deals nothing
// while the holder's window runs, then draws the card itself; the holder's own draw is
// journalled with them as its actor. A host that stops mid-round and a new one that opens
// the journal rebuild the same holder, who draws on once the table has resumed the round.
func TestMethodCOnTheHostDrawsForAWaitingHolderAndSurvivesARestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	db := openDB(t, path)
	clock := live.NewFakeClock(epoch)
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "a", Shuffle: seededShuffle(5)})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.Create(ctx, live.Spec{ID: "mc", Config: table.Config{Game: "mbs-tiger", ShoeToPlayer: true, DrawSeconds: 5},
		Schedule: live.Schedule{Betting: 2 * time.Second, Card: 100 * time.Millisecond}}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ann", "bob"} {
		_ = h.Credit(ctx, "c-"+p, p, live.PlayMoney, 100_000)
	}
	state := func(h *live.Host) table.State {
		snap, err := h.Snapshot("mc", "")
		if err != nil {
			t.Fatal(err)
		}
		return snap.State
	}
	advance := func(d time.Duration) {
		clock.Advance(d)
		time.Sleep(5 * time.Millisecond) // the table's goroutine takes its turn
	}
	for i := 0; i < 100 && !state(h).BetOpen; i++ {
		advance(100 * time.Millisecond)
	}
	submit(t, h, "mc", &table.Place{Player: "ann", Bet: "banker", Stake: 2000})
	submit(t, h, "mc", &table.Place{Player: "bob", Bet: "player", Stake: 1000})
	for i := 0; i < 100 && state(h).Phase == table.PhaseBetting; i++ {
		advance(100 * time.Millisecond)
	}
	if st := state(h); st.MethodC == nil || st.MethodC.Holder != "ann" || !st.MethodC.Due {
		t.Fatalf("ann, the highest stake, holds the shoe and the first card waits for her: %+v", st.MethodC)
	}
	res := submit(t, h, "mc", &table.Draw{Header: table.Header{Actor: "ann", Role: table.RolePlayer}})
	if len(res.Events) == 0 || res.Events[0].Type != table.EvCardDealt || res.Events[0].Actor != "ann" {
		t.Fatalf("ann draws the first card: %+v", res.Events)
	}
	if _, err := h.Submit(ctx, "mc", &table.Draw{Header: table.Header{Actor: "bob", Role: table.RolePlayer}}); baccarat.ErrorCode(err) != baccarat.CodeNotAuthorized {
		t.Fatalf("bob does not hold the shoe: %v", err)
	}
	for i := 0; i < 8; i++ { // 4 s of the 5 s window
		advance(500 * time.Millisecond)
	}
	if n := len(state(h).Cards); n != 1 {
		t.Fatalf("within ann's window the table draws nothing: %d cards", n)
	}
	for i := 0; i < 10 && len(state(h).Cards) == 1; i++ {
		advance(500 * time.Millisecond)
	}
	if st := state(h); len(st.Cards) != 2 || st.MethodC.Holder != "ann" {
		t.Fatalf("past the window the table draws the card, and ann keeps the shoe: %d cards, %+v", len(st.Cards), st.MethodC)
	}
	before := state(h)
	h.Close()

	clock2 := live.NewFakeClock(epoch.Add(time.Hour))
	h2 := live.New(live.Options{Store: db, Clock: clock2, Owner: "b", Shuffle: seededShuffle(6)})
	if err := h2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	after := state(h2)
	if after.MethodC == nil || after.MethodC.Holder != "ann" || len(after.Cards) != len(before.Cards) || !after.Interrupted {
		t.Fatalf("the journal rebuilds the holder and the cards; the round resumes interrupted: %+v %+v", after.MethodC, after)
	}
	for i := 0; i < 100 && state(h2).Interrupted; i++ { // the table resumes after its window
		clock2.Advance(500 * time.Millisecond)
		time.Sleep(5 * time.Millisecond)
	}
	if res := submit(t, h2, "mc", &table.Draw{Header: table.Header{Actor: "ann", Role: table.RolePlayer}}); len(res.Events) == 0 || res.Events[0].Actor != "ann" {
		t.Fatalf("ann draws on after the restart: %+v", res.Events)
	}
}
