package protect

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/tablehouse/baccarat"
)

// Report is what a run found.
type Report struct {
	Game  string
	Decks int
	Shoes int
	// Hands is every position valued, to the deepest cut card the report allows.
	Hands uint64
	Safe  float64
	// Bets are the single-coup bets, in the game's order.
	Bets []string
	// Cuts has one report per cut card asked for, in the order asked.
	Cuts []CutReport
	// PerfectByCut[b][c − MinCutCard] is bet b's perfect counter's win per shoe with c cards
	// behind the cut card, for c from MinCutCard to the longest shoe.
	PerfectByCut [][]float64
	// Bands are each bet's expectation by cards left across shoes (Config.Bands).
	Bands []Band
}

// CutReport is the report for one cut card; its JSON is the shape `baccarat protect --json`
// prints.
type CutReport struct {
	Game    string      `json:"game"`
	Decks   int         `json:"decks"`
	CutCard int         `json:"cut_card"`
	Shoes   int         `json:"shoes"`
	Hands   uint64      `json:"hands"`
	Bets    []BetReport `json:"bets"`
	// Positions are every hand dealt before the cut card came out, by shoe and hand
	// (Config.Positions).
	Positions []Position `json:"positions,omitempty"`
}

// BetReport is one bet at one cut card.
type BetReport struct {
	Bet string `json:"bet"`
	// PositiveShare is the share of hands where the bet's expectation is above 0.
	PositiveShare float64 `json:"positive_share"`
	// MeanEdgeWhenPositive is the mean expectation per unit staked over those hands (0 when
	// there are none).
	MeanEdgeWhenPositive float64 `json:"mean_edge_when_positive"`
	// PerfectWinPerShoe is the win per shoe, in units, of a player who bets one unit on
	// every hand with a positive expectation and never otherwise.
	PerfectWinPerShoe float64     `json:"perfect_win_per_shoe"`
	Count             CountReport `json:"count"`
	// SafeCutCard is the fewest cards behind the cut card (MinCutCard at least) with which
	// the perfect counter's win per shoe is below the run's safe level; nil when no cut card
	// the shoe allows (up to its cards less six) is safe: the bet favours the player
	// wherever the cut card is (Banker at 1:1 in the tournament games).
	SafeCutCard *int `json:"safe_cut_card"`
}

// CountReport is the practical count of a bet.
type CountReport struct {
	Tags Tags `json:"tags"`
	// Threshold is the true count from which the counter bets one unit: the one that wins
	// most over the run (a multiple of 1/4); nil when no threshold wins, and the counter
	// never bets.
	Threshold *float64 `json:"threshold"`
	// WinPerShoe is that counter's win per shoe, in units.
	WinPerShoe         float64 `json:"win_per_shoe"`
	BettingCorrelation float64 `json:"betting_correlation"`
}

// Position is one hand's position: the shoe (its index in the run), the hand (0 for the
// shoe's first), the cards left before it, their counts by rank and every bet's expectation.
type Position struct {
	Shoe      int       `json:"shoe"`
	Hand      int       `json:"hand"`
	CardsLeft int       `json:"cards_left"`
	Remaining Remaining `json:"remaining"`
	EV        EVs       `json:"ev"`
}

// Remaining is a composition by rank, Ace to King; its text is the 13 counts separated by
// commas, which `baccarat analyze --shoe` reads.
type Remaining [13]int32

func (r Remaining) String() string {
	b := make([]byte, 0, 64)
	for i, n := range r {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}

// MarshalText writes String.
func (r Remaining) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// EVs are the expectations of a position, one per bet. Its JSON is an object from bet to
// expectation in the game's order of bets, each the shortest decimal that reads back as the
// same float64.
type EVs struct {
	Bets   []string
	Values []float64
}

// MarshalJSON writes {"player":-0.0123…,…}.
func (e EVs) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 32*len(e.Values))
	b = append(b, '{')
	for i, v := range e.Values {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, e.Bets[i])
		b = append(b, ':')
		b = appendFloat(b, v)
	}
	return append(b, '}'), nil
}

// appendFloat writes v as encoding/json does: the shortest representation that round-trips.
func appendFloat(b []byte, v float64) []byte {
	abs := v
	if abs < 0 {
		abs = -abs
	}
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, v, format, -1, 64)
	if format == 'e' { // 1e-07 → 1e-7, as encoding/json
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// Band is one bet's expectation by cards left, across the shoes of a run.
type Band struct {
	Bet    string
	Points []BandPoint // by cards left, most first
}

// BandPoint is the distribution of a bet's expectation over the hands that started with
// CardsLeft cards left: how many, and its 5%, 50% and 95% quantiles (to the resolution of
// the histogram they come from, a few percent of their distance from the full shoe's).
type BandPoint struct {
	CardsLeft       int
	N               uint64
	P5, Median, P95 float64
}

// report turns the merged tally into the report.
func (r *runner) report(t *tally) *Report {
	cfg := r.cfg
	nb := len(r.bets)
	rep := &Report{Game: cfg.Game.ID, Decks: cfg.Decks, Shoes: int(t.shoes), Safe: cfg.Safe, Bets: r.bets}
	for _, n := range t.hands {
		rep.Hands += n
	}
	slices.SortFunc(t.positions, func(a, b Position) int {
		return cmp.Or(cmp.Compare(a.Shoe, b.Shoe), cmp.Compare(a.Hand, b.Hand))
	})
	rep.PerfectByCut = make([][]float64, nb)
	safe := make([]*int, nb)
	for b := range nb {
		rep.PerfectByCut[b], safe[b] = r.perfectByCut(t, b)
	}
	for c, cut := range r.cuts {
		cr := CutReport{Game: rep.Game, Decks: rep.Decks, CutCard: cut, Shoes: rep.Shoes}
		for left := cut + 1; left <= t.maxLeft; left++ {
			cr.Hands += t.hands[left]
		}
		for b := range nb {
			br := r.perfect(t, b, cut, cr.Hands)
			br.Count = r.count(t, b, c)
			br.SafeCutCard = safe[b]
			cr.Bets = append(cr.Bets, br)
		}
		for _, p := range t.positions {
			if p.CardsLeft > cut {
				cr.Positions = append(cr.Positions, p)
			}
		}
		rep.Cuts = append(rep.Cuts, cr)
	}
	if t.hist != nil {
		rep.Bands = r.bands(t)
	}
	return rep
}

// perfect is the perfect counter of bet b at a cut card: every position with more cards left
// than its depth.
func (r *runner) perfect(t *tally, b, cut int, hands uint64) BetReport {
	nb := len(r.bets)
	var pos uint64
	var plus sum
	for left := cut + 1; left <= t.maxLeft; left++ {
		pos += t.positive[left*nb+b]
		plus.merge(t.plus[left*nb+b])
	}
	br := BetReport{Bet: r.bets[b], PerfectWinPerShoe: plus.units() / float64(t.shoes)}
	if hands > 0 {
		br.PositiveShare = float64(pos) / float64(hands)
	}
	if pos > 0 {
		br.MeanEdgeWhenPositive = plus.units() / float64(pos)
	}
	return br
}

// perfectByCut is bet b's perfect counter's win per shoe at every depth from MinCutCard, and
// the safe depth: the first at which it is below the safe level, if a cut card the shoe
// allows is. The win only falls as the cut card moves up (it loses hands), and is 0 where no
// hand is left.
func (r *runner) perfectByCut(t *tally, b int) ([]float64, *int) {
	nb := len(r.bets)
	wins := make([]float64, t.maxLeft-MinCutCard+1)
	var plus sum
	safe := -1
	for cut := t.maxLeft; cut >= MinCutCard; cut-- {
		if cut+1 <= t.maxLeft {
			plus.merge(t.plus[(cut+1)*nb+b])
		}
		wins[cut-MinCutCard] = plus.units() / float64(t.shoes)
	}
	most := min(t.maxLeft, r.cfg.Decks*baccarat.NumCards-6)
	for cut := MinCutCard; cut <= most && safe < 0; cut++ {
		if wins[cut-MinCutCard] < r.cfg.Safe {
			safe = cut
		}
	}
	if safe < 0 {
		return wins, nil
	}
	return wins, &safe
}

// count is the practical count of bet b at cut card c: the threshold whose hands (true count
// at or above it) sum to the highest expectation, ties to the higher threshold.
func (r *runner) count(t *tally, b, c int) CountReport {
	nb := len(r.bets)
	cr := CountReport{Tags: r.counts.Tags[b], BettingCorrelation: r.counts.BC[b]}
	cells := t.cuts[(c*nb+b)*tcBins : (c*nb+b+1)*tcBins]
	var above, best sum
	bestBin := -1
	for k := tcBins - 1; k >= 0; k-- {
		above.merge(cells[k].ev)
		if cells[k].n > 0 && above.positive() && best.less(above) {
			best, bestBin = above, k
		}
	}
	if bestBin >= 0 {
		th := binThreshold(bestBin)
		cr.Threshold = &th
		cr.WinPerShoe = best.units() / float64(t.shoes)
	}
	return cr
}

// bands reads each bet's quantiles off its histograms, per number of cards left.
func (r *runner) bands(t *tally) []Band {
	nb := len(r.bets)
	out := make([]Band, nb)
	for b := range nb {
		out[b].Bet = r.bets[b]
		for left := t.maxLeft; left >= 6; left-- {
			h := t.hist[(left*nb+b)*histBins : (left*nb+b+1)*histBins]
			var n uint64
			for _, v := range h {
				n += uint64(v)
			}
			if n == 0 {
				continue
			}
			q := func(p float64) float64 { return histValue(quantileBin(h, n, p), r.centre[b]) }
			out[b].Points = append(out[b].Points, BandPoint{CardsLeft: left, N: n, P5: q(0.05), Median: q(0.5), P95: q(0.95)})
		}
	}
	return out
}

// quantileBin is the bin holding the p-quantile of a histogram of n values: the first whose
// cumulative count reaches p·n.
func quantileBin(h []uint32, n uint64, p float64) int {
	need := p * float64(n)
	var acc uint64
	for i, v := range h {
		acc += uint64(v)
		if float64(acc) >= need && acc > 0 {
			return i
		}
	}
	return len(h) - 1
}
