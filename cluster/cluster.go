// Package cluster joins the baccarat servers that share a PostgreSQL database into one, over
// NATS: any server accepts any request for any table. A table still lives on one server,
// its owner (the holder of its lease in the database); a command for it is sent to the
// owner (NATS request/reply, with the caller's identity and request id, so idempotency
// holds across servers); the owner publishes every message of its tables on a subject
// every server subscribes to, so a WebSocket on any server streams any table; and every
// server hears which wallets moved, so none decides a wager on a balance cached before.
//
// Subjects, under a prefix (default "baccarat"):
//
//	<p>.table.<table>.msg    a table's messages, from its owner to every server
//	<p>.host.<host>.cmd      commands for the tables a server owns (request/reply)
//	<p>.host.<host>.view     snapshots and recall of them (request/reply)
//	<p>.host.<host>.tour     tournaments' views and commands, and a server's list (request/reply)
//	<p>.wallets              wallets whose balances moved
//	<p>.lobby.<host>         each server's tables, every second, for every lobby
//
//	<p>.accounts             accounts an admin changed
//	<p>.inbox.<host>.<n>     the replies to a server's requests
//
// NATS carries nothing the database has not decided: it moves requests and news. A lost
// message costs a retry (commands), a gap filled from the journal (streams) or a balance
// read from the database (wallets).
//
// # Trust
//
// A credential for the NATS server (Options.NATS: a user and password, a token, an nkey or
// a .creds file, a client certificate) keeps strangers off the bus, but is not what the
// servers trust. Every message is sealed (seal.go) with a key derived from the cluster's
// shared secret, over its subject, sender, sequence and time, and checked before anything
// of it is decoded: a process on the bus without the secret can neither read the servers'
// messages nor send one they act on, and a message replayed, or moved to another subject,
// is dropped. On top of that each server believes a message only from whom it may come
// from: a table's messages from the table's owner as the leases say, a reply from the server
// asked, a lobby from the server it names, news of wallets and accounts from their sender;
// and a forwarded command from another server, never as the system. A server trusts
// another's word on who a caller is because that server holds the secret and verified the
// caller's token.
package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
)

// Options configure a Node.
type Options struct {
	URL    string // nats://host:4222
	Prefix string // subject prefix (default "baccarat"): clusters on one NATS server each take their own
	// Secret is the cluster's shared secret (every server's --secret): the key every message
	// is sealed with is derived from it. Required.
	Secret []byte
	// NATS are further options for the connection: its credentials, TLS (see the cmd's
	// --nats-* flags).
	NATS []nats.Option
	// Leases tells who owns a table (the database the servers share).
	Leases interface {
		Lease(ctx context.Context, table string) (journal.Lease, error)
	}
	Logger *slog.Logger
	// Timeout bounds a request to another server (default 5 s).
	Timeout time.Duration
	// LobbyEvery is how often a server tells the others its tables (default 1 s).
	LobbyEvery time.Duration
	// Accounts is this server's cache of accounts, if it keeps one: it forgets an account
	// another server changed, and everything when news may have been missed (the connection
	// to NATS dropped, or messages were lost to a slow consumer).
	Accounts AccountCache
}

// AccountCache is a server's cache of accounts (Options.Accounts).
type AccountCache interface {
	Forget(id string)
	Clear()
}

// Node is one server's place in the cluster.
type Node struct {
	opt    Options
	nc     *nats.Conn
	host   *live.Host
	me     string // this server's subject token
	subs   []*nats.Subscription
	stop   chan struct{}
	done   chan struct{}
	owners sync.Map // table → ownerEntry: who owns it, as the database said a moment ago

	// Reads of a table's owner under way (owner): the requests that find the cache run out
	// at the same moment wait for one read rather than each asking the database.
	ownerMu   sync.Mutex
	ownerRead map[string]*ownerRead
	lobby     sync.Map // server token → lobbyEntry

	batches atomic.Uint64 // Publish calls so far: each batch of a table's messages is numbered
	frames  assembler     // the table message frames received (onMessages only)

	sealer  *sealer
	replies replies
	// refused counts the messages dropped because they were not sealed by a server of the
	// cluster, or not by whom they may come from (Refused); lastWarn paces the log.
	refused  atomic.Uint64
	lastWarn atomic.Int64
}

type ownerEntry struct {
	token string
	until time.Time
}

type lobbyEntry struct {
	tables []live.TableInfo
	at     time.Time
}

// Connect joins host to the cluster at opt.URL: call before host.Open. The node serves the
// host's tables to the other servers and streams theirs to it.
func Connect(host *live.Host, opt Options) (*Node, error) {
	if opt.Prefix == "" {
		opt.Prefix = "baccarat"
	}
	if opt.Timeout == 0 {
		opt.Timeout = 5 * time.Second
	}
	if opt.LobbyEvery == 0 {
		opt.LobbyEvery = time.Second
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	forgetAll := func() {
		if opt.Accounts != nil {
			opt.Accounts.Clear()
		}
	}
	me := token(host.Owner())
	sl, err := newSealer(opt.Secret, me)
	if err != nil {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "%v: every server of a cluster needs the same --secret", err)
	}
	nopts := append([]nats.Option{nats.Name("baccarat " + host.Owner()), nats.MaxReconnects(-1),
		nats.ReconnectBufSize(64 << 20),
		nats.DisconnectErrHandler(func(*nats.Conn, error) { forgetAll() }),
		nats.ReconnectHandler(func(*nats.Conn) { forgetAll() }),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			forgetAll() // a slow consumer lost messages, perhaps an account's news
			opt.Logger.Warn("NATS", "err", err)
		})}, opt.NATS...)
	nc, err := nats.Connect(opt.URL, nopts...)
	if err != nil {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "cannot reach NATS at %s (%v): is it running, and are its credentials right? (--nats nats://127.0.0.1:4222)", Redact(opt.URL), err)
	}
	n := &Node{opt: opt, nc: nc, host: host, me: me, stop: make(chan struct{}), done: make(chan struct{}), sealer: sl}
	n.replies = replies{prefix: n.subject("inbox", me, nats.NewInbox()[len("_INBOX."):]) + ".", wait: map[string]chan *nats.Msg{}}
	if err := n.subscribe(); err != nil {
		nc.Close()
		return nil, err
	}
	host.Join(n)
	go n.announce()
	return n, nil
}

// token makes a server's name into one subject token (no dots, no wildcards).
func token(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

func (n *Node) subject(parts ...string) string {
	return n.opt.Prefix + "." + strings.Join(parts, ".")
}

func (n *Node) subscribe() error {
	for _, s := range []struct {
		subject string
		handle  nats.MsgHandler
	}{
		{n.subject("table", "*", "msg"), n.sealed(n.onMessages)},
		{n.subject("host", n.me, "cmd"), n.sealed(n.onCommand)},
		{n.subject("host", n.me, "view"), n.sealed(n.onView)},
		{n.subject("host", n.me, "tour"), n.sealed(n.onTournament)},
		{n.subject("wallets"), n.sealed(n.onWallets)},
		{n.subject("accounts"), n.sealed(n.onAccounts)},
		{n.subject("lobby", "*"), n.sealed(n.onLobby)},
		{n.replies.prefix + "*", n.replies.route}, // opened by the request waiting (request.go)
	} {
		sub, err := n.nc.Subscribe(s.subject, s.handle)
		if err != nil {
			return err
		}
		// A busy table's messages must not be dropped on the way in: a slow consumer would
		// lose them (they are then filled from the journal, at a cost).
		_ = sub.SetPendingLimits(1<<20, 256<<20)
		n.subs = append(n.subs, sub)
	}
	return n.nc.Flush()
}

// Close leaves the cluster.
func (n *Node) Close() {
	select {
	case <-n.stop:
		return
	default:
		close(n.stop)
	}
	<-n.done
	for _, s := range n.subs {
		_ = s.Unsubscribe()
	}
	n.nc.Close()
}

// owner finds which server owns a table: cached for a moment, read from the leases.
func (n *Node) owner(ctx context.Context, tableID string, fresh bool) (string, error) {
	if fresh {
		return n.readOwner(ctx, tableID)
	}
	if v, ok := n.owners.Load(tableID); ok {
		if e := v.(ownerEntry); time.Now().Before(e.until) {
			return e.token, nil
		}
	}
	n.ownerMu.Lock()
	r := n.ownerRead[tableID]
	if r == nil {
		r = &ownerRead{done: make(chan struct{})}
		if n.ownerRead == nil {
			n.ownerRead = map[string]*ownerRead{}
		}
		n.ownerRead[tableID] = r
		n.ownerMu.Unlock()
		// Read for everyone waiting: not cut short by this request's end.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), n.opt.Timeout)
		r.token, r.err = n.readOwner(rctx, tableID)
		cancel()
		n.ownerMu.Lock()
		delete(n.ownerRead, tableID)
		n.ownerMu.Unlock()
		close(r.done)
		return r.token, r.err
	}
	n.ownerMu.Unlock()
	select {
	case <-r.done:
		return r.token, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ownerRead is one read of a table's owner that others may wait for: done closes once token
// or err is set.
type ownerRead struct {
	done  chan struct{}
	token string
	err   error
}

// readOwner reads a table's owner from the leases and caches it for a moment.
func (n *Node) readOwner(ctx context.Context, tableID string) (string, error) {
	l, err := n.opt.Leases.Lease(ctx, tableID)
	if err != nil {
		return "", err
	}
	if !l.Held(time.Now()) {
		return "", baccarat.Errorf(baccarat.CodeNotFound, "no server runs table %q now (if it exists, another takes it over within seconds)", tableID)
	}
	t := token(l.Owner)
	n.owners.Store(tableID, ownerEntry{token: t, until: time.Now().Add(time.Second)})
	return t, nil
}

// ownedBy reports whether the leases say sender owns the table: from the owners' cache while
// it agrees, else read again (a takeover moves a table). When the leases cannot be read, the
// last owner known decides: a database out of reach must not silence every stream.
func (n *Node) ownedBy(tableID, sender string) bool {
	if v, ok := n.owners.Load(tableID); ok {
		if e := v.(ownerEntry); e.token == sender && time.Since(e.until) < 10*time.Second {
			return true
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.opt.Timeout)
	defer cancel()
	t, err := n.owner(ctx, tableID, true)
	if err != nil && baccarat.ErrorCode(err) != baccarat.CodeNotFound {
		if v, ok := n.owners.Load(tableID); ok {
			return v.(ownerEntry).token == sender
		}
	}
	return err == nil && t == sender
}

// request sends a request to the owner of a table and decodes its answer into out; a
// server that no longer owns the table (or died) is asked again after a fresh look at the
// leases, until ctx or the timeout ends.
func (n *Node) request(ctx context.Context, tableID, kind string, body any, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, n.opt.Timeout)
	defer cancel()
	fresh := false
	for {
		t, err := n.owner(ctx, tableID, fresh)
		if err == nil {
			var reply []byte
			reply, err = n.ask(ctx, n.subject("host", t, kind), t, data)
			if err == nil {
				return decodeAnswer(reply, out)
			}
		}
		if !retryable(err) || ctx.Err() != nil {
			if ctx.Err() != nil {
				return baccarat.Errorf(baccarat.CodeBusy, "table %s did not answer in time: try again", tableID)
			}
			return err
		}
		fresh = true
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// retryable: no server answered on that subject, or the one that did no longer owns the
// table (busy): the table is between servers.
func retryable(err error) bool {
	code := baccarat.ErrorCode(err)
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) || code == baccarat.CodeBusy ||
		code == baccarat.CodeUnavailable || code == baccarat.CodeLeaseLost ||
		baccarat.ErrorCode(err) == baccarat.CodeNotFound && strings.Contains(err.Error(), "no server runs")
}

// answer is every reply: a value or a coded error.
type answer struct {
	Error *baccarat.Error `json:"error,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

func decodeAnswer(b []byte, out any) error {
	var a answer
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	if a.Error != nil {
		return a.Error
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(a.Value, out)
}

// reply answers a request: the value, or the error. An answer over what one NATS message
// carries (a staff view of a table with thousands of wagers, say) is an error that says so,
// not a silence the asker would wait out.
func (n *Node) reply(m *nats.Msg, v any, err error) {
	var a answer
	if err != nil {
		var be *baccarat.Error
		if !errors.As(err, &be) {
			be = baccarat.Errorf(baccarat.CodeInternal, "%v", err)
		}
		a.Error = be
	} else {
		a.Value, _ = json.Marshal(v)
	}
	b, _ := json.Marshal(a)
	if limit := n.nc.MaxPayload() - sealOverhead; int64(len(b)) > limit {
		a = answer{Error: baccarat.Errorf(baccarat.CodeTooLarge, "the answer from the table's server is %d bytes, more than the %d one cluster message carries: raise the NATS server's max_payload", len(b), limit)}
		b, _ = json.Marshal(a)
	}
	n.respond(m, b)
}

// sealOverhead bounds what sealing adds to a message: the header with the longest sender
// token, and the tag.
const sealOverhead = headerSize + 255 + 16

// sealed wraps a handler: it opens each message (seal.go) and drops, counted and logged, one
// that does not open.
func (n *Node) sealed(h func(m *nats.Msg, sender string, body []byte)) nats.MsgHandler {
	return func(m *nats.Msg) {
		sender, body, err := n.sealer.open(m.Subject, m.Data)
		if err != nil {
			n.dropped("a message", m.Subject, sender, err)
			return
		}
		h(m, sender, body)
	}
}

// dropped counts a message refused and logs it, at most once a second.
func (n *Node) dropped(what, subject, sender string, err error) {
	n.refused.Add(1)
	now := time.Now().UnixNano()
	if last := n.lastWarn.Load(); now-last > int64(time.Second) && n.lastWarn.CompareAndSwap(last, now) {
		n.opt.Logger.Warn("a cluster message refused", "what", what, "subject", subject, "sender", sender, "err", err,
			"refused", n.refused.Load())
	}
}

// Refused is how many messages this server has refused since it joined: not sealed by a
// server of the cluster, or not by whom they may come from.
func (n *Node) Refused() uint64 { return n.refused.Load() }

// Redact is a NATS URL as it may be logged: without the password or token in it.
func Redact(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	var out []string
	for _, hostPart := range strings.Split(rest, ",") {
		if at := strings.LastIndexByte(hostPart, '@'); at >= 0 {
			user, _, _ := strings.Cut(hostPart[:at], ":")
			hostPart = user + ":REDACTED@" + hostPart[at+1:]
		}
		out = append(out, hostPart)
	}
	return scheme + "://" + strings.Join(out, ",")
}

// WaitHeard waits until this server has heard the others' tables (a lobby from another
// server), or for as long as a server that is there would take to say them (two
// announcements): a server joining a cluster does not list an empty lobby meanwhile.
func (n *Node) WaitHeard(ctx context.Context) {
	deadline := time.NewTimer(2*n.opt.LobbyEvery + 100*time.Millisecond)
	defer deadline.Stop()
	for {
		heard := false
		n.lobby.Range(func(any, any) bool { heard = true; return false })
		if heard {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Prefix is the subjects' prefix of the node's cluster.
func (n *Node) Prefix() string { return n.opt.Prefix }
