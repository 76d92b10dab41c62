package cluster

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

var _ live.Cluster = (*Node)(nil)

// commandWire is a command on its way to a table's owner: its kind and its fields, the
// caller's identity (actor, role) and request id among them.
type commandWire struct {
	Kind table.CommandType `json:"cmd"`
	Body json.RawMessage   `json:"c"`
}

// Forward sends a command to the server that owns the table; see live.Cluster.
func (n *Node) Forward(ctx context.Context, tableID string, cmd table.Command) (*live.Result, error) {
	body, err := json.Marshal(cmd)
	if err != nil {
		return nil, err
	}
	var res live.Result
	err = n.request(ctx, tableID, "cmd", struct {
		Table string `json:"table"`
		commandWire
	}{tableID, commandWire{Kind: cmd.Kind(), Body: body}}, &res)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

func (n *Node) onCommand(m *nats.Msg, _ string, body []byte) {
	var w struct {
		Table string `json:"table"`
		commandWire
	}
	if err := json.Unmarshal(body, &w); err != nil {
		n.reply(m, nil, baccarat.Errorf(baccarat.CodeBadRequest, "a forwarded command that does not decode: %v", err))
		return
	}
	cmd := table.NewCommand(w.Kind)
	if cmd == nil {
		n.reply(m, nil, baccarat.Errorf(baccarat.CodeBadRequest, "unknown command %s", w.Kind))
		return
	}
	if err := json.Unmarshal(w.Body, cmd); err != nil {
		n.reply(m, nil, baccarat.Errorf(baccarat.CodeBadRequest, "a forwarded %s that does not decode: %v", w.Kind, err))
		return
	}
	if cmd.Head().Role == table.RoleSystem {
		// The system is each server itself (its tables' schedules, recovery, tournaments),
		// which never forwards: a caller another server verified is a player or staff.
		n.reply(m, nil, baccarat.Errorf(baccarat.CodeNotAuthorized, "a forwarded command may not act as the system"))
		return
	}
	go func() { // a command waits for its commit: never on NATS's delivery goroutine
		ctx, cancel := context.WithTimeout(context.Background(), n.opt.Timeout)
		defer cancel()
		res, err := n.host.Peer().Submit(ctx, w.Table, cmd)
		n.reply(m, res, err)
	}()
}

// viewWire asks a table's owner for a snapshot or the recall of its last rounds.
type viewWire struct {
	Kind   string `json:"kind"` // snapshot or rounds
	Table  string `json:"table"`
	Viewer string `json:"viewer"`
	N      int    `json:"n,omitempty"`
}

// Snapshot asks the table's owner for the table as viewer sees it; see live.Cluster.
func (n *Node) Snapshot(ctx context.Context, tableID, viewer string) (*live.Snapshot, error) {
	var s live.Snapshot
	if err := n.request(ctx, tableID, "view", viewWire{Kind: "snapshot", Table: tableID, Viewer: viewer}, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Rounds asks the table's owner for the recall of its last rounds; see live.Cluster.
func (n *Node) Rounds(ctx context.Context, tableID, viewer string, count int) ([]live.Round, error) {
	var rs []live.Round
	if err := n.request(ctx, tableID, "view", viewWire{Kind: "rounds", Table: tableID, Viewer: viewer, N: count}, &rs); err != nil {
		return nil, err
	}
	return rs, nil
}

func (n *Node) onView(m *nats.Msg, _ string, body []byte) {
	var v viewWire
	if err := json.Unmarshal(body, &v); err != nil {
		n.reply(m, nil, baccarat.Errorf(baccarat.CodeBadRequest, "a view request that does not decode: %v", err))
		return
	}
	go func() {
		if v.Kind == "rounds" {
			rs, err := n.host.Peer().Rounds(v.Table, v.Viewer, v.N)
			n.reply(m, rs, err)
			return
		}
		s, err := n.host.Peer().Snapshot(v.Table, v.Viewer)
		n.reply(m, s, err)
	}()
}

// Publish sends an owned table's messages to every server, this one included; see
// live.Cluster. It never blocks the table: NATS buffers, and a lost message is a gap the
// receivers fill from the journal.
func (n *Node) Publish(tableID string, ds []live.Delivery) {
	// One NATS message carries at most the server's max_payload (1 MiB by default), and a
	// settlement sends a message to each of thousands of players: the deliveries go in as
	// many frames as they need, in order (NATS keeps one publisher's order on a subject),
	// and the receivers put them together again.
	batch := n.batches.Add(1)
	subject := n.subject("table", tableID, "msg")
	for _, b := range encodeFrames(n.host.Owner(), batch, ds, int(n.nc.MaxPayload())-256-sealOverhead) {
		if err := n.nc.Publish(subject, n.sealer.seal(subject, b)); err != nil {
			n.opt.Logger.Warn("publishing a table's messages", "table", tableID, "err", err, "bytes", len(b))
		}
	}
}

// onMessages takes a table's messages from its owner, and from nobody else: a frame sealed by
// another server of the cluster (one that lost the table, say) is dropped too, and the gap it
// leaves, if any, is filled from the journal.
func (n *Node) onMessages(m *nats.Msg, sender string, body []byte) {
	parts := strings.Split(m.Subject, ".")
	if len(parts) < 3 {
		return
	}
	tableID := parts[len(parts)-2]
	if !n.ownedBy(tableID, sender) {
		n.dropped("a table's messages not from its owner", m.Subject, sender, nil)
		return
	}
	h, ds, err := decodeFrame(body)
	if err != nil {
		n.opt.Logger.Warn("a table's messages that do not decode", "table", tableID, "err", err)
		return
	}
	if ready := n.frames.add(tableID, h, ds); len(ready) > 0 {
		n.host.Peer().Deliver(tableID, ready)
	}
}

type walletsWire struct {
	From    string   `json:"from"`
	Wallets []string `json:"wallets"`
}

// WalletsChanged tells every other server which wallets moved; see live.Cluster. It is
// flushed before the command that moved them is acknowledged, so the news is on its way
// before the player can act on it elsewhere.
func (n *Node) WalletsChanged(wallets []string) {
	b, _ := json.Marshal(walletsWire{From: n.me, Wallets: wallets})
	if err := n.nc.Publish(n.subject("wallets"), n.sealer.seal(n.subject("wallets"), b)); err != nil {
		n.opt.Logger.Warn("publishing moved wallets", "err", err)
	}
	_ = n.nc.FlushTimeout(time.Second)
}

func (n *Node) onWallets(_ *nats.Msg, sender string, body []byte) {
	var w walletsWire
	if json.Unmarshal(body, &w) != nil || w.From == n.me || w.From != sender {
		return
	}
	n.host.Peer().ForgetWallets(w.Wallets)
}

// AccountChanged tells every other server that an account changed (disabled, revoked,
// given other tables), flushed before the change is answered: their caches forget it.
func (n *Node) AccountChanged(id string) {
	b, _ := json.Marshal(accountWire{From: n.me, ID: id})
	if err := n.nc.Publish(n.subject("accounts"), n.sealer.seal(n.subject("accounts"), b)); err != nil {
		n.opt.Logger.Warn("publishing a changed account", "err", err)
	}
	_ = n.nc.FlushTimeout(time.Second)
}

type accountWire struct {
	From string `json:"from"`
	ID   string `json:"id"`
}

func (n *Node) onAccounts(_ *nats.Msg, sender string, body []byte) {
	var a accountWire
	if json.Unmarshal(body, &a) != nil || a.From == n.me || a.From != sender || n.opt.Accounts == nil {
		return
	}
	n.opt.Accounts.Forget(a.ID)
}

// announce tells the other servers this one's tables, every LobbyEvery.
func (n *Node) announce() {
	defer close(n.done)
	t := time.NewTicker(n.opt.LobbyEvery)
	defer t.Stop()
	for {
		n.publishLobby()
		select {
		case <-n.stop:
			return
		case <-t.C:
		}
	}
}

func (n *Node) publishLobby() {
	ctx, cancel := context.WithTimeout(context.Background(), n.opt.LobbyEvery)
	defer cancel()
	tables := n.host.Peer().Tables(ctx)
	for i := range tables {
		lobbyView(&tables[i].State)
	}
	b, err := json.Marshal(tables)
	if err == nil {
		subject := n.subject("lobby", n.me)
		_ = n.nc.Publish(subject, n.sealer.seal(subject, b))
	}
}

// lobbyView keeps of a state what a lobby shows: no one's wagers or money.
func lobbyView(st *table.State) {
	st.Wagers, st.Riding, st.Dragon, st.Funds, st.Requests, st.Pending = nil, nil, nil, nil, nil, nil
}

// onLobby takes a server's tables from that server only, and of them only those it owns as
// the leases say (checked as a stream is, at most once a second per table).
func (n *Node) onLobby(m *nats.Msg, sender string, body []byte) {
	from := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	if from == n.me || from != sender {
		return
	}
	var tables []live.TableInfo
	if json.Unmarshal(body, &tables) != nil {
		return
	}
	kept := tables[:0]
	for _, t := range tables {
		if n.ownedBy(t.Spec.ID, sender) {
			kept = append(kept, t)
		}
	}
	n.lobby.Store(from, lobbyEntry{tables: kept, at: time.Now()})
}

// Tables lists every server's tables, this one's as they are now, the others' as they
// last told; see live.Cluster. A server not heard from for three announcements is gone.
func (n *Node) Tables(ctx context.Context) ([]live.TableInfo, error) {
	out := n.host.Peer().Tables(ctx)
	seen := map[string]bool{}
	for _, t := range out {
		seen[t.Spec.ID] = true
	}
	n.lobby.Range(func(k, v any) bool {
		e := v.(lobbyEntry)
		if time.Since(e.at) > 3*n.opt.LobbyEvery {
			n.lobby.Delete(k)
			return true
		}
		for _, t := range e.tables {
			if !seen[t.Spec.ID] {
				seen[t.Spec.ID] = true
				out = append(out, t)
			}
		}
		return true
	})
	return out, nil
}
