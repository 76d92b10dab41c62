package live_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// lossyCluster is a cluster of one that loses the table's messages it is told to: a host
// that died between its commit and its publish.
type lossyCluster struct {
	h    *live.Host
	mu   sync.Mutex
	lose bool
}

func (c *lossyCluster) Forward(context.Context, string, table.Command) (*live.Result, error) {
	return nil, nil
}
func (c *lossyCluster) Snapshot(ctx context.Context, id, viewer string) (*live.Snapshot, error) {
	return c.h.Peer().Snapshot(id, viewer)
}
func (c *lossyCluster) Rounds(context.Context, string, string, int) ([]live.Round, error) {
	return nil, nil
}
func (c *lossyCluster) WalletsChanged([]string)                              {}
func (c *lossyCluster) Tables(ctx context.Context) ([]live.TableInfo, error) { return nil, nil }
func (c *lossyCluster) Tournament(context.Context, string, string) (*live.TournamentView, error) {
	return nil, baccarat.Errorf(baccarat.CodeNotFound, "no tournaments in this cluster")
}
func (c *lossyCluster) TournamentCommand(context.Context, string, tournament.Command) error {
	return baccarat.Errorf(baccarat.CodeNotFound, "no tournaments in this cluster")
}
func (c *lossyCluster) Tournaments(context.Context) []live.TournamentView { return nil }
func (c *lossyCluster) Publish(id string, ds []live.Delivery) {
	c.mu.Lock()
	lose := c.lose
	c.mu.Unlock()
	if !lose {
		c.h.Peer().Deliver(id, ds)
	}
}

// TestStreamGapIsFilledFromTheJournal: messages a table's owner committed but never sent
// reach every stream anyway, from the journal, in order, when the next message shows the
// gap.
func TestStreamGapIsFilledFromTheJournal(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	h := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch), Owner: "a"})
	c := &lossyCluster{h: h}
	h.Join(c)
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "t1", &table.NewShoe{})
	sub, err := h.Subscribe("t1", "", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	c.mu.Lock()
	c.lose = true
	c.mu.Unlock()
	submit(t, h, "t1", &table.Open{})  // lost
	submit(t, h, "t1", &table.Close{}) // lost
	c.mu.Lock()
	c.lose = false
	c.mu.Unlock()
	cards(t, h, "t1", "9h")
	var seqs []uint64
	timeout := time.After(5 * time.Second)
	for len(seqs) < 3 {
		select {
		case d := <-sub.C:
			var m struct {
				Type string `json:"type"`
				Seq  uint64 `json:"seq"`
			}
			// The stream may also carry events its snapshot holds (web/API.md): the
			// client keeps what it has not seen by seq, and so does this test.
			if json.Unmarshal(d.Data, &m) == nil && m.Type == "event" && m.Seq > sub.Snapshot.State.Seq {
				seqs = append(seqs, m.Seq)
			}
		case <-timeout:
			t.Fatalf("the stream got %v", seqs)
		}
	}
	if seqs[0] != 2 || seqs[1] != 3 || seqs[2] != 4 {
		t.Fatalf("the stream got events %v, want 2 3 4: the lost ones from the journal, then the card", seqs)
	}
}

// teeCluster publishes a table's messages to its own host and to a second one.
type teeCluster struct {
	lossyCluster
	other *live.Host
}

func (c *teeCluster) Publish(id string, ds []live.Delivery) {
	c.h.Peer().Deliver(id, ds)
	c.other.Peer().Deliver(id, ds)
}

// goneOwner is the cluster as a server sees it once the table's owner is gone: every
// question to the owner fails.
type goneOwner struct{ lossyCluster }

func (*goneOwner) Snapshot(context.Context, string, string) (*live.Snapshot, error) {
	return nil, context.DeadlineExceeded
}

// TestAStreamResumesWithoutAskingTheOwner: a stream resuming on a server that has what it
// missed replays it from there, without a snapshot from the table's owner: thousands of
// streams resuming at once (their server stopped) must not all queue at the owner's table.
// One that resumes from further back than the server holds needs the owner.
func TestAStreamResumesWithoutAskingTheOwner(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	a := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch), Owner: "a"})
	b := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch), Owner: "b"})
	a.Join(&teeCluster{lossyCluster: lossyCluster{h: a}, other: b})
	b.Join(&goneOwner{lossyCluster{h: b}})
	if err := a.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	submit(t, a, "t1", &table.NewShoe{})
	submit(t, a, "t1", &table.Open{})
	submit(t, a, "t1", &table.Close{})
	cards(t, a, "t1", "9h")
	sub, err := b.Subscribe("t1", "ann", 2, true)
	if err != nil {
		t.Fatalf("resuming on a server that holds what was missed: %v", err)
	}
	defer sub.Close()
	if sub.Snapshot != nil {
		t.Fatal("the resumed stream came with a snapshot")
	}
	var seqs []uint64
	for len(sub.C) > 0 {
		d := <-sub.C
		if d.Event {
			seqs = append(seqs, d.Seq)
		}
	}
	if len(seqs) == 0 || seqs[0] != 2 || seqs[len(seqs)-1] != 4 {
		t.Fatalf("replayed events %v, want 2 to 4", seqs)
	}
	if _, err := b.Subscribe("t1", "ann", 0, false); err == nil {
		t.Fatal("a new stream started without the owner's snapshot")
	}
}
