package live

// Tournaments on the host (SPEC §5): a tournament's law is package tournament; how a session
// is played at a table is package tournament/tabletop; this file and its tournament_*.go
// siblings run them. A tournament is one goroutine, like a table: it journals its events
// under a stream of its own, "tournament-<id>", hash-chained like a table's journal and
// leased like a table, each batch of events committed in one transaction with the money
// and chips they move:
//
//	registered           the entry fee: the player's wallet → the prize pool
//	unregistered         the fee back: pool → wallet
//	cancelled            every fee back
//	rebought             the price: wallet → pool; during a session, the chips: chip house → chip wallet
//	session_started      each seated player's chips: chip house → chip wallet
//	session_ended        each player's chips back: chip wallet → chip house
//	finished             the house's top-up to the guarantee: house → pool; the prizes: pool → wallets
//
// The pool is the wallet of "pool@<id>" in the tournament's money currency (an id no
// player can have); the chips are the tournament's own currency, ledger.Chips(id), whose
// house is the chip house. Money and chips are never in one transaction. Between sessions
// every chip wallet is empty and the chip house is back to zero; a session's table moves
// the chips between them by its own settlements, as any table does.
//
// That is the money of a tournament on the internal wallet. A tournament on the operator's
// seamless wallet (TournamentSpec.Wallet) moves no money in our books: its fees, refunds and
// prizes are calls to the operator (tournament_wallet.go); its chips are as above.
//
// The schedule (tournament.Next) runs on the host's clock. Each session is played at an
// automatic table of its own (tabletop.TableID) that plays for the chips, whose limits are
// the round's stakes and whose Dragon session is the tournament's session. The table opens
// a round only while its tournament lets it (a gate: as many rounds as the session has
// hands, plus one for each void), so it deals exactly the session's hands; the
// tournament follows the table's journal and reports each settled or voided round as a
// hand (voided hands do not count). When the session ends, the table is retired: its
// runner stops and releases its lease, and no host adopts it again.
//
// After a crash, the tournament is rebuilt from its journal, its live sessions' tables are
// adopted (a round under way resumes as at any table, SPEC §4), and the hands their journals
// hold but the tournament has not heard of are reported, in order, each once.

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// TournamentSpec describes a tournament: it is the first record of its journal.
type TournamentSpec struct {
	Config tournament.Config `json:"config"`
	// Schedule is the pace of its tables; Decks their shoes (0: the game's default).
	Schedule Schedule `json:"schedule"`
	Decks    int      `json:"decks,omitempty"`
	// Bots are house players that fill the entries: BotLead before registration closes,
	// as many register, in order, as it takes for the tournament to have len(Bots) entrants
	// (never more than its maximum). The house pays their fees. They are labelled as bots.
	Bots []tabletop.Bot `json:"bots,omitempty"`
	// Wallet is where its money (fees, rebuys, prizes) is kept: "internal" (the platform's
	// books, a pool account) or "seamless" (the operator's wallet: tournament_wallet.go).
	// Empty when creating it: the deployment's, as for a table (a real currency is the
	// operator's in a seamless deployment). Journals written before it had one are internal.
	Wallet string `json:"wallet,omitempty"`
}

const tournamentRecord = "tournament_created"

// BotLead is how long before registration closes the bots fill the entries.
const BotLead = 10 * time.Second

// Pool is the account of a tournament's prize pool in its money currency.
func Pool(tournamentID string, cur ledger.Currency) string {
	return ledger.Wallet("pool@"+tournamentID, cur)
}

// CreateTournament journals a new tournament and starts it.
func (h *Host) CreateTournament(ctx context.Context, spec TournamentSpec) error {
	cfg, _, err := spec.Config.Normalize()
	if err != nil {
		return err
	}
	if err := tabletop.CheckID(cfg.ID); err != nil {
		return err
	}
	spec.Config = cfg
	if err := spec.Schedule.Check(); err != nil {
		return err
	}
	spec.Schedule = spec.Schedule.withDefaults()
	if err := checkBots(spec.Bots, cfg.MaxEntrants); err != nil {
		return err
	}
	if err := h.checkTournamentWallet(&spec); err != nil {
		return err
	}
	if _, err := table.New(tabletop.TableConfig(cfg, tabletop.Session{Stakes: cfg.Stakes}, spec.Decks)); err != nil {
		return err
	}
	stream := tabletop.Stream(cfg.ID)
	ten, head, err := h.found(ctx, stream, "tournament "+cfg.ID, tournamentRecord, spec, nil)
	if err != nil {
		return err
	}
	t, _ := tournament.New(cfg)
	tr := newTourney(h, spec, t, head, nil)
	tr.lease = ten
	h.startTourney(tr)
	return nil
}

func checkBots(bots []tabletop.Bot, most int) error {
	if len(bots) > most {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%d bots for at most %d entrants", len(bots), most)
	}
	seen := map[string]bool{}
	for _, b := range bots {
		if err := tournament.CheckBot(b.ID); err != nil {
			return err
		}
		if _, err := tabletop.ParseStrategy(string(b.Strategy)); err != nil {
			return err
		}
		if seen[b.ID] {
			return baccarat.Errorf(baccarat.CodeBadRequest, "bot %s is listed twice", b.ID)
		}
		seen[b.ID] = true
	}
	return nil
}

// adoptTournaments leases and recovers the tournaments of the store that no host runs, and
// returns the ids the host's adoption of tables goes on with: neither a tournament's journal
// nor a table of a tournament running here (which adopts its own).
func (h *Host) adoptTournaments(ctx context.Context, ids []string) []string {
	for _, id := range ids {
		if !isTournamentStream(id) || h.tourneys.get(id[len(tabletop.StreamPrefix):]) != nil {
			continue
		}
		if err := h.adoptTournament(ctx, id); err != nil {
			h.opt.Logger.Warn("recovering tournament", "stream", id, "err", err)
		}
	}
	return h.tourneys.leftForTables(ids)
}

func (h *Host) adoptTournament(ctx context.Context, stream string) error {
	var tr *tourney
	ok, err := h.takeUp(ctx, stream, func() (*tenure, error) {
		var err error
		tr, err = h.loadTourney(ctx, stream)
		if err != nil {
			return nil, err
		}
		return &tr.lease, nil
	})
	if err != nil || !ok {
		return err
	}
	h.opt.Logger.Info("tournament recovered", "tournament", tr.id, "seq", tr.t.Seq(), "phase", tr.t.Phase())
	h.startTourney(tr)
	return nil
}

// loadTourney rebuilds a tournament from its journal.
func (h *Host) loadTourney(ctx context.Context, stream string) (*tourney, error) {
	recs, err := h.opt.Store.Load(ctx, stream, 1)
	if err != nil {
		return nil, err
	}
	spec, events, err := DecodeTournament(stream, recs)
	if err != nil {
		return nil, err
	}
	t, err := tournament.Replay(spec.Config, events)
	if err != nil {
		return nil, err
	}
	return newTourney(h, spec, t, recs[len(recs)-1].Head(), events), nil
}

// DecodeTournament reads a tournament's journal (stream, its records from the first): its
// spec and its events. The host recovers a tournament by it; package verify audits one.
func DecodeTournament(stream string, recs []journal.Record) (TournamentSpec, []tournament.Event, error) {
	var spec TournamentSpec
	if len(recs) == 0 || recs[0].Type != tournamentRecord {
		return spec, nil, baccarat.Errorf(baccarat.CodeInternal, "%s: the journal does not start with the tournament's spec", stream)
	}
	if err := json.Unmarshal(recs[0].Data, &spec); err != nil {
		return spec, nil, baccarat.Errorf(baccarat.CodeInternal, "%s: spec: %v", stream, err)
	}
	events := make([]tournament.Event, len(recs)-1)
	for i, rec := range recs[1:] {
		if err := json.Unmarshal(rec.Data, &events[i]); err != nil {
			return spec, nil, baccarat.Errorf(baccarat.CodeInternal, "%s record %d: %v", stream, rec.Seq, err)
		}
		if events[i].Seq != rec.Seq-1 {
			return spec, nil, baccarat.Errorf(baccarat.CodeInternal, "%s record %d holds event %d", stream, rec.Seq, events[i].Seq)
		}
	}
	return spec, events, nil
}

func (h *Host) startTourney(tr *tourney) {
	h.tourneys.mu.Lock()
	h.tourneys.byID[tr.id] = tr
	h.tourneys.mu.Unlock()
	tr.claimTables()
	h.opt.Observer.LeaseChanged(tr.stream, true)
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer h.opt.Observer.LeaseChanged(tr.stream, false)
		tr.run()
		if tr.archived.Load() {
			return // an ended tournament stays listed, with no goroutine and no lease
		}
		h.tourneys.mu.Lock()
		if h.tourneys.byID[tr.id] == tr {
			delete(h.tourneys.byID, tr.id)
		}
		h.tourneys.mu.Unlock()
	}()
}

func (h *Host) tourney(id string) (*tourney, error) {
	tr := h.tourneys.get(id)
	if tr == nil {
		return nil, h.tourneyMissing(id)
	}
	return tr, nil
}

// Tournaments lists the tournaments: this host's and, in a cluster, every other's; the
// most recent start first.
func (h *Host) Tournaments() []TournamentView {
	out := h.tournamentsLocal()
	if h.opt.Cluster != nil {
		ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
		out = append(out, h.opt.Cluster.Tournaments(ctx)...)
		cancel()
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Config.Start.Equal(out[j].Config.Start) {
			return out[i].Config.Start.After(out[j].Config.Start)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Tournament is one tournament as player sees it ("" for anyone: no "me").
func (h *Host) Tournament(ctx context.Context, id, player string) (*TournamentView, error) {
	if remote, err := h.remote(id); err != nil || remote {
		if err != nil {
			return nil, err
		}
		return h.opt.Cluster.Tournament(ctx, id, player)
	}
	return h.tournamentLocal(ctx, id, player)
}

// WaitTournament waits until the tournament has an event after seq, ctx ends, or the
// tournament stops; it is how a page follows a tournament (a long poll).
func (h *Host) WaitTournament(ctx context.Context, id string, seq uint64) error {
	if remote, err := h.remote(id); err != nil || remote {
		if err != nil {
			return err
		}
		return h.waitRemote(ctx, id, seq)
	}
	tr, err := h.tourney(id)
	if err != nil {
		return err
	}
	for {
		tr.mu.Lock()
		now, changed := tr.view.Seq, tr.changed
		tr.mu.Unlock()
		if now > seq {
			return nil
		}
		done := tr.done
		if tr.archived.Load() {
			done = nil // it is over: nothing more will come
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil
		case <-done:
			return nil
		}
	}
}

// Register enters a player: the fee is taken from their wallet in the tournament's currency
// (at the operator's wallet, before the registration is committed, for a seamless one).
func (h *Host) Register(ctx context.Context, id, player string) error {
	return h.askTourney(ctx, id, tournament.Command{Type: tournament.CmdRegister, Player: player})
}

// Unregister withdraws a player's entry before the start; the fee goes back to their wallet.
func (h *Host) Unregister(ctx context.Context, id, player string) error {
	return h.askTourney(ctx, id, tournament.Command{Type: tournament.CmdUnregister, Player: player})
}

// Rebuy buys a busted player chips again, for the rebuy price from their wallet.
func (h *Host) Rebuy(ctx context.Context, id, player string) error {
	return h.askTourney(ctx, id, tournament.Command{Type: tournament.CmdRebuy, Player: player})
}

func (h *Host) askTourney(ctx context.Context, id string, c tournament.Command) error {
	if remote, err := h.remote(id); err != nil || remote {
		if err != nil {
			return err
		}
		if tournament.IsBot(c.Player) {
			return baccarat.Errorf(baccarat.CodeNotAuthorized, "%s is one of the tournament's house bots: a player account cannot play as it", c.Player)
		}
		return h.opt.Cluster.TournamentCommand(ctx, id, c)
	}
	tr, err := h.tourney(id)
	if err != nil {
		return err
	}
	if tr.archived.Load() {
		return baccarat.Errorf(baccarat.CodeBadState, "the tournament is %s", tr.currentView().Phase)
	}
	if tr.isBot(c.Player) { // the house plays its bots itself; nobody may act in their name
		return baccarat.Errorf(baccarat.CodeNotAuthorized, "%s is one of the tournament's house bots: a player account cannot play as it", c.Player)
	}
	if tr.charges(c) {
		return tr.payThenAsk(ctx, c)
	}
	rep, err := tr.ask(ctx, tourneyCommand{cmd: c})
	if err == nil {
		tr.deliverNow(ctx, rep.calls)
	}
	return err
}

// ask sends a request to the tournament's goroutine and waits for its answer.
func (tr *tourney) ask(ctx context.Context, req tourneyReq) (tourneyReply, error) {
	a := tourneyAsk{req: req, reply: make(chan tourneyReply, 1)}
	select {
	case tr.inbox <- a:
	default:
		return tourneyReply{}, baccarat.Errorf(baccarat.CodeBusy, "the tournament is busy: try again in a moment")
	}
	select {
	case rep := <-a.reply:
		return rep, rep.err
	case <-ctx.Done():
		return tourneyReply{}, ctx.Err()
	case <-tr.done:
		return tourneyReply{}, errTourneyStopping
	}
}

var errTourneyStopping = baccarat.Errorf(baccarat.CodeBusy, "the tournament is stopping: try again")

// tournamentOf says which tournament a table plays for, if any (for the lobby).
func (h *Host) tournamentOf(tableID string) string {
	h.tourneys.mu.RLock()
	defer h.tourneys.mu.RUnlock()
	return h.tourneys.owned[tableID]
}

func sessionName(cfg tournament.Config, s tabletop.Session) string {
	return fmt.Sprintf("%s · round %d, table %d, session %d", cfg.Name, s.Round, s.Table, s.Session)
}
