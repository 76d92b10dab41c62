package tournament

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tablehouse/baccarat"
)

// genConfig draws a valid tournament: 2 to 18 entrants at tables of 2 to 6, rounds until
// the final fits one table, sessions of hands or of time, maybe rebuys, a guarantee,
// Dragon bets.
func genConfig(t *rapid.T) Config {
	c := baseConfig()
	c.Game = rapid.SampledFrom(Games).Draw(t, "game")
	c.Dragon = c.Game == "mbs-dragon" && rapid.Bool().Draw(t, "dragon")
	c.TableSize = rapid.IntRange(2, 6).Draw(t, "table_size")
	c.MaxEntrants = rapid.IntRange(2, 18).Draw(t, "max_entrants")
	c.EntryFee = baccarat.Money(rapid.Int64Range(0, 1000).Draw(t, "fee"))
	c.Guarantee = baccarat.Money(rapid.Int64Range(0, 20_000).Draw(t, "guarantee"))
	c.StartingChips = 1000
	// Sampled, not ranged: rapid draws numbers near the bottom of a range most of the time.
	min := rapid.SampledFrom([]baccarat.Money{250, 100, 400, 1, 50}).Draw(t, "min")
	c.Stakes = Stakes{Min: min, Max: min * baccarat.Money(rapid.SampledFrom([]int64{2, 4, 1}).Draw(t, "max"))}
	c.Rounds = genRounds(t, c.MaxEntrants, c.TableSize)
	c.Prizes = genShares(t, min2(c.MaxEntrants, 5))
	if rapid.Bool().Draw(t, "rebuys") {
		r := rapid.IntRange(1, len(c.Rounds)).Draw(t, "until_round")
		s := rapid.IntRange(1, len(c.Rounds[r-1].Sessions)).Draw(t, "until_session")
		h := c.Rounds[r-1].Sessions[s-1].Hands
		if h == 0 {
			h = 5
		}
		c.Rebuy = &Rebuy{Max: rapid.IntRange(1, 2).Draw(t, "rebuy_max"), Price: baccarat.Money(rapid.Int64Range(0, 500).Draw(t, "price")),
			Chips: 1000, Until: Point{Round: r, Session: s, Hand: rapid.IntRange(1, h).Draw(t, "until_hand")}}
	}
	return c
}

func min2(a, b int) int { return min(a, b) }

// rare is true about one time in ten (rapid favours the first and last of a list).
func rare(t *rapid.T, label string) bool {
	return rapid.SampledFrom([]bool{false, false, false, false, false, false, false, false, true}).Draw(t, label)
}

func genRounds(t *rapid.T, n, k int) []Round {
	var rounds []Round
	for n > k || (n > 1 && len(rounds) < 2 && rapid.IntRange(0, 3).Draw(t, "extra round") == 0) {
		r := Round{Sessions: genSessions(t), Advance: rapid.IntRange(1, k).Draw(t, "advance"),
			AdvanceOverall: rapid.Bool().Draw(t, "overall"), CarryChips: len(rounds) > 0 && rapid.Bool().Draw(t, "carry")}
		if next := advancing(n, k, r); next >= n || (len(rounds) >= 2 && next > k) {
			r.Advance, r.AdvanceOverall = min(k, n-1), true
		}
		rounds = append(rounds, r)
		n = advancing(n, k, r)
	}
	final := Round{Sessions: genSessions(t), CarryChips: len(rounds) > 0 && rapid.Bool().Draw(t, "carry")}
	return append(rounds, final)
}

func genSessions(t *rapid.T) []Session {
	ss := make([]Session, rapid.IntRange(1, 2).Draw(t, "sessions"))
	for i := range ss {
		if rapid.IntRange(0, 3).Draw(t, "timed") == 0 {
			ss[i].Duration = Duration(time.Minute)
		} else {
			ss[i].Hands = rapid.SampledFrom([]int{4, 2, 6, 1}).Draw(t, "hands")
		}
	}
	return ss
}

// genShares draws 1 to n non-increasing positive shares summing to 10000.
func genShares(t *rapid.T, n int) []int {
	k := rapid.IntRange(1, n).Draw(t, "places")
	shares := make([]int, k)
	left := FullShare - k
	for i := range shares {
		shares[i] = 1
		if i == k-1 {
			shares[i] += left
		} else {
			x := rapid.IntRange(0, left).Draw(t, "share")
			shares[i] += x
			left -= x
		}
	}
	slices.Sort(shares)
	slices.Reverse(shares)
	return shares
}

// driver plays a generated tournament, keeping every event and checking that a refused
// command changes nothing.
type driver struct {
	t      *rapid.T
	tr     *Tournament
	events []Event
	now    time.Time
	ids    []string
}

func (d *driver) apply(c Command) {
	d.now = d.now.Add(time.Second)
	c.At = d.now
	before := d.state()
	evs, err := d.tr.Apply(&c)
	if err != nil {
		if code := baccarat.ErrorCode(err); code == baccarat.CodeInternal {
			d.t.Fatalf("%s: an error without a code: %v", c.Type, err)
		}
		if d.state() != before {
			d.t.Fatalf("%s refused (%v) but changed the tournament", c.Type, err)
		}
		return
	}
	d.events = append(d.events, evs...)
}

func (d *driver) state() string {
	b, err := json.Marshal(d.tr.State())
	if err != nil {
		d.t.Fatal(err)
	}
	return string(b)
}

func (d *driver) register() {
	d.now = d.tr.cfg.RegistrationOpens
	d.apply(Command{Type: CmdOpenRegistration})
	n := rapid.IntRange(2, d.tr.cfg.MaxEntrants+1).Draw(d.t, "entrants")
	if rare(d.t, "too few") {
		n = rapid.IntRange(0, 1).Draw(d.t, "entrants")
	}
	for i := range n {
		d.apply(Command{Type: CmdRegister, Player: d.ids[i]})
		if rare(d.t, "unregister") {
			d.apply(Command{Type: CmdUnregister, Player: d.ids[i]})
		}
	}
	d.now = d.tr.cfg.Start
	d.apply(Command{Type: CmdStart, Seed: rapid.Uint64().Draw(d.t, "seed")})
}

// step sends one command: usually what the tournament needs next, sometimes a rebuy, a
// stray report or a cancel, all of which may be refused.
func (d *driver) step() {
	tables := d.tr.current().tables
	tb := tables[rapid.IntRange(0, len(tables)-1).Draw(d.t, "table")]
	switch {
	case rare(d.t, "stray"):
		d.stray(tb)
	case d.rebuy(tb):
	case !tb.live:
		d.apply(Command{Type: CmdStartSession, Table: tb.number})
	case d.tr.sessionConfig(tb).Duration > 0 && rapid.IntRange(0, 3).Draw(d.t, "time up") == 0:
		var settle []ChipChange
		if d.tr.cfg.Dragon {
			settle = d.changes(tb, 3000)
		}
		d.apply(Command{Type: CmdEndSession, Table: tb.number, Changes: settle})
	case rare(d.t, "void"):
		d.apply(Command{Type: CmdReportHand, Table: tb.number, Void: true})
	default:
		d.apply(Command{Type: CmdReportHand, Table: tb.number, Changes: d.changes(tb, d.tr.Stakes().Max)})
	}
}

// rebuy has the table's first busted player rebuy, most of the time.
func (d *driver) rebuy(tb *table) bool {
	for _, id := range tb.players {
		if p := d.tr.lookup(id); d.tr.busted(p) && rapid.IntRange(0, 3).Draw(d.t, "rebuys") > 0 {
			d.apply(Command{Type: CmdRebuy, Player: id})
			return true
		}
	}
	return false
}

func (d *driver) stray(tb *table) {
	switch rapid.IntRange(0, 3).Draw(d.t, "stray kind") {
	case 0:
		d.apply(Command{Type: CmdRebuy, Player: rapid.SampledFrom(d.ids).Draw(d.t, "who")})
	case 1:
		d.apply(Command{Type: CmdReportHand, Table: tb.number, Hand: rapid.IntRange(0, 3).Draw(d.t, "hand"),
			Changes: []ChipChange{ch(rapid.SampledFrom(d.ids).Draw(d.t, "who"), baccarat.Money(rapid.Int64Range(-5000, 5000).Draw(d.t, "net")))}})
	case 2:
		d.apply(Command{Type: CmdStartSession, Table: rapid.IntRange(0, 4).Draw(d.t, "any table")})
	default:
		d.apply(Command{Type: CmdCancel})
	}
}

// changes draws a net result for some of the session's players in play, a loss at most
// lossCap and never more than their chips.
func (d *driver) changes(tb *table, lossCap baccarat.Money) []ChipChange {
	var out []ChipChange
	for _, s := range d.tr.sessions[tb.record].Seats {
		p := d.tr.lookup(s.Player)
		if p.eliminated || rare(d.t, "sits out") {
			continue
		}
		// Quarters of the most they can lose or win: rapid favours the first entries.
		k := rapid.SampledFrom([]int64{-1, 1, -4, 2, -2, 0, 4, -3, 3}).Draw(d.t, "quarters")
		net := baccarat.Money(k) * lossCap / 4
		if k < 0 {
			net = baccarat.Money(k) * min(p.chips, lossCap) / 4
		}
		out = append(out, ch(p.id, net))
	}
	return out
}

func TestPropertyTournaments(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := genConfig(t)
		tr, err := New(cfg)
		if err != nil {
			t.Fatalf("a generated config is refused: %v", err)
		}
		d := &driver{t: t, tr: tr}
		for i := range cfg.MaxEntrants + 2 {
			d.ids = append(d.ids, fmt.Sprintf("p%02d", i+1))
		}
		d.register()
		for i := 0; i < 600 && d.tr.Phase() == PhaseRunning; i++ {
			d.step()
			checkLive(t, d.tr)
		}
		checkFinished(t, d)
		checkReplay(t, cfg, d)
	})
}

// checkLive checks what must hold after every command: no negative chips, the leaderboard
// in order, every ended session balanced.
func checkLive(t *rapid.T, tr *Tournament) {
	for _, p := range tr.players {
		if p.chips < 0 {
			t.Fatalf("%s has %d chips", p.id, p.chips)
		}
	}
	lb := tr.Leaderboard()
	for i := 1; i < len(lb); i++ {
		if lb[i].Chips > lb[i-1].Chips || lb[i].Rank < lb[i-1].Rank {
			t.Fatalf("leaderboard out of order: %+v", lb)
		}
	}
	for _, s := range tr.Sessions() {
		if s.Ended && !s.Accounting().Balanced {
			t.Fatalf("session %d/%d/%d does not balance: %+v", s.Round, s.Table, s.Session, s.Accounting())
		}
	}
}

// checkFinished checks a finished tournament paid exactly its pool, the fees and rebuys
// collected topped up to the guarantee, to a ranking of every entrant.
func checkFinished(t *rapid.T, d *driver) {
	var collected baccarat.Money
	for _, e := range d.events {
		switch e.Type {
		case EvRegistered, EvRebought:
			collected += e.Amount
		case EvUnregistered:
			collected -= e.Amount
		}
	}
	if d.tr.Phase() != PhaseFinished {
		return
	}
	pool := d.tr.Pool()
	if want := poolOf(collected, d.tr.cfg.Guarantee); pool != want || pool.Total < d.tr.cfg.Guarantee {
		t.Fatalf("pool %+v, want %+v", pool, want)
	}
	var paid baccarat.Money
	results := d.tr.Results()
	for i, r := range results {
		paid += r.Prize
		if i > 0 && (r.Rank < results[i-1].Rank || r.Round > results[i-1].Round) {
			t.Fatalf("results out of order: %+v", results)
		}
	}
	if paid != pool.Total || len(results) != len(d.tr.players) {
		t.Fatalf("paid %d of a pool of %d to %d of %d entrants", paid, pool.Total, len(results), len(d.tr.players))
	}
}

// checkReplay rebuilds the tournament from its events, straight and through JSON.
func checkReplay(t *rapid.T, cfg Config, d *driver) {
	for i, e := range d.events {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d numbered %d", i+1, e.Seq)
		}
	}
	want := d.state()
	again, err := Replay(cfg, d.events)
	if err != nil {
		t.Fatal(err)
	}
	if got := (&driver{t: t, tr: again}).state(); got != want {
		t.Fatalf("replay differs:\n%s\n%s", got, want)
	}
	b, err := json.Marshal(d.events)
	if err != nil {
		t.Fatal(err)
	}
	var back []Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	again, err = Replay(cfg, back)
	if err != nil {
		t.Fatal(err)
	}
	if got := (&driver{t: t, tr: again}).state(); got != want {
		t.Fatalf("replay from JSON differs:\n%s\n%s", got, want)
	}
}
