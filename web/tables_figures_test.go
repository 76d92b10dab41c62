package web

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/odds"
)

// heldStore is a session store whose counts wait for release and count their calls.
func heldStore() (s *sessionStore, calls *atomic.Int32, release chan struct{}) {
	calls, release = new(atomic.Int32), make(chan struct{})
	s = &sessionStore{counts: newCounts[sessionKey, []sessionBet](sessionSlots),
		count: func(ctx context.Context, k sessionKey) ([]sessionBet, error) {
			calls.Add(1)
			<-release
			return []sessionBet{{edge: cash.BetEdge{Bet: "any_dragon", PlayerEdge: "+1.0000%", Hands: k.hands}}}, nil
		}}
	return s, calls, release
}

func TestASessionIsCountedOnceHoweverManyAskAndNobodyWaitsForIt(t *testing.T) {
	s, calls, release := heldStore()
	k := sessionKey{game: "mbs-dragon", decks: 8, hands: 30}
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			if bets, status := s.of(k).look(); bets != nil || status != cash.StatusComputing {
				t.Errorf("a look while counting: %v %q", bets, status)
			}
		})
	}
	wg.Wait() // every look answered while the count is held
	close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.of(k).wait(ctx); err != nil {
		t.Fatal(err)
	}
	if bets, status := s.of(k).look(); len(bets) != 1 || status != "" {
		t.Errorf("after the count: %v %q", bets, status)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("64 asked, the session was counted %d times, want once", n)
	}
}

func TestASessionLongerThanTheOddsEnginePricesIsNeverCounted(t *testing.T) {
	s, calls, release := heldStore()
	defer close(release)
	for _, hands := range []int{-1, odds.MaxSessionHands + 1, 100_000, 1_000_000_000} {
		bets, status := s.of(sessionKey{game: "mbs-dragon", decks: 8, hands: hands}).look()
		if bets != nil || status != cash.StatusUnavailable {
			t.Errorf("a session of %d hands: %v %q, want unavailable at once", hands, bets, status)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d counts started", n)
	}
}

func TestWaitingForACountEndsWithTheWaitersContextNotTheCount(t *testing.T) {
	s, calls, release := heldStore()
	k := sessionKey{game: "mbs-dragon", decks: 6, hands: 40}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.of(k).wait(ctx); err == nil {
		t.Fatal("a held count answered")
	}
	close(release)
	if bets, err := s.of(k).wait(context.Background()); err != nil || len(bets) != 1 || calls.Load() != 1 {
		t.Fatalf("the count went on for the next waiter: %v %v, %d counts", bets, err, calls.Load())
	}
}
