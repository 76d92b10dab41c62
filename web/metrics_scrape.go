package web

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
)

// The gauges read when Prometheus scrapes, from what the host knows now: built afresh for
// each scrape (a registry of one collector beside the server's), so two scrapes at once never
// see each other's half-made figures.

var (
	stalledDesc = prometheus.NewDesc("baccarat_table_stalled",
		"1 when an automatic table this server runs has not moved for longer than its schedule allows (the rule of baccarat verify), else 0.",
		[]string{"table"}, nil)
	outboxDesc = prometheus.NewDesc("baccarat_operator_outbox_calls",
		"Credits and rollbacks written for the operator's wallet and not yet answered (the deployment's: every server shows the same); 0 without the operator's wallet.",
		nil, nil)
	outboxAgeDesc = prometheus.NewDesc("baccarat_operator_outbox_oldest_seconds",
		"Age of the oldest credit or rollback not yet answered by the operator's wallet; 0 when there is none.",
		nil, nil)
	entrantsDesc = prometheus.NewDesc("baccarat_tournament_entrants",
		"Entrants of the tournaments this server runs that have not ended, by phase; entrant is player or bot (the house's).",
		[]string{"game", "currency", "phase", "entrant"}, nil)
	poolDesc = prometheus.NewDesc("baccarat_tournament_pool_minor",
		"Prize pools (fees and rebuys collected, topped up to the guarantee) of the tournaments this server runs that have not ended, in minor units.",
		[]string{"game", "currency", "phase"}, nil)
	readyDesc = prometheus.NewDesc("baccarat_ready",
		"1 when this server is ready for traffic (GET /readyz answers 200), 0 while it drains.",
		nil, nil)
)

// scrapePatience bounds the store's reading of the outbox within one scrape.
const scrapePatience = 5 * time.Second

// scrape is one scrape's collector: the request's context and the server.
type scrape struct {
	ctx context.Context
	s   *Server
}

// Describe describes nothing: the collector is unchecked, and lives for one scrape.
func (*scrape) Describe(chan<- *prometheus.Desc) {}

func (c *scrape) Collect(ch chan<- prometheus.Metric) {
	s := c.s
	ready := 1.0
	if s.notReady() != nil {
		ready = 0
	}
	ch <- prometheus.MustNewConstMetric(readyDesc, prometheus.GaugeValue, ready)
	s.metrics.stalls.collect(ch, s.floor.Progress(), s.metrics.now())
	c.outbox(ch)
	collectTournaments(ch, s.tournaments.Tournaments())
}

func (m *Metrics) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (c *scrape) outbox(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(c.ctx, scrapePatience)
	defer cancel()
	o, err := c.s.calls.Outbox(ctx)
	if err != nil {
		// Left out rather than shown as 0, which would say all is well; the scrape goes on.
		c.s.log.Warn("metrics: reading the operator's outbox", "err", err)
		return
	}
	var age float64
	if !o.Oldest.IsZero() {
		age = max(0, c.s.metrics.now().Sub(o.Oldest).Seconds())
	}
	ch <- prometheus.MustNewConstMetric(outboxDesc, prometheus.GaugeValue, float64(o.Calls))
	ch <- prometheus.MustNewConstMetric(outboxAgeDesc, prometheus.GaugeValue, age)
}

// stallWatch remembers, for each table, the last event seen and when a scrape first saw it:
// a table whose event has not changed for longer than its StuckAfter is stalled. The host's
// tables are judged by what the scrapes saw, so after a restart a table counts from the first
// scrape; a scrape every 15 to 60 s is well within the shortest allowance (30 s of grace and
// the schedule's longest step).
type stallWatch struct {
	mu   sync.Mutex
	seen map[string]stallSeen
}

type stallSeen struct {
	seq   uint64
	since time.Time
}

// collect updates what it saw from the host's tables and sends each judged table's gauge.
func (w *stallWatch) collect(ch chan<- prometheus.Metric, tables []live.TableProgress, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	last := w.seen
	w.seen = make(map[string]stallSeen, len(tables))
	for _, t := range tables {
		if t.StuckAfter <= 0 {
			continue // a dealer's, or a tournament's session table: no schedule to judge it by; or one the pit stopped
		}
		seen, ok := last[t.ID]
		if !ok || seen.seq != t.Seq {
			seen = stallSeen{seq: t.Seq, since: now}
		}
		w.seen[t.ID] = seen
		stalled := 0.0
		if now.Sub(seen.since) > t.StuckAfter {
			stalled = 1
		}
		ch <- prometheus.MustNewConstMetric(stalledDesc, prometheus.GaugeValue, stalled, t.ID)
	}
}

// collectTournaments sends the entrants and pools of the tournaments not yet ended, summed
// by game, currency and phase.
func collectTournaments(ch chan<- prometheus.Metric, views []live.TournamentView) {
	type key struct{ game, currency, phase string }
	type sums struct {
		players, bots int
		pool          baccarat.Money
	}
	by := map[key]*sums{}
	var order []key
	for i := range views {
		v := &views[i]
		if v.Phase == tournament.PhaseFinished || v.Phase == tournament.PhaseCancelled {
			continue
		}
		k := key{v.Game, v.Config.Currency, string(v.Phase)}
		s := by[k]
		if s == nil {
			s = &sums{}
			by[k] = s
			order = append(order, k)
		}
		for _, e := range v.State.Entrants {
			if e.Bot {
				s.bots++
			} else {
				s.players++
			}
		}
		s.pool += v.State.Pool.Total
	}
	for _, k := range order {
		s := by[k]
		ch <- prometheus.MustNewConstMetric(entrantsDesc, prometheus.GaugeValue, float64(s.players), k.game, k.currency, k.phase, "player")
		ch <- prometheus.MustNewConstMetric(entrantsDesc, prometheus.GaugeValue, float64(s.bots), k.game, k.currency, k.phase, "bot")
		ch <- prometheus.MustNewConstMetric(poolDesc, prometheus.GaugeValue, float64(s.pool), k.game, k.currency, k.phase)
	}
}
