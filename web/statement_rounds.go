package web

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// A round's line takes its wagers from the table's journal: the records its postings name
// (their ledger keys are "<table>/<record>" and "<table>/<record>/<player>", live.Postings),
// and after them, for a round whose settlement paid the player nothing, the records up to
// the round's end. What the journal cannot say (a store without one, a record gone) leaves
// the line with its sums and the wagers its postings' memos name.

// journalRanges is a store that reads a table's journal by record number (sqlite, postgres).
type journalRanges interface {
	LoadRange(ctx context.Context, table string, fromSeq, toSeq uint64) ([]journal.Record, error)
}

// roundScan is how many records past a round's last posting are read, at most, to find how
// it ended, in chunks of roundChunk.
const (
	roundScan  = 4000
	roundChunk = 200
)

// wagerMemo is a wager's posting's memo: "wager <id> <bet>".
var wagerMemo = regexp.MustCompile(`^wager (\d+) (\S+)$`)

// lineRecords are the journal records a round's postings name, lowest and highest.
type lineRecords struct{ lo, hi uint64 }

// roundDetail adds a round's wagers, their results and its status, and the stakes riding
// in and on, from the table's journal; for player.
func (s *Server) roundDetail(ctx context.Context, player string, l *StatementLine) {
	if l.Kind != "round" {
		return
	}
	j, ok := s.books.(journalRanges)
	if !ok || l.recs.hi == 0 {
		l.Wagers = l.memoWagers
		return
	}
	recs, err := j.LoadRange(ctx, l.Table, l.recs.lo, l.recs.hi)
	if err != nil {
		l.Wagers = l.memoWagers
		return
	}
	rd := roundReader{player: player, round: uint64(l.Round), wagers: map[uint64]*roundWager{}}
	rd.read(recs)
	// After the last record the player's postings name, the round may still have ended
	// (a loss pays nothing): read on until the next round starts or the journal ends.
	for from, read := l.recs.hi+1, 0; !rd.next && read < roundScan; {
		more, err := j.LoadRange(ctx, l.Table, from, from+roundChunk-1)
		if err != nil {
			break
		}
		rd.read(more)
		read += len(more)
		from += roundChunk
		if len(more) < roundChunk {
			break // the journal's end
		}
	}
	rd.finish(l)
}

// roundWager is one of the player's wagers as the round's records tell it.
type roundWager struct {
	w        StatementWager
	placed   bool           // placed in this round
	first    baccarat.Money // its stake when this round first touched it
	settled  bool
	rides    bool
	withdraw bool
}

type roundReader struct {
	player  string
	round   uint64
	wagers  map[uint64]*roundWager
	order   []uint64
	ended   string // settled or void once the round's end is read
	next    bool   // a later round's record was read
	anyRead bool
}

func (rd *roundReader) wager(id uint64, bet string, first baccarat.Money) *roundWager {
	w := rd.wagers[id]
	if w == nil {
		w = &roundWager{w: StatementWager{ID: id, Bet: bet, Stake: first}, first: first}
		rd.wagers[id] = w
		rd.order = append(rd.order, id)
	}
	return w
}

func (rd *roundReader) read(recs []journal.Record) {
	for _, rec := range recs {
		var e table.Event
		if json.Unmarshal(rec.Data, &e) != nil {
			continue
		}
		rd.anyRead = true
		if e.Round > rd.round {
			rd.next = true
			return
		}
		if e.Round != rd.round {
			continue
		}
		switch {
		case e.Type == table.EvWagerPlaced && e.Wager != nil:
			if e.Wager.Player == rd.player {
				w := rd.wager(e.Wager.ID, e.Wager.Bet, e.Wager.Stake)
				w.placed = true
			}
		case e.Type == table.EvWagerWithdrawn:
			if e.Player() == rd.player {
				for _, x := range e.Withdrawn() {
					rd.wager(x.ID, x.Bet, x.Stake).withdraw = true
				}
			}
		case e.Wager != nil && e.Wager.Player == rd.player: // a chip added or taken back
			var delta baccarat.Money // what the chip added (taken back: negative)
			if e.Detail != nil {
				delta = e.Detail.Amount
			}
			if e.Type.String() != "wager_raised" {
				delta = -delta
			}
			w := rd.wager(e.Wager.ID, e.Wager.Bet, e.Wager.Stake-delta)
			w.w.Stake = e.Wager.Stake
		case e.Type == table.EvRoundSettled, e.Type == table.EvRoundVoided, e.Type == table.EvSessionSettled:
			if e.Type == table.EvRoundSettled && rd.ended == "" {
				rd.ended = "settled"
			}
			if e.Type == table.EvRoundVoided {
				rd.ended = "void"
			}
			for _, st := range e.Settlements {
				if st.Player != rd.player {
					continue
				}
				w := rd.wager(st.Wager, st.Bet, st.Stake)
				w.w.Stake, w.w.Paid, w.w.Result = st.Stake, st.Returned, st.Outcome.String()
				w.settled, w.rides = !st.Rides, st.Rides
				if st.Rides {
					w.w.Result = "rides"
				}
			}
		}
	}
}

// finish writes what the records told into the line: its wagers (withdrawn ones left out),
// its status, and the stakes that came in or stay on the layout, which the books post in
// other rounds: a push riding on (RWS 3.9) is staked in one round and paid in the next, a
// Dragon bet staked in one and paid when its session settles.
func (rd *roundReader) finish(l *StatementLine) {
	if !rd.anyRead {
		l.Wagers = l.memoWagers
		return
	}
	l.Status = rd.ended
	if l.Status == "" {
		l.Status = "in_play"
	}
	l.Wagers = []StatementWager{}
	for _, id := range rd.order {
		w := rd.wagers[id]
		if !w.placed {
			l.RodeIn += w.first
		}
		if w.withdraw {
			continue
		}
		switch {
		case w.rides:
			l.Rides += w.w.Stake
		case !w.settled && l.Status != "in_play":
			w.w.Result = "pending" // a Dragon bet: its session settles it
			l.Rides += w.w.Stake
		case !w.settled:
			w.w.Result = "in_play"
		}
		l.Wagers = append(l.Wagers, w.w)
	}
	l.Staked += l.RodeIn
	l.Returned += l.Rides
	l.Net = l.Returned - l.Staked
	if l.Status == "in_play" {
		l.Net = 0
	}
}

// notePosting keeps what a round's posting says beyond its amount: the journal record its
// key names, and the wager its memo names.
func (l *StatementLine) notePosting(e *ledger.Entry) {
	if rest, ok := strings.CutPrefix(e.Key, e.Table+"/"); ok {
		num, _, _ := strings.Cut(rest, "/")
		if n, err := strconv.ParseUint(num, 10, 64); err == nil && n > 0 {
			if l.recs.lo == 0 || n < l.recs.lo {
				l.recs.lo = n
			}
			l.recs.hi = max(l.recs.hi, n)
		}
	}
	if m := wagerMemo.FindStringSubmatch(e.Memo); m != nil {
		id, _ := strconv.ParseUint(m[1], 10, 64)
		l.memoWagers = append(l.memoWagers, StatementWager{ID: id, Bet: m[2], Stake: -e.Amount})
	}
}

// namer finds tables' and tournaments' names for a page of lines, each once: a table's from
// the first record of its journal (its spec: a retired session table has one too), a
// tournament's from its stream's.
type namer struct {
	ctx    context.Context
	s      *Server
	tables map[string]string
	tourns map[string]string
	// others: the names in the pages' other languages ("names"), by "table:" or
	// "tournament:" and the id.
	others map[string]map[string]string
}

func (s *Server) namer(ctx context.Context) *namer {
	return &namer{ctx: ctx, s: s, tables: map[string]string{}, tourns: map[string]string{}, others: map[string]map[string]string{}}
}

func (n *namer) name(l *StatementLine) {
	if l.Table != "" {
		l.TableName = n.tableName(l.Table)
		l.TableNames = n.others["table:"+l.Table]
	}
	if l.Tournament != "" {
		l.TournamentName = n.tournamentName(l.Tournament)
		l.TournamentNames = n.others["tournament:"+l.Tournament]
	}
}

func (n *namer) tableName(id string) string {
	if v, ok := n.tables[id]; ok {
		return v
	}
	var spec live.Spec
	n.first(id, &spec)
	n.tables[id], n.others["table:"+id] = spec.Name, spec.Names
	return spec.Name
}

func (n *namer) tournamentName(id string) string {
	if v, ok := n.tourns[id]; ok {
		return v
	}
	var spec live.TournamentSpec
	n.first(tabletop.Stream(id), &spec)
	name, names := spec.Config.Name, spec.Config.Names
	if name == "" {
		if tv, err := n.s.tournaments.Tournament(n.ctx, id, ""); err == nil {
			name, names = tv.Name, tv.Config.Names
		}
	}
	n.tourns[id], n.others["tournament:"+id] = name, names
	return name
}

// first decodes a journal's first record into v, leaving it as it is if there is none.
func (n *namer) first(stream string, v any) {
	j, ok := n.s.books.(journalRanges)
	if !ok {
		return
	}
	if recs, err := j.LoadRange(n.ctx, stream, 1, 1); err == nil && len(recs) == 1 {
		_ = json.Unmarshal(recs[0].Data, v)
	}
}
