package live

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// Store is what the host needs from a database: the journals, the books, and the one
// atomic write of both. sqlite.DB and postgres.DB implement it.
type Store interface {
	journal.Store
	journal.Committer
	journal.Requests
	ledger.Store
}

// Spec describes a table: it is the first record of the table's journal.
type Spec struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Names: the name in the pages' other languages, each page showing its own
	// (baccarat.CheckNames; web/API.md, "Names in other languages").
	Names  baccarat.Names `json:"names,omitempty"`
	Config table.Config   `json:"config"`
	// Mode (ModeAuto or ModeDealer) and Currency are mirrored in Config.Mode and
	// Config.Currency, where the table enforces them: Mirror sets and checks both.
	Mode     table.Mode      `json:"mode"`
	Currency ledger.Currency `json:"currency"`
	Schedule Schedule        `json:"schedule"`
	// Wallet is where the table's stakes are kept: "internal" (the platform's books),
	// "seamless" (the operator's wallet) or the name of a wallet the host was given
	// (Options.Wallets); fixed when the table is created (wallet.go).
	// Journals written before it had one are internal.
	Wallet string `json:"wallet,omitempty"`
	// Tournament: the table plays this session of a tournament (tournament_host.go).
	Tournament *tabletop.Session `json:"tournament,omitempty"`
	// Video is the table's live video, if it has one (video.go).
	Video *Video `json:"video,omitempty"`
}

// Table modes.
const (
	ModeAuto   = table.ModeAuto   // an RNG table the host runs by its timers
	ModeDealer = table.ModeDealer // a dealer deals from a card-reading shoe
)

// PlayMoney is the currency of demo tables: ISO 4217's "no currency" (baccarat.PlayMoney).
const PlayMoney ledger.Currency = baccarat.PlayMoney

const specRecord = "table_created"

// Options configure a Host.
type Options struct {
	Store Store
	Clock Clock
	// Owner names this host in table leases (unique per server process).
	Owner string
	// LeaseTTL is how long a lease lasts without renewal (default 15 s).
	LeaseTTL time.Duration
	// Inbox is each table's queue length; a full queue refuses with busy (default 8192).
	Inbox int
	// MaxBatch is the most commands committed together (default 1024).
	MaxBatch int
	Logger   *slog.Logger
	// Shuffle returns a new shoe's order and salt (default: crypto/rand).
	Shuffle func(decks int) (order []baccarat.Card, salt []byte)
	// Cluster joins this host to the others sharing the database (nil: a server alone).
	Cluster Cluster
	// Operator is the operator's wallet of a seamless deployment (nil: the internal wallet
	// only); Outbox tunes the sending of its credits and rollbacks (wallet.go).
	Operator Operator
	Outbox   Outbox
	// Wallets are more kinds of wallet a table's spec may name (Spec.Wallet), beside the
	// platform's books ("internal") and the operator's ("seamless"): each the stakes port
	// its tables take and give back money through (Stakes).
	Wallets map[string]Stakes
	// Observer hears every commit and lease change, for metrics (nil: nobody).
	Observer Observer
	// SnapshotEvery is how many rounds apart a table's snapshots are, where the store keeps
	// them (default DefaultSnapshotEvery).
	SnapshotEvery int
	// Exclusive: this host alone writes the store (it holds the SQLite database's process
	// lock, so no other process can), and takes every lease at once on opening rather than
	// waiting for the leases of a process that died to lapse (journal.Seizer).
	Exclusive bool
	// LimitsNow is the clock players' limits are checked by before a wager reaches its table
	// (sessions, reality checks, exclusions; default Clock's). A test moves it to a reality
	// check's time without moving the tables' own clock; the commit still checks at the
	// time of the wager.
	LimitsNow func() time.Time
	// People shows players to the others: the public stream names a player by a handle and
	// shows their display name, never their account id (people.go; nil: ids, no names).
	People People
}

// Host runs tables.
type Host struct {
	opt  Options
	bank *bank
	care *care // players' limits, where the store keeps them (care.go); nil otherwise
	// requests finds wagers' request ids together (requests.go), where the store reads many
	// at once; nil otherwise.
	requests *coalescer[journal.RequestKey, journal.Request]
	mu       sync.RWMutex
	runners  map[string]*runner
	mirrors  map[string]*mirror // in a cluster: every table's messages, for local streams
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	closed   bool
	// abandoned: the host stops without releasing its leases, as if its process died.
	abandoned bool
	pruned    time.Time     // when request ids were last pruned (adoptLoop's goroutine only)
	tourneys  *tourneys     // the tournaments this host runs, and their tables
	approved  approvals     // seamless debits answered, their wagers on the way to their tables
	kick      chan struct{} // wakes the deliverer of the operator's wallet
}

// New returns a host; call Open to recover the tables of the store.
func New(opt Options) *Host {
	if opt.Clock == nil {
		opt.Clock = RealClock{}
	}
	if opt.LeaseTTL == 0 {
		opt.LeaseTTL = 15 * time.Second
	}
	if opt.Inbox == 0 {
		opt.Inbox = 8192
	}
	if opt.MaxBatch == 0 {
		opt.MaxBatch = 1024
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Owner == "" {
		opt.Owner = "host"
	}
	if opt.Shuffle == nil {
		opt.Shuffle = cryptoShuffle
	}
	if opt.Observer == nil {
		opt.Observer = nopObserver{}
	}
	if opt.SnapshotEvery <= 0 {
		opt.SnapshotEvery = DefaultSnapshotEvery
	}
	opt.Outbox = opt.Outbox.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	var limits *care
	if rs, ok := opt.Store.(responsible.Store); ok {
		now := opt.LimitsNow
		if now == nil {
			now = opt.Clock.Now
		}
		limits = newCare(rs, now)
	}
	return &Host{opt: opt, bank: newBank(opt.Store), care: limits, requests: requestReader(opt.Store),
		runners: map[string]*runner{}, mirrors: map[string]*mirror{}, ctx: ctx, cancel: cancel,
		tourneys: newTourneys(), kick: make(chan struct{}, 1)}
}

func cryptoShuffle(decks int) ([]baccarat.Card, []byte) {
	s := baccarat.NewShoe(decks)
	src := baccarat.CryptoSource()
	s.Shuffle(src)
	return s.Order(), baccarat.NewSalt(src)
}

// errBusy is the answer when a table's inbox is full: the overload policy is to refuse at
// once rather than queue without bound or block the caller.
var errBusy = baccarat.Errorf(baccarat.CodeBusy, "the table is busy: try again in a moment")

func (h *Host) start(r *runner) {
	h.mu.Lock()
	if h.closed {
		// Close has stopped the runners it found: one started after (a table a tournament
		// or the adopter was creating as the host closed) would never be told to stop, and
		// Close would wait for it for ever. The table waits for the next host instead.
		h.mu.Unlock()
		close(r.done)
		r.lease.release(h, r.spec.ID)
		return
	}
	h.runners[r.spec.ID] = r
	h.mu.Unlock()
	h.opt.Observer.LeaseChanged(r.spec.ID, true)
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer h.opt.Observer.LeaseChanged(r.spec.ID, false)
		r.run()
		h.mu.Lock()
		if h.runners[r.spec.ID] == r {
			delete(h.runners, r.spec.ID)
		}
		h.mu.Unlock()
	}()
}

func (h *Host) runner(id string) (*runner, error) {
	if r := h.local(id); r != nil {
		return r, nil
	}
	return nil, h.missing(id)
}

// local is the table's runner on this host, or nil: no question to the store. In a
// cluster a table not run here goes to its owner straight away; the owner, or the leases,
// say whether it exists (a read of the store for each forwarded wager would take the
// database's connections from the commits).
func (h *Host) local(id string) *runner {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.runners[id]
}

// missing is why a table does not run here: not_found only when the store says it does not
// exist; unavailable (503, try again) when the store cannot say, or when the table exists
// but no runner has it now (between servers: its last one stopped or lost its lease, and one
// takes it up within a lease's time).
func (h *Host) missing(id string) error {
	head, err := h.opt.Store.Head(h.ctx, id)
	switch {
	case err != nil && baccarat.ErrorCode(err) == baccarat.CodeBadRequest:
		return baccarat.Errorf(baccarat.CodeNotFound, "no table %q", id)
	case err != nil:
		return baccarat.Errorf(baccarat.CodeUnavailable, "table %s cannot be looked up now (%v): try again in a moment", id, err)
	case head.Seq == 0:
		return baccarat.Errorf(baccarat.CodeNotFound, "no table %q", id)
	}
	return baccarat.Errorf(baccarat.CodeUnavailable, "table %s is between servers (it is being taken up): try again in a moment", id)
}

// Result is what a command did: its events (as committed) and, for a wager, the wager.
type Result struct {
	Events []table.Event
	Wager  *table.Wager
	// Balance is the player's available money once a wager or a withdrawal is durable, so
	// the caller need not ask again (HasBalance says it is set).
	Balance    baccarat.Money
	HasBalance bool
}

// Submit sends a command to a table and waits until its events are durable. A refused
// command returns its coded error; a full inbox returns busy at once. In a cluster, a
// command for a table another host runs goes to that host.
func (h *Host) Submit(ctx context.Context, tableID string, cmd table.Command) (*Result, error) {
	if r := h.local(tableID); r != nil {
		return h.submit(ctx, r, tableID, cmd)
	}
	if h.opt.Cluster != nil {
		return h.opt.Cluster.Forward(ctx, tableID, cmd)
	}
	return nil, h.missing(tableID)
}

func (h *Host) submit(ctx context.Context, r *runner, tableID string, cmd table.Command) (*Result, error) {
	if res, err := h.placedBefore(ctx, tableID, cmd); res != nil || err != nil {
		if res != nil {
			res.Balance, err = r.stakes.Balance(ctx, r, placer(cmd.(*table.Place)))
			res.HasBalance = err == nil
		}
		return res, err
	}
	if p, ok := cmd.(*table.Place); ok {
		if err := h.checkLimits(ctx, r, p); err != nil {
			return nil, err
		}
	}
	res, err := r.stakes.Submit(ctx, r, cmd)
	if p, ok := cmd.(*table.Place); ok {
		h.refused(ctx, placer(p), err)
	}
	return res, err
}

// TableInfo is a table as the lobby lists it, and which host runs it.
type TableInfo struct {
	Spec  Spec        `json:"spec"`
	State table.State `json:"state"`
	Owner string      `json:"owner"`
	// Players: how many players have a stake on the table now (this round's wagers, riding
	// ones, a Dragon session's), counted by its owner before a lobby drops the wagers.
	Players int `json:"players"`
}

// Tables lists the tables of the server, by id: this host's, or in a cluster every host's.
func (h *Host) Tables(ctx context.Context) []TableInfo {
	if h.opt.Cluster != nil {
		if all, err := h.opt.Cluster.Tables(ctx); err == nil {
			sort.Slice(all, func(i, j int) bool { return all[i].Spec.ID < all[j].Spec.ID })
			return all
		}
	}
	return h.localTables(ctx)
}

func (h *Host) localTables(ctx context.Context) []TableInfo {
	h.mu.RLock()
	rs := make([]*runner, 0, len(h.runners))
	for _, r := range h.runners {
		rs = append(rs, r)
	}
	h.mu.RUnlock()
	sort.Slice(rs, func(i, j int) bool { return rs[i].spec.ID < rs[j].spec.ID })
	out := make([]TableInfo, 0, len(rs))
	for _, r := range rs {
		if s, err := r.snapshotOf(ctx, ""); err == nil {
			out = append(out, TableInfo{Spec: r.spec, State: s.State, Owner: h.opt.Owner, Players: playersAt(&s.State)})
		}
	}
	return out
}

// playersAt counts the players with a stake on a table, from its full view.
func playersAt(st *table.State) int {
	seen := map[string]bool{}
	for _, ws := range [][]table.Wager{st.Wagers, st.Riding, st.Dragon} {
		for i := range ws {
			seen[ws[i].Player] = true
		}
	}
	return len(seen)
}

// Join makes the host one of a cluster's; call it before Open.
func (h *Host) Join(c Cluster) { h.opt.Cluster = c }

// Owner is this host's name in leases and in the cluster.
func (h *Host) Owner() string { return h.opt.Owner }

// Credit moves money from the house into a player's wallet (play money, or a cashier's
// deposit), idempotent by key.
func (h *Host) Credit(ctx context.Context, key, player string, cur ledger.Currency, amount baccarat.Money) error {
	wallet := ledger.Wallet(player, cur)
	for _, a := range []string{wallet, ledger.House(cur)} {
		if err := h.opt.Store.OpenAccount(ctx, a); err != nil {
			return err
		}
	}
	tx := ledger.Transaction{Key: key, Memo: "credit", At: h.opt.Clock.Now(), Postings: []ledger.Posting{
		{Account: ledger.House(cur), Amount: -amount}, {Account: wallet, Amount: amount}}}
	if _, err := h.opt.Store.Post(ctx, tx); err != nil {
		return err
	}
	h.bank.forget(wallet)
	h.walletsChanged([]string{wallet})
	return nil
}

// walletsChanged tells the other hosts of a cluster which wallets moved, so that none
// decides a wager on a balance it cached before.
func (h *Host) walletsChanged(wallets []string) {
	if h.opt.Cluster != nil && len(wallets) > 0 {
		h.opt.Cluster.WalletsChanged(wallets)
	}
}

// Balance is a player's available money: the wallet less stakes on their way to disk. In a
// cluster it is read from the database, which every host writes.
func (h *Host) Balance(ctx context.Context, player string, cur ledger.Currency) (baccarat.Money, error) {
	if h.seamlessCurrency(cur) {
		return h.operatorBalance(ctx, player, cur)
	}
	if h.opt.Cluster != nil {
		return h.bank.fresh(ctx, ledger.Wallet(player, cur))
	}
	return h.bank.available(ctx, ledger.Wallet(player, cur))
}

// Close stops every table after the batch in hand is committed and releases the leases.
// A round under way stays in the journal and is resumed by the next host (SPEC §4).
func (h *Host) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	rs := make([]*runner, 0, len(h.runners))
	for _, r := range h.runners {
		rs = append(rs, r)
	}
	h.mu.Unlock()
	h.cancel()
	for _, r := range rs {
		r.stop()
	}
	h.wg.Wait()
}

func isCode(err error, code baccarat.Code) bool {
	var e *baccarat.Error
	return errors.As(err, &e) && e.Code == code
}

// Abandon stops the host as a crash would: no batch is finished and no lease is released,
// so another host takes its tables over only when the leases lapse. It is for tests of
// takeover; a real crash needs no method.
func (h *Host) Abandon() {
	h.mu.Lock()
	h.abandoned = true
	h.mu.Unlock()
	h.Close()
}
