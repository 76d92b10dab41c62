package live_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestSqueezeOnAnAutomaticTable: on an automatic table that squeezes, the stream shows the
// squeezed cards face down to a watcher and face up to their squeezer; the host reveals a
// hand when its window ends, and the round settles. A snapshot shows the squeezed cards to
// their squeezer alone.
func TestSqueezeOnAnAutomaticTable(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	clock := live.NewFakeClock(epoch)
	h := newHost(t, db, clock)
	if err := h.Create(ctx, live.Spec{ID: "sq", Config: table.Config{Game: "mbs-tiger", Squeeze: true},
		Schedule: live.Schedule{Betting: 5 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	_ = h.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000)
	watcher, err := h.Subscribe("sq", "", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	ann, err := h.Subscribe("sq", "ann", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	defer ann.Close()
	for i := 0; i < 50; i++ {
		snap, _ := h.Snapshot("sq", "")
		if snap.State.BetOpen {
			break
		}
		clock.Advance(100 * time.Millisecond)
		time.Sleep(2 * time.Millisecond)
	}
	submit(t, h, "sq", &table.Place{Header: table.Header{Role: table.RolePlayer, Actor: "ann"}, Player: "ann", Bet: "banker", Stake: 1000})
	settled, checked := false, false
	for i := 0; i < 400 && !settled; i++ {
		clock.Advance(250 * time.Millisecond)
		time.Sleep(2 * time.Millisecond)
		snap, _ := h.Snapshot("sq", "")
		settled = snap.State.Phase == table.PhaseSettled || snap.State.Phase == table.PhaseVoid
		if snap.State.Squeeze != nil && !checked {
			checked = true
			peel := func(who string, lift int) error {
				_, err := h.Submit(ctx, "sq", &table.Peel{Header: table.Header{Role: table.RolePlayer, Actor: who}, Card: 1, Lift: lift})
				return err
			}
			if err := peel("bob", 50); baccarat.ErrorCode(err) != baccarat.CodeNotAuthorized {
				t.Errorf("bob, who does not squeeze, peeled: %v", err)
			}
			if err := peel(snap.State.Squeeze.Squeezer, 101); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
				t.Errorf("a lift past 100: %v", err)
			}
			if err := peel(snap.State.Squeeze.Squeezer, 40); err != nil {
				t.Fatal(err)
			}
			if after, _ := h.Snapshot("sq", ""); after.State.Seq != snap.State.Seq {
				t.Errorf("a peel was journalled: seq %d -> %d", snap.State.Seq, after.State.Seq)
			}
			for _, v := range []struct {
				who  string
				want int
			}{{"bob", 0}, {"ann", 2}} {
				view, err := h.Snapshot("sq", v.who)
				if err != nil {
					t.Fatal(err)
				}
				up := 0
				for _, c := range view.State.Cards {
					if c.Hidden && c.Card.Valid() {
						up++
					}
				}
				if up != v.want {
					t.Errorf("during the squeeze %s's snapshot shows %d squeezed cards face up, want %d", v.who, up, v.want)
				}
			}
		}
	}
	if !checked {
		t.Error("never saw the table squeezing")
	}
	if !settled {
		t.Fatal("the round never finished: the host did not reveal the squeezed hand")
	}
	peels := 0
	seen := func(sub *live.Subscription) (faceUp, faceDown int, squeezed bool) {
		for {
			select {
			case d := <-sub.C:
				var m struct {
					Type  string          `json:"type"`
					Event *table.Event    `json:"event"`
					Peel  *table.PeelView `json:"peel"`
				}
				if json.Unmarshal(d.Data, &m) != nil {
					continue
				}
				if m.Type == "peel" && m.Peel != nil && m.Peel.Lift == 40 && m.Peel.Card == 1 && m.Peel.Side == "banker" {
					peels++
				}
				if m.Event == nil {
					continue
				}
				switch {
				case m.Event.Type == table.EvSqueezeEnded:
					squeezed = true
				case m.Event.Type == table.EvCardDealt && m.Event.Card.Hidden && m.Event.Card.Card.Valid():
					faceUp++
				case m.Event.Type == table.EvCardDealt && m.Event.Card.Hidden:
					faceDown++
				}
			default:
				return
			}
		}
	}
	if up, down, sq := seen(watcher); up != 0 || down != 2 || !sq || peels != 1 {
		t.Fatalf("a watcher saw %d squeezed cards face up, %d face down, squeeze ended %v; want 0, 2 (the Banker's), true; and %d peels, want 1", up, down, sq, peels)
	}
	if up, _, sq := seen(ann); up != 2 || !sq {
		t.Fatalf("the squeezer saw %d of her cards face up (want 2), squeeze ended %v", up, sq)
	}
}
