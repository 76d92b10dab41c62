package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestAForeignNATSClientChangesNothing: a process on the NATS server that does not hold the
// cluster's secret tries what a review did with an open bus: it places a wager in another
// player's name, voids a round as the system, reads the players' wagers and private
// messages, pushes a forged result and a frame far ahead to every stream, puts a fake table
// in every lobby, answers a server's commands first, and replays a captured command. None
// of it is acted on, nothing is readable, and the servers go on as before.
func TestAForeignNATSClientChangesNothing(t *testing.T) {
	ss := startCluster(t, 2)
	a, b := ss[0], ss[1]
	ctx := context.Background()
	prefix := ss[0].node.Prefix()
	if err := a.host.Create(ctx, live.Spec{ID: "t1", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}}); err != nil {
		t.Fatal(err)
	}
	if err := b.host.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	dealer := table.Header{Actor: "d", Role: table.RoleDealer}
	for _, c := range []table.Command{&table.NewShoe{Header: dealer}, &table.Open{Header: dealer}} {
		if _, err := b.host.Submit(ctx, "t1", c); err != nil {
			t.Fatal(err)
		}
	}
	_, url := needServices(t)
	spy, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer spy.Close()
	var mu sync.Mutex
	var heard [][]byte
	if _, err := spy.Subscribe(prefix+".>", func(m *nats.Msg) {
		mu.Lock()
		heard = append(heard, append([]byte(m.Subject+" "), m.Data...))
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	// The spy answers server A's commands first, with what an acknowledgement looks like.
	if _, err := spy.Subscribe(prefix+".host.s0.cmd", func(m *nats.Msg) {
		_ = m.Respond([]byte(`{"value":{"events":[],"wager":{"id":999,"player":"ann","bet":"banker","stake":1000}}}`))
	}); err != nil {
		t.Fatal(err)
	}
	sub, err := b.host.Subscribe("t1", "ann", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := a.db.Head(ctx, "t1")

	// A genuine wager, through B: the spy's early answer is not taken for the owner's.
	res, err := b.host.Submit(ctx, "t1", &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "banker", Stake: 1000, RequestID: "r-1"})
	if err != nil || res.Wager == nil || res.Wager.ID == 999 {
		t.Fatalf("the wager through B: %+v, %v (999 is the spy's forgery)", res, err)
	}
	afterWager, _ := a.db.Head(ctx, "t1")
	if afterWager.Seq != before.Seq+1 {
		t.Fatalf("the genuine wager: head %d → %d", before.Seq, afterWager.Seq)
	}
	spy.Flush()
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	captured := append([][]byte(nil), heard...)
	mu.Unlock()
	for _, m := range captured {
		if bytes.Contains(m, []byte(`"id":999`)) {
			continue // the spy's own forged answer
		}
		if bytes.Contains(m, []byte(`"ann"`)) || bytes.Contains(m, []byte("banker")) || bytes.Contains(m, []byte("wallet/ann")) {
			t.Fatalf("the spy read a player's business off the bus: %.200q", m)
		}
	}

	// Forgeries, unsealed as the spy must send them, and replays of what it captured.
	forged := func(subject string, v any) {
		b, _ := json.Marshal(v)
		if err := spy.Publish(subject, b); err != nil {
			t.Fatal(err)
		}
	}
	place := &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "banker", Stake: 500_000}
	body, _ := json.Marshal(place)
	forged(prefix+".host.s0.cmd", map[string]any{"table": "t1", "cmd": "place", "c": json.RawMessage(body)})
	void, _ := json.Marshal(&table.Void{Header: table.Header{Actor: "system", Role: table.RoleSystem, Reason: "technical_failure"}})
	forged(prefix+".host.s0.cmd", map[string]any{"table": "t1", "cmd": "void", "c": json.RawMessage(void)})
	forged(prefix+".lobby.fake", []live.TableInfo{{Spec: live.Spec{ID: "fake-vip", Name: "Fake"}, Owner: "fake"}})
	forged(prefix+".wallets", map[string]any{"from": "s0", "wallets": []string{"wallet/ann/XXX"}})
	for _, m := range captured { // every sealed message again, on its own subject
		subject, data, _ := bytes.Cut(m, []byte(" "))
		_ = spy.Publish(string(subject), data)
	}
	if err := spy.Publish(prefix+".table.t1.msg", []byte{1, 2, 's', '0', 1, 0, 1, 200, 200, 6, 1, 0, 2, '{', '}'}); err != nil {
		t.Fatal(err)
	}
	spy.Flush()
	time.Sleep(500 * time.Millisecond)

	if head, _ := a.db.Head(ctx, "t1"); head != afterWager {
		t.Fatalf("the forgeries wrote to the journal: %d → %d", afterWager.Seq, head.Seq)
	}
	if bal, _ := a.host.Balance(ctx, "ann", live.PlayMoney); bal != 99_000 {
		t.Fatalf("ann's balance: %d, want 99000", bal)
	}
	for _, ti := range b.host.Tables(ctx) {
		if ti.Spec.ID == "fake-vip" {
			t.Fatal("the fake table is in B's lobby")
		}
	}
	if a.node.Refused() == 0 || b.node.Refused() == 0 {
		t.Errorf("refused: A %d, B %d; the forgeries were not counted", a.node.Refused(), b.node.Refused())
	}
	// The stream on B still follows the table: the next event arrives, after the forged
	// frame that claimed to be far ahead.
	if _, err := a.host.Submit(ctx, "t1", &table.Close{Header: dealer}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(5 * time.Second)
	for {
		select {
		case d := <-sub.C:
			if bytes.Contains(d.Data, []byte(`"betting_closed"`)) {
				return
			}
		case <-deadline:
			t.Fatal("B's stream did not get the table's next event after the forgeries")
		}
	}
}
