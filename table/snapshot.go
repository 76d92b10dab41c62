package table

import (
	"cmp"
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
)

// Snapshots. A table's state between two rounds is small whatever its history: the shoe in
// play, the wagers riding into the next round and the Dragon session's, the participants and
// what they hold, the request ids of the last two rounds, the shoe's results, the house's
// result, the limits as they stand. Snapshot writes it down, and FromSnapshot rebuilds from it the
// very table a replay of the whole history would (the property tests check it field by
// field), so a host recovers a table from its latest snapshot and the events after it
// instead of from its first event. A snapshot is taken only between rounds (CanSnapshot),
// where no round's wagers, tallies, squeeze or interruption are under way.

// SnapshotVersion is the form of Snapshot; a snapshot of another version is not restored
// (the host replays the journal instead).
const SnapshotVersion = 1

// Snapshot is a table's whole state between rounds.
type Snapshot struct {
	Version int    `json:"version"`
	Config  Config `json:"config"` // as it stands: limits changed since the start included
	// Seq is the last event's sequence number: the history the snapshot stands for.
	Seq            uint64            `json:"seq"`
	Round          uint64            `json:"round"`
	Phase          Phase             `json:"phase"`
	Until          time.Time         `json:"until,omitzero"`
	Shoe           ShoeSnapshot      `json:"shoe"`
	Cards          []baccarat.Card   `json:"cards,omitempty"` // the last coup's, in deal order
	Betting        int               `json:"betting,omitempty"`
	Riding         []Wager           `json:"riding,omitempty"`
	Dragon         []Wager           `json:"dragon,omitempty"`
	Session        uint64            `json:"session"`
	SessionResults []baccarat.Winner `json:"session_results,omitempty"`
	NextWager      uint64            `json:"next_wager"`
	Seats          []string          `json:"seats"`   // in the order they were first named
	Parties        []PartySnapshot   `json:"parties"` // likewise
	Requests       []RequestSnapshot `json:"requests,omitempty"`
	PrevRequests   []RequestSnapshot `json:"prev_requests,omitempty"`
	ShoeResults    []ShoeResult      `json:"shoe_results,omitempty"`
	House          baccarat.Money    `json:"house"`
	MaxArea        int               `json:"max_area,omitempty"`
	Differential   baccarat.Money    `json:"differential,omitempty"`
	// Paused, Reopened and Closed are the pit's (pause.go). A snapshot written before tables
	// could be paused has none of them, which is right for it: version 1 still.
	Paused   bool `json:"paused,omitempty"`
	Reopened bool `json:"reopened,omitempty"`
	Closed   bool `json:"closed,omitempty"`
	// ShoeHolder holds the shoe at a Method C table (methodc.go): it stays with them across
	// rounds.
	ShoeHolder   string `json:"shoe_holder,omitempty"`
	ShoeDeclined string `json:"shoe_declined,omitempty"` // gave it up: passed over once
	// Chips are the chips raised onto the riding and Dragon wagers (raise.go); none in a
	// snapshot written before wagers were raised.
	Chips []WagerChips `json:"chips,omitempty"`
}

// ShoeSnapshot is the shoe in play (or the last one).
type ShoeSnapshot struct {
	Active     bool                     `json:"active"`
	Number     uint64                   `json:"number"`
	Decks      int                      `json:"decks"`
	Counts     [baccarat.NumCards]int32 `json:"counts"` // of each card, not yet dealt
	Order      []baccarat.Card          `json:"order,omitempty"`
	Next       int                      `json:"next,omitempty"`
	CutAt      int                      `json:"cut_at,omitempty"`
	CutCard    int                      `json:"cut_card,omitempty"`
	Ending     bool                     `json:"ending,omitempty"`
	Commitment *baccarat.Commitment     `json:"commitment,omitempty"`
	Salt       string                   `json:"salt,omitempty"`
}

// PartySnapshot is a participant: their name, their own seat and what they hold in play.
type PartySnapshot struct {
	Name string         `json:"name"`
	Seat string         `json:"seat"`
	Held baccarat.Money `json:"held,omitempty"`
}

// RequestSnapshot is a request id a participant's wager was placed or raised with, and the
// stake it sent (none in a snapshot written before wagers were raised: the wager's, then).
type RequestSnapshot struct {
	Party string         `json:"party"`
	ID    string         `json:"id"`
	Wager uint64         `json:"wager"`
	Stake baccarat.Money `json:"stake,omitempty"`
}

// CanSnapshot reports whether the table is between rounds: no round open, nothing pending.
func (t *Table) CanSnapshot() bool {
	return !t.roundOpen() && !t.betOpen && !t.interrupted && !t.window && len(t.pending) == 0 && t.sq == nil && len(t.wagers) == 0
}

// Snapshot writes the table's state down; false when it is not between rounds.
func (t *Table) Snapshot() (*Snapshot, bool) {
	if !t.CanSnapshot() {
		return nil, false
	}
	cards, _ := t.coup.Dealt()
	s := &Snapshot{Version: SnapshotVersion, Config: t.cfg, Seq: t.seq, Round: t.round, Phase: t.phase, Until: t.until,
		Cards: cards, Betting: t.betting, Riding: cloneWagers(t.riding), Dragon: cloneWagers(t.dragon),
		Session: t.session, SessionResults: append([]baccarat.Winner(nil), t.sessionResults...), NextWager: t.nextWager,
		ShoeResults: append([]ShoeResult(nil), t.shoeResults...), House: t.house, MaxArea: t.maxArea, Differential: t.differential,
		Requests: t.requestsOf(t.reqs), PrevRequests: t.requestsOf(t.prevReqs), Paused: t.paused, Reopened: t.reopened, Closed: t.closed, ShoeHolder: t.mc.holder, ShoeDeclined: t.mc.declined,
		Chips: t.chipsInPlay()}
	sh := t.shoe
	s.Shoe = ShoeSnapshot{Active: sh.active, Number: sh.number, Decks: sh.decks, Counts: sh.counts.Cards(),
		Order: append([]baccarat.Card(nil), sh.order...), Next: sh.next, CutAt: sh.cutAt, CutCard: sh.cutCard, Ending: sh.ending,
		Commitment: sh.commitment, Salt: sh.salt}
	for _, st := range t.seats {
		s.Seats = append(s.Seats, st.name)
	}
	for _, p := range t.parties[1:] {
		s.Parties = append(s.Parties, PartySnapshot{Name: p.name, Seat: t.seats[p.seat].name, Held: p.held})
	}
	return s, true
}

func cloneWagers(ws []Wager) []Wager { return append([]Wager(nil), ws...) }

func (t *Table) requestsOf(m map[reqKey]reqOf) []RequestSnapshot {
	out := make([]RequestSnapshot, 0, len(m))
	for k, r := range m {
		out = append(out, RequestSnapshot{Party: t.parties[k.party].name, ID: k.id, Wager: r.wager, Stake: r.stake})
	}
	slices.SortFunc(out, func(a, b RequestSnapshot) int { // one order for one state: a wager's raises share its id
		return cmp.Or(cmp.Compare(a.Wager, b.Wager), cmp.Compare(a.Party, b.Party), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// FromSnapshot rebuilds the table a snapshot was taken of: the same state a replay of its
// history up to Seq would give, from which the events after it are applied (Table.Restore
// of each, through ReplayFrom).
func FromSnapshot(s *Snapshot) (*Table, error) {
	if s.Version != SnapshotVersion {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "a table snapshot of version %d: this program reads version %d", s.Version, SnapshotVersion)
	}
	t, err := New(s.Config)
	if err != nil {
		return nil, err
	}
	t.seq, t.round, t.phase, t.until, t.betting = s.Seq, s.Round, s.Phase, s.Until, s.Betting
	t.session, t.sessionResults, t.nextWager = s.Session, append(t.sessionResults[:0], s.SessionResults...), s.NextWager
	t.shoeResults, t.house = append(t.shoeResults[:0], s.ShoeResults...), s.House
	t.maxArea, t.differential = s.MaxArea, s.Differential
	t.paused, t.reopened, t.closed = s.Paused, s.Reopened, s.Closed
	t.mc.holder, t.mc.declined = s.ShoeHolder, s.ShoeDeclined
	t.setLayout()
	if err := t.restoreShoe(&s.Shoe); err != nil {
		return nil, err
	}
	for _, k := range s.Cards {
		if err := t.coup.Add(k); err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "a table snapshot's coup: %v", err)
		}
	}
	for _, name := range s.Seats {
		t.seatOf(name)
	}
	for _, p := range s.Parties {
		id := PartyID(len(t.parties))
		t.parties = append(t.parties, party{name: p.Name, seat: t.seatOf(p.Seat), held: p.Held})
		t.partyIdx[p.Name] = id
	}
	for _, r := range s.Requests {
		t.reqs[reqKey{t.Party(r.Party), r.ID}] = reqOf{r.Wager, r.Stake}
	}
	for _, r := range s.PrevRequests {
		t.prevReqs[reqKey{t.Party(r.Party), r.ID}] = reqOf{r.Wager, r.Stake}
	}
	t.riding, t.dragon = t.internWagers(s.Riding), t.internWagers(s.Dragon)
	for _, c := range s.Chips {
		if t.chips == nil {
			t.chips = map[uint64][]Chip{}
		}
		t.chips[c.Wager] = append([]Chip(nil), c.Chips...)
	}
	return t, nil
}

// restoreShoe sets the shoe from its snapshot: its composition rebuilt from a full shoe.
func (t *Table) restoreShoe(s *ShoeSnapshot) error {
	counts := baccarat.NewCounts(s.Decks)
	for k := baccarat.Card(0); k < baccarat.NumCards; k++ {
		for n := int32(s.Decks); n > s.Counts[k]; n-- {
			if err := counts.Remove(k); err != nil {
				return baccarat.Errorf(baccarat.CodeBadRequest, "a table snapshot's shoe: %v", err)
			}
		}
	}
	t.shoe = shoeState{active: s.Active, number: s.Number, decks: s.Decks, counts: counts, order: s.Order, next: s.Next,
		cutAt: s.CutAt, cutCard: s.CutCard, ending: s.Ending, commitment: s.Commitment, salt: s.Salt}
	if s.Decks == 0 { // never a shoe
		t.shoe.counts = baccarat.Counts{}
	}
	return nil
}

// internWagers resolves the wagers' participants, seats and bets at this table, as
// onWagerPlaced does.
func (t *Table) internWagers(ws []Wager) []Wager {
	out := make([]Wager, len(ws))
	for i, w := range ws {
		w.party = t.Party(w.Player)
		w.bet = uint8(t.betIndex(w.Bet))
		w.seat = t.parties[w.party].seat
		if w.Seat != w.Player {
			w.seat = t.seatOf(w.Seat)
		}
		out[i] = w
	}
	return out
}

// ReplayFrom rebuilds a table from a snapshot and the events after it (Seq+1 on), as
// Replay rebuilds it from the whole history.
func ReplayFrom(s *Snapshot, events []Event) (*Table, error) {
	t, err := FromSnapshot(s)
	if err != nil {
		return nil, err
	}
	for i := range events {
		if err := t.Restore(&events[i]); err != nil {
			return nil, err
		}
	}
	return t, nil
}
