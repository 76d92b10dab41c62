package web

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// The figures an operator runs the business on, counted from what the host commits (Metrics
// is its live.Observer). Money is counted in the currency's minor units (cents for EUR, yen
// for JPY: baccarat.MinorUnits), exact as long as a counter stays under 2^53 of them, as
// Prometheus keeps every sample as a float64.
//
// A table's money, by table, game and currency:
//
//	wager_placed                        wagers placed +1, stakes placed +stake
//	wager_raised                        stakes placed +the chip added (the same wager)
//	wager_lowered                       stakes refunded +the chip taken back
//	round_settled, session_settled      stakes settled +stake, returned +returned, of each
//	                                    wager settled (a push that rides on, RWS 3.9, waits
//	                                    for the round that settles it)
//	round_voided, wager_withdrawn       stakes refunded +stake
//
// so the house's takings are stakes settled − returned, exactly what the settlements post to
// the house's account (live.Postings), and stakes placed = stakes settled + refunded + what
// is in play now.
//
// A tournament's session tables play for chips and come and go with their tournaments: they
// share one set of series per game (table "(tournament)", currency "chips"), so that the
// label sets stay bounded by the tables an operator sets up. Tournaments are counted by game
// and currency, never by tournament id, for the same reason.

// tournamentTable and chipsCurrency are the table and currency labels of every tournament's
// session tables: neither is an id or a currency code (a table id has no parentheses).
const (
	tournamentTable = "(tournament)"
	chipsCurrency   = "chips"
)

type business struct {
	rounds, voids, wagers, staked, settled, returned, refunded *prometheus.CounterVec
	// byTable caches each running table's counters under its *live.Spec, the same pointer at
	// every commit of one runner: a lookup that neither locks nor allocates. A table's entry
	// goes when its lease does (LeaseChanged), so the cache holds the running tables only.
	byTable sync.Map

	registrations, unregistrations, rebuys, fees, refunds, prizes, topUps, ended *prometheus.CounterVec

	tmu          sync.Mutex // byTournament's: tournaments commit seldom
	byTournament map[tournamentKey]*tournamentCounters

	held, released prometheus.Counter
}

func newBusiness(f func(prometheus.Collector) prometheus.Collector) *business {
	vec := func(name, help string, labels ...string) *prometheus.CounterVec {
		return f(prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)).(*prometheus.CounterVec)
	}
	tl := []string{"table", "game", "currency"}
	gl := []string{"game", "currency"}
	leases := vec("baccarat_lease_changes_total", "Leases of tables and tournaments this server took up (held) or let go of (released).", "lease")
	return &business{
		rounds:   vec("baccarat_rounds_settled_total", "Rounds settled.", tl...),
		voids:    vec("baccarat_rounds_voided_total", "Rounds voided (every stake returned).", tl...),
		wagers:   vec("baccarat_wagers_placed_total", "Wagers placed (committed).", tl...),
		staked:   vec("baccarat_stakes_placed_minor_total", "Stakes of the wagers placed, in minor units of the currency.", tl...),
		settled:  vec("baccarat_stakes_settled_minor_total", "Stakes of the wagers settled (won, lost or pushed), in minor units; takings = this - returned.", tl...),
		returned: vec("baccarat_returned_minor_total", "Paid back to players by settlements (stake and winnings, or the stake of a push), in minor units.", tl...),
		refunded: vec("baccarat_stakes_refunded_minor_total", "Stakes given back by voided rounds and withdrawals, in minor units.", tl...),

		registrations:   vec("baccarat_tournament_registrations_total", "Tournament registrations (house bots included).", gl...),
		unregistrations: vec("baccarat_tournament_unregistrations_total", "Tournament registrations withdrawn.", gl...),
		rebuys:          vec("baccarat_tournament_rebuys_total", "Tournament rebuys.", gl...),
		fees:            vec("baccarat_tournament_fees_minor_total", "Entry fees and rebuy prices paid, in minor units.", gl...),
		refunds:         vec("baccarat_tournament_refunds_minor_total", "Fees refunded (withdrawn registrations, cancelled tournaments), in minor units.", gl...),
		prizes:          vec("baccarat_tournament_prizes_minor_total", "Prizes paid by finished tournaments, in minor units.", gl...),
		topUps:          vec("baccarat_tournament_topups_minor_total", "The house's top-ups of finished tournaments' pools to their guarantees, in minor units.", gl...),
		ended:           vec("baccarat_tournaments_ended_total", "Tournaments ended, by outcome (finished, cancelled).", "game", "currency", "outcome"),
		byTournament:    map[tournamentKey]*tournamentCounters{},

		held:     leases.WithLabelValues("held"),
		released: leases.WithLabelValues("released"),
	}
}

// tableCounters are one table's children of the business counters.
type tableCounters struct {
	rounds, voids, wagers, staked, settled, returned, refunded prometheus.Counter
}

// tableLabels are a table's label values: its id, game and currency, or the shared ones of
// the tournaments' session tables.
func tableLabels(spec *live.Spec) []string {
	if spec.Tournament != nil || spec.Currency.IsChips() {
		return []string{tournamentTable, spec.Config.Game, chipsCurrency}
	}
	return []string{spec.ID, spec.Config.Game, string(spec.Currency)}
}

func (b *business) table(spec *live.Spec) *tableCounters {
	if c, ok := b.byTable.Load(spec); ok {
		return c.(*tableCounters)
	}
	l := tableLabels(spec)
	c := &tableCounters{rounds: b.rounds.WithLabelValues(l...), voids: b.voids.WithLabelValues(l...),
		wagers: b.wagers.WithLabelValues(l...), staked: b.staked.WithLabelValues(l...),
		settled: b.settled.WithLabelValues(l...), returned: b.returned.WithLabelValues(l...),
		refunded: b.refunded.WithLabelValues(l...)}
	got, _ := b.byTable.LoadOrStore(spec, c)
	return got.(*tableCounters)
}

// tableFigures is what one batch of a table's events adds up to.
type tableFigures struct {
	rounds, voids, wagers               int64
	staked, settled, returned, refunded baccarat.Money
}

func (f *tableFigures) add(e *table.Event) {
	switch e.Type {
	case table.EvWagerPlaced:
		f.wagers++
		f.staked += e.Wager.Stake
	case table.EvWagerRaised: // a chip on a wager already counted: its stake, not another wager
		f.staked += e.Amount()
	case table.EvWagerLowered: // a chip taken back, refunded as a withdrawn wager is
		f.refunded += e.Amount()
	case table.EvWagerWithdrawn:
		ws := e.Withdrawn()
		for i := range ws {
			f.refunded += ws[i].Stake
		}
	case table.EvRoundVoided:
		f.voids++
		for i := range e.Settlements {
			f.refunded += e.Settlements[i].Returned // every stake, back
		}
	case table.EvRoundSettled, table.EvSessionSettled:
		if e.Type == table.EvRoundSettled {
			f.rounds++
		}
		for i := range e.Settlements {
			s := &e.Settlements[i]
			if s.Rides {
				continue // still on the layout: settled in a later round
			}
			f.settled += s.Stake
			f.returned += s.Returned
		}
	}
}

// TableCommitted counts a table's committed events (live.Observer): on the table's
// goroutine after every commit, so it neither locks nor allocates once the table's
// counters are made (BenchmarkObserveWager).
func (m *Metrics) TableCommitted(spec *live.Spec, events []table.Event) {
	var f tableFigures
	for i := range events {
		f.add(&events[i])
	}
	if f == (tableFigures{}) {
		return // cards, phases, shoes: nothing to count
	}
	c := m.business.table(spec)
	addInt(c.rounds, f.rounds)
	addInt(c.voids, f.voids)
	addInt(c.wagers, f.wagers)
	addMoney(c.staked, f.staked)
	addMoney(c.settled, f.settled)
	addMoney(c.returned, f.returned)
	addMoney(c.refunded, f.refunded)
}

// addInt adds a whole number: the counter's integer path, one atomic add.
func addInt(c prometheus.Counter, v int64) {
	if v > 0 {
		c.Add(float64(v))
	}
}

// addMoney adds an amount in minor units, as addInt does.
func addMoney(c prometheus.Counter, v baccarat.Money) { addInt(c, int64(v)) }

type tournamentKey struct{ game, currency string }

type tournamentCounters struct {
	registrations, unregistrations, rebuys, fees, refunds, prizes, topUps, finished, cancelled prometheus.Counter
}

func (b *business) tournament(game, currency string) *tournamentCounters {
	b.tmu.Lock()
	defer b.tmu.Unlock()
	k := tournamentKey{game, currency}
	if c := b.byTournament[k]; c != nil {
		return c
	}
	c := &tournamentCounters{registrations: b.registrations.WithLabelValues(game, currency),
		unregistrations: b.unregistrations.WithLabelValues(game, currency), rebuys: b.rebuys.WithLabelValues(game, currency),
		fees: b.fees.WithLabelValues(game, currency), refunds: b.refunds.WithLabelValues(game, currency),
		prizes: b.prizes.WithLabelValues(game, currency), topUps: b.topUps.WithLabelValues(game, currency),
		finished: b.ended.WithLabelValues(game, currency, "finished"), cancelled: b.ended.WithLabelValues(game, currency, "cancelled")}
	b.byTournament[k] = c
	return c
}

// TournamentCommitted counts a tournament's committed events (live.Observer), by its game
// and currency.
func (m *Metrics) TournamentCommitted(_, game, currency string, events []tournament.Event) {
	c := m.business.tournament(game, currency)
	for i := range events {
		e := &events[i]
		switch e.Type {
		case tournament.EvRegistered:
			c.registrations.Inc()
			addMoney(c.fees, e.Amount)
		case tournament.EvUnregistered:
			c.unregistrations.Inc()
			addMoney(c.refunds, e.Amount)
		case tournament.EvRebought:
			c.rebuys.Inc()
			addMoney(c.fees, e.Amount)
		case tournament.EvCancelled:
			c.cancelled.Inc()
			addMoney(c.refunds, paid(e.Payments))
		case tournament.EvFinished:
			c.finished.Inc()
			addMoney(c.prizes, paid(e.Payments))
			if e.Pool != nil {
				addMoney(c.topUps, e.Pool.TopUp)
			}
		}
	}
}

func paid(ps []tournament.Payment) baccarat.Money {
	var n baccarat.Money
	for _, p := range ps {
		n += p.Amount
	}
	return n
}

// LeaseChanged counts a lease taken up or let go (live.Observer). A table let go leaves the
// cache of counters (its series stay: they are this process's counts).
func (m *Metrics) LeaseChanged(stream string, held bool) {
	if held {
		m.business.held.Inc()
		return
	}
	m.business.released.Inc()
	m.business.byTable.Range(func(k, _ any) bool {
		if k.(*live.Spec).ID == stream {
			m.business.byTable.Delete(k)
		}
		return true
	})
}

var _ live.Observer = (*Metrics)(nil)
