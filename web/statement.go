package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// The player's statement (GET /api/me/rounds): one line per round per table, as a studio's
// account shows it, and one per other movement of the wallet. GET /api/me/history stays the
// wallet's postings one by one, which the page's period totals add up.
//
// A round's line is made of the wallet's postings of that table and round: what went on
// the layout (wagers, chips added, less chips taken back and wagers withdrawn) is its stake,
// what came back (stakes and winnings) its return, so a wager raised counts at its final
// stake and a withdrawn one not at all, from the books alone. A lost round posts no
// settlement to the wallet, yet its wagers' postings make its line. The table's journal
// adds each wager's result and what it paid (statement_rounds.go).

// StatementLine is one line of the statement: a round at a table, or another movement.
type StatementLine struct {
	// Kind is "round" for a round at a table; otherwise what moved the money: credit, debit,
	// entry_fee, entry_fee_refunded, refund_cancelled, rebuy, prize, chips, other (Memo says).
	Kind string `json:"kind"`
	// Key names the line for people and pages: "<table>/<round>" for a round (wager numbers
	// repeat across tables), the posting's ledger key otherwise.
	Key string `json:"key"`
	// Seq is the wallet entry that closed the line (its last posting): the cursor of pages.
	Seq       int64     `json:"seq"`
	At        time.Time `json:"at"`
	Table     string    `json:"table,omitempty"`
	TableName string    `json:"table_name,omitempty"`
	// TableNames, TournamentNames: their names in the pages' other languages (web/API.md,
	// "Names in other languages").
	TableNames map[string]string `json:"table_names,omitempty"`
	Round      int               `json:"round,omitempty"`
	Tournament string            `json:"tournament,omitempty"`
	// TournamentName is the tournament's name, for its fees, prizes and session tables.
	TournamentName  string            `json:"tournament_name,omitempty"`
	TournamentNames map[string]string `json:"tournament_names,omitempty"`
	// Staked is what the player had on the layout for the round: their wagers at their final
	// stakes, withdrawn ones left out, with stakes riding in from the round before (RodeIn).
	Staked baccarat.Money `json:"staked"`
	// Returned is what came back: stakes and winnings paid, with stakes riding on (Rides).
	Returned baccarat.Money `json:"returned"`
	// Net is Returned − Staked for a round, the amount for another movement.
	Net baccarat.Money `json:"net"`
	// Balance is the wallet's balance after the line.
	Balance baccarat.Money `json:"balance"`
	// RodeIn: stakes that came into this round already on the layout (a push riding on
	// from the round before, RWS 3.9; a Dragon bet whose session settles now). Rides: stakes
	// left on the layout into a later round. Both are in Staked and Returned.
	RodeIn baccarat.Money `json:"rode_in,omitempty"`
	Rides  baccarat.Money `json:"rides,omitempty"`
	// Status of a round: settled, void, in_play (no result yet), or "" if the journal was
	// not read.
	Status string           `json:"status,omitempty"`
	Wagers []StatementWager `json:"wagers,omitempty"`
	Memo   string           `json:"memo,omitempty"` // the ledger's memo of another movement
	// Entries is how many wallet postings the line adds up.
	Entries int `json:"entries"`

	recs       lineRecords      // the journal records its postings name
	memoWagers []StatementWager // the wagers its postings' memos name
}

// StatementWager is one of the player's wagers of a round.
type StatementWager struct {
	ID    uint64         `json:"id"` // the table's wager number: unique at its table only
	Bet   string         `json:"bet"`
	Stake baccarat.Money `json:"stake"`
	// Result: win, lose, push, void; rides (a push riding on), pending (a Dragon bet whose
	// session goes on), in_play; "" when not known.
	Result string         `json:"result,omitempty"`
	Paid   baccarat.Money `json:"paid"` // stake and winnings returned
}

// StatementPage is GET /api/me/rounds's answer: lines newest first.
type StatementPage struct {
	Currency ledger.Currency `json:"currency"`
	Lines    []StatementLine `json:"lines"`
	// Next is the cursor of the next (older) page: pass it as ?before=. 0: no older lines.
	Next int64 `json:"next"`
}

// Statement paging. A round's postings lie close together in the wallet: its wagers while
// betting is open, its settlement when it ends, with the player's other tables' in between.
// A page reads statementMargin entries beyond its edges to find them all: a round whose
// postings are further apart would need a player to post that many at other tables while
// it is played.
const (
	statementBatch  = 500
	statementMargin = ledger.MaxLimit
	statementLimit  = 25
	statementMax    = 100
)

// settlementMemos are the memos of what a round pays back (live.Postings).
var settlementMemos = map[string]bool{"round_settled": true, "round_voided": true, "session_settled": true}

// handleHistory is GET /api/me/history: the wallet's postings one by one, oldest first.
func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request, id Identity) {
	after, n := page(r)
	cur, err := s.walletCurrency(r, id.Account)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wallet := ledger.Wallet(id.ID, cur)
	entries, err := s.books.Statement(r.Context(), wallet, ledger.Page{After: after, Limit: n})
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		entries, err = nil, nil // no wallet yet: nothing has happened
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if entries == nil {
		entries = []ledger.Entry{}
	}
	writeJSON(w, 200, entries)
}

// handleStatement is GET /api/me/rounds?before=&limit=&currency=: the statement a line per
// round per table, newest first. A tournament's chips (currency CHIPS:<id>) are a wallet too.
func (s *Server) handleStatement(w http.ResponseWriter, r *http.Request, id Identity) {
	q := r.URL.Query()
	before, err := strconv.ParseInt(q.Get("before"), 10, 64)
	if q.Get("before") == "" {
		before, err = 0, nil
	}
	if err != nil || before < 0 {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "before: a line's seq from a page's next, or nothing for the newest"))
		return
	}
	n, err := strconv.Atoi(q.Get("limit"))
	if q.Get("limit") == "" {
		n, err = statementLimit, nil
	}
	if err != nil || n < 1 {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "limit: a number of lines from 1 to %d", statementMax))
		return
	}
	n = min(n, statementMax)
	cur, err := s.statementCurrency(r, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	pg := StatementPage{Currency: cur, Lines: []StatementLine{}}
	lines, next, err := s.statementLines(r.Context(), ledger.Wallet(id.ID, cur), before, n)
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		lines, err = nil, nil // no wallet yet: nothing has happened
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	names := s.namer(r.Context())
	for _, l := range lines {
		s.roundDetail(r.Context(), id.ID, l)
		names.name(l)
		pg.Lines = append(pg.Lines, *l)
	}
	pg.Next = next
	writeJSON(w, 200, pg)
}

// statementCurrency is the wallet asked for: ?currency= (an ISO code, or a tournament's
// chips), or the player's own.
func (s *Server) statementCurrency(r *http.Request, id Identity) (ledger.Currency, error) {
	c := r.URL.Query().Get("currency")
	if strings.HasPrefix(c, ledger.ChipsPrefix) {
		return ledger.ParseCurrency(c)
	}
	return s.walletCurrency(r, id.Account)
}

// lineKey is what groups postings into a line: a table's round, or one posting.
type lineKey struct {
	table string
	round int
	seq   int64 // another movement: its own entry
}

func keyOf(e *ledger.Entry) lineKey {
	if e.Table != "" && e.Round > 0 {
		return lineKey{table: e.Table, round: e.Round}
	}
	return lineKey{seq: e.Seq}
}

// statementLines reads the lines closed before the entry numbered before (0: the newest),
// newest first, at most n, and the cursor of the next page (0 when there is none). A line's
// place is its last posting: a round already shown (a posting of it at or after before) is
// left out, and a round's earlier postings are read a margin beyond the page.
func (s *Server) statementLines(ctx context.Context, wallet string, before int64, n int) ([]*StatementLine, int64, error) {
	nf, ok := s.books.(ledger.NewestFirst)
	if !ok {
		return nil, 0, baccarat.Errorf(baccarat.CodeUnavailable, "this server's books do not read statements newest first")
	}
	shown := map[lineKey]bool{}
	if before > 0 {
		ahead, err := s.books.Statement(ctx, wallet, ledger.Page{After: before - 1, Limit: statementMargin})
		if err != nil {
			return nil, 0, err
		}
		for i := range ahead {
			if k := keyOf(&ahead[i]); k.round > 0 {
				shown[k] = true
			}
		}
	}
	var out []*StatementLine
	rounds := map[lineKey]*StatementLine{}
	var full int64 // the entry at which the page filled: reading goes a margin below it
	older := false // a line older than the page's was seen
	exhausted := false
	for cursor := before; !exhausted && (full == 0 || cursor > full-statementMargin); {
		batch, err := nf.StatementBefore(ctx, wallet, cursor, statementBatch)
		if err != nil {
			return nil, 0, err
		}
		exhausted = len(batch) < statementBatch
		for i := range batch {
			e := &batch[i]
			if full > 0 && e.Seq <= full-statementMargin {
				break
			}
			k := keyOf(e)
			if l := rounds[k]; l != nil {
				l.add(e)
				continue
			}
			if shown[k] {
				continue
			}
			if len(out) == n {
				older = true
				if full == 0 {
					full = e.Seq
				}
				continue
			}
			l := newLine(e)
			out = append(out, l)
			if k.round > 0 {
				rounds[k] = l
			}
		}
		if len(batch) > 0 {
			cursor = batch[len(batch)-1].Seq
		}
		if len(out) == n && full == 0 {
			full = cursor
		}
	}
	var next int64
	if len(out) == n && (older || !exhausted) {
		next = out[n-1].Seq
	}
	return out, next, nil
}

// newLine starts a line at its last posting (the newest of its entries).
func newLine(e *ledger.Entry) *StatementLine {
	l := &StatementLine{Seq: e.Seq, At: e.At, Balance: e.Balance, Table: e.Table, Round: e.Round}
	if e.Table != "" && e.Round > 0 {
		l.Kind, l.Key = "round", e.Table+"/"+strconv.Itoa(e.Round)
		if t, _, _, _, ok := tabletop.ParseTableID(e.Table); ok {
			l.Tournament = t
		}
	} else {
		l.Kind, l.Key, l.Memo, l.Net = movementKind(e.Memo), e.Key, e.Memo, e.Amount
		if t, ok := strings.CutPrefix(e.Key, tabletop.StreamPrefix); ok {
			l.Tournament, _, _ = strings.Cut(t, "/")
		}
	}
	l.add(e)
	return l
}

// add files a posting of the line's round: a settlement's is returned, any other (a wager,
// a chip added or taken back, a withdrawal) moved stake on or off the layout.
func (l *StatementLine) add(e *ledger.Entry) {
	l.Entries++
	if l.Kind != "round" {
		return
	}
	l.notePosting(e)
	if settlementMemos[e.Memo] {
		l.Returned += e.Amount
	} else {
		l.Staked -= e.Amount
	}
	l.Net = l.Returned - l.Staked
}

// movementKind names a posting that belongs to no round by its memo (live and web write
// them): a code the page translates.
func movementKind(memo string) string {
	switch memo {
	case "credit", "debit", "rebuy", "prize", "entry_fee_refunded":
		return memo
	case "entry fee":
		return "entry_fee"
	case "entry fee refunded":
		return "entry_fee_refunded"
	case "entry fee refunded: cancelled":
		return "refund_cancelled"
	case "rebuy chips", "chips back: cancelled":
		return "chips"
	}
	if strings.HasPrefix(memo, "chips for round") || strings.HasPrefix(memo, "chips back after round") {
		return "chips"
	}
	return "other"
}
