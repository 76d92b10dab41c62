package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// Game recall (GET /api/admin/rounds): a round found by its table and number, by a wager of
// the table, or by a ledger transaction's key or a wallet call's tx, read back whole from
// the table's journal through the back office's index: its cards in order, the shoe's
// commitment and (once the shoe is over) its revealed order, every event with who did it,
// when and why, every wager and settlement, and the postings the books made of them.

// RecallEvent is one record of the round's journal, with who, when and why.
type RecallEvent struct {
	Seq    uint64          `json:"seq"`
	At     time.Time       `json:"at"`
	Type   string          `json:"type"`
	Actor  string          `json:"actor,omitempty"`
	Role   string          `json:"role,omitempty"`
	Reason string          `json:"reason,omitempty"`
	Event  json.RawMessage `json:"event"` // the record's data, as journalled
}

// RecallShoe is the shoe a round was dealt from: its commitment, published before its first
// card, and once it is over its order and salt, which anyone can check against it.
type RecallShoe struct {
	Number     uint64               `json:"number"`
	Decks      int                  `json:"decks,omitempty"`
	Cards      int                  `json:"cards,omitempty"`
	Live       bool                 `json:"live,omitempty"`
	Commitment *baccarat.Commitment `json:"commitment,omitempty"`
	Revealed   bool                 `json:"revealed"`
	Order      []baccarat.Card      `json:"order,omitempty"`
	Salt       string               `json:"salt,omitempty"`
	Verified   *bool                `json:"verified,omitempty"`
	Started    uint64               `json:"started"`
	Ended      uint64               `json:"ended,omitempty"`
}

// RoundRecall is GET /api/admin/rounds's answer.
type RoundRecall struct {
	Table       string             `json:"table"`
	Name        string             `json:"name"`
	Game        string             `json:"game"`
	Currency    string             `json:"currency"`
	MinorUnits  int                `json:"minor_units"`
	Round       uint64             `json:"round"`
	Status      string             `json:"status"`
	Result      string             `json:"result,omitempty"` // the coup, or a void's reason
	Winner      string             `json:"winner,omitempty"`
	At          time.Time          `json:"at"`
	First       uint64             `json:"first"`
	Last        uint64             `json:"last"`
	Found       string             `json:"found"` // what led to it: "round", "wager 5", "transaction …"
	Cards       []table.DealtCard  `json:"cards"`
	Events      []RecallEvent      `json:"events"`
	Wagers      []table.Wager      `json:"wagers"`
	Withdrawn   []table.Wager      `json:"withdrawn"`
	Settlements []table.Settlement `json:"settlements"`
	// Postings are what the round posted to the books (an internal table's); Calls, at a
	// table whose stakes the operator's wallet keeps, are the round's calls to it instead.
	Postings []ledger.Transaction `json:"postings"`
	Calls    []journal.WalletCall `json:"calls,omitempty"`
	Shoe     *RecallShoe          `json:"shoe,omitempty"`
}

// handleRecall is GET /api/admin/rounds?table=&round= (or &wager=, or ?tx=).
func (s *Server) handleRecall(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ref, found, err := s.findRound(r.Context(), o, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !id.Account.MayActOn(ref.Table) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeNotAuthorized, "%s %s is not assigned table %s", id.Role, id.ID, ref.Table))
		return
	}
	rc, err := s.recall(r.Context(), o, ref)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rc.Found = found
	writeJSON(w, 200, rc)
}

// findRound reads what the query names and finds the round in the index. A round the
// aggregator has not folded yet is folded now (its journal only), then looked for again.
func (s *Server) findRound(ctx context.Context, o backoffice.Journals, r *http.Request) (backoffice.RoundRef, string, error) {
	q := r.URL.Query()
	num := func(name string) (uint64, error) {
		n, err := strconv.ParseUint(q.Get(name), 10, 64)
		if err != nil || n == 0 {
			return 0, baccarat.Errorf(baccarat.CodeBadRequest, "%s: a whole number from 1", name)
		}
		return n, nil
	}
	var tableID, found string
	var round uint64
	switch {
	case q.Get("tx") != "":
		key := q.Get("tx")
		if len(key) > ledger.MaxKeyLen || !printable(key) {
			return backoffice.RoundRef{}, "", baccarat.Errorf(baccarat.CodeBadRequest, "tx: a ledger key or wallet call tx of at most %d bytes", ledger.MaxKeyLen)
		}
		t, n, err := o.Transaction(ctx, key)
		if err != nil {
			return backoffice.RoundRef{}, "", err
		}
		if t == "" || n == 0 {
			return backoffice.RoundRef{}, "", baccarat.Errorf(baccarat.CodeNotFound, "transaction %s belongs to no round (a credit or a debit)", key)
		}
		tableID, round, found = t, n, "transaction "+key
	default:
		tableID = q.Get("table")
		if err := baccarat.CheckID("table", tableID); err != nil {
			return backoffice.RoundRef{}, "", err
		}
		if q.Get("wager") != "" {
			wid, err := num("wager")
			if err != nil {
				return backoffice.RoundRef{}, "", err
			}
			wr, err := o.Wager(ctx, tableID, wid)
			if baccarat.ErrorCode(err) == baccarat.CodeNotFound && catchUp(ctx, o, tableID) {
				wr, err = o.Wager(ctx, tableID, wid)
			}
			if err != nil {
				return backoffice.RoundRef{}, "", err
			}
			round, found = wr.Round, "wager "+strconv.FormatUint(wid, 10)
		} else {
			n, err := num("round")
			if err != nil {
				return backoffice.RoundRef{}, "", err
			}
			round, found = n, "round"
		}
	}
	ref, err := o.Round(ctx, tableID, round)
	// A round not folded yet, or folded only so far (still open in the index), is folded
	// now, its table's journal only.
	if (baccarat.ErrorCode(err) == baccarat.CodeNotFound || err == nil && ref.Status == backoffice.RoundOpen) && catchUp(ctx, o, tableID) {
		ref, err = o.Round(ctx, tableID, round)
	}
	return ref, found, err
}

// catchUp folds one table's journal up to its head now, reporting whether it was behind.
func catchUp(ctx context.Context, o backoffice.Journals, tableID string) bool {
	lags, err := o.Lagging(ctx, 100_000)
	if err != nil {
		return false
	}
	for _, l := range lags {
		if l.Table == tableID {
			_, err := backoffice.FoldJournal(ctx, o, l, backoffice.DefaultBatch)
			return err == nil || baccarat.ErrorCode(err) == baccarat.CodeConflict
		}
	}
	return false
}

// recall reads a round's records and its shoe's.
func (s *Server) recall(ctx context.Context, o backoffice.Journals, ref backoffice.RoundRef) (*RoundRecall, error) {
	recs, err := o.LoadRange(ctx, ref.Table, ref.First, ref.Last)
	if err != nil {
		return nil, err
	}
	first, err := o.LoadRange(ctx, ref.Table, 1, 1)
	if err != nil || len(first) == 0 {
		return nil, baccarat.Errorf(baccarat.CodeNotFound, "table %s has no journal here", ref.Table)
	}
	var spec live.Spec
	if err := json.Unmarshal(first[0].Data, &spec); err != nil {
		return nil, err
	}
	if spec.Currency == "" {
		spec.Currency = live.PlayMoney
	}
	rc := &RoundRecall{Table: ref.Table, Name: spec.Name, Game: spec.Config.Game, Currency: string(spec.Currency),
		MinorUnits: baccarat.MinorUnits(string(spec.Currency)), Round: ref.Round, Status: ref.Status, Result: ref.Result,
		At: ref.At, First: ref.First, Last: ref.Last, Cards: []table.DealtCard{}, Events: []RecallEvent{}, Wagers: []table.Wager{},
		Withdrawn: []table.Wager{}, Settlements: []table.Settlement{}, Postings: []ledger.Transaction{}}
	var events []table.Event
	for _, rec := range recs {
		var e table.Event
		if err := json.Unmarshal(rec.Data, &e); err != nil {
			return nil, err
		}
		events = append(events, e)
		rc.add(rec, &e)
	}
	if spec.Wallet == live.WalletSeamless {
		ids := make([]uint64, 0, len(rc.Wagers))
		for _, w := range rc.Wagers {
			ids = append(ids, w.ID)
		}
		if rc.Calls, err = o.WagerCalls(ctx, ref.Table, ids); err != nil {
			return nil, err
		}
	} else {
		rc.Postings = append(rc.Postings, live.Postings(ref.Table, spec.Currency, events)...)
	}
	if ref.Shoe > 0 {
		rc.Shoe = shoeOf(ctx, o, ref.Table, ref.Shoe)
	}
	return rc, nil
}

// add files one record of the round.
func (rc *RoundRecall) add(rec journal.Record, e *table.Event) {
	data := json.RawMessage(rec.Data)
	if e.Type == table.EvShoeStarted { // a new shoe's order is secret until it ends, from staff too
		pub := e.Public()
		data = mustJSON(&pub)
	}
	rc.Events = append(rc.Events, RecallEvent{Seq: rec.Seq, At: rec.At, Type: rec.Type, Actor: e.Actor, Role: e.Role.String(),
		Reason: e.Reason, Event: data})
	switch e.Type {
	case table.EvCardDealt:
		rc.Cards = append(rc.Cards, e.Card)
	case table.EvWagerPlaced:
		rc.Wagers = append(rc.Wagers, *e.Wager)
	case table.EvWagerRaised, table.EvWagerLowered: // the round's one wager on the spot, at its new total
		for i := range rc.Wagers {
			if rc.Wagers[i].ID == e.Wager.ID {
				rc.Wagers[i].Stake = e.Wager.Stake
			}
		}
	case table.EvWagerWithdrawn:
		rc.Withdrawn = append(rc.Withdrawn, e.Withdrawn()...)
	case table.EvRoundSettled:
		rc.Winner = e.Result.Winner.String()
		rc.Settlements = append(rc.Settlements, e.Settlements...)
	case table.EvRoundVoided, table.EvSessionSettled:
		rc.Settlements = append(rc.Settlements, e.Settlements...)
	}
}

// shoeOf reads a shoe's first record and, once it is over, its last: the order stays the
// server's secret while the shoe is in play, for staff too.
func shoeOf(ctx context.Context, o backoffice.Journals, tableID string, n uint64) *RecallShoe {
	ref, err := o.Shoe(ctx, tableID, n)
	if err != nil || ref.Started == 0 {
		return nil
	}
	out := &RecallShoe{Number: n, Started: ref.Started, Ended: ref.Ended}
	if recs, err := o.LoadRange(ctx, tableID, ref.Started, ref.Started); err == nil && len(recs) == 1 {
		var e table.Event
		if json.Unmarshal(recs[0].Data, &e) == nil && e.Shoe() != nil {
			sh := e.Shoe()
			out.Decks, out.Cards, out.Live, out.Commitment = sh.Decks, sh.Cards, sh.Live, sh.Commitment
		}
	}
	if ref.Ended == 0 {
		return out
	}
	if recs, err := o.LoadRange(ctx, tableID, ref.Ended, ref.Ended); err == nil && len(recs) == 1 {
		var e table.Event
		if json.Unmarshal(recs[0].Data, &e) == nil && e.Shoe() != nil {
			sh := e.Shoe()
			out.Revealed, out.Order, out.Salt, out.Verified = len(sh.Order) > 0, sh.Order, sh.Salt, sh.Verified
		}
	}
	return out
}
