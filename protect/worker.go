package protect

import (
	"slices"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/odds"
)

// worker deals shoes and counts into its own tally; nothing in its loop allocates unless
// positions are kept.
type worker struct {
	r   *runner
	ex  *odds.Expecter
	t   *tally
	ev  []float64 // the current position's expectations, per bet
	rc  []int     // running counts, per bet
	err error
}

func (r *runner) newWorker(maxLeft int) (*worker, error) {
	ex, err := odds.NewExpecter(r.cfg.Game, nil)
	if err != nil {
		return nil, err
	}
	nb := len(r.bets)
	return &worker{r: r, ex: ex, t: newTally(nb, maxLeft, len(r.cuts), r.cfg.Bands),
		ev: make([]float64, nb), rc: make([]int, nb)}, nil
}

// shoe deals one shoe, given in deal order, by the Table of Play (baccarat.Deal) for as long
// as a hand starts with six cards or more, valuing every bet before each hand. Hands past a
// cut card count for the deeper cut cards and the safe depth only.
func (w *worker) shoe(index int, cards []baccarat.Card) {
	if w.err != nil {
		return
	}
	var counts baccarat.Counts
	for _, k := range cards {
		counts.Add(k)
	}
	clear(w.rc)
	tags := w.r.counts.Tags
	pos := 0
	for hand := 0; len(cards)-pos >= 6; hand++ {
		left := len(cards) - pos
		if w.err = w.ex.Returns(&counts, w.ev); w.err != nil {
			return
		}
		w.record(index, hand, left, &counts)
		_, used, err := baccarat.Deal(cards[pos:])
		if err != nil { // six cards always finish a coup
			w.err = err
			return
		}
		for _, k := range cards[pos : pos+used] {
			_ = counts.Remove(k)
			r := k.Rank() - 1
			for b := range w.rc {
				w.rc[b] += tags[b][r]
			}
		}
		pos += used
	}
	w.t.shoes++
}

// record counts one position: left cards left, the expectations in w.ev.
func (w *worker) record(index, hand, left int, counts *baccarat.Counts) {
	t := w.t
	nb := len(w.ev)
	t.hands[left]++
	at := left * nb
	for b, ev := range w.ev {
		f := toFixed(ev)
		if ev > 0 {
			t.positive[at+b]++
			t.plus[at+b].add(f)
		}
		bin := tcBin(w.rc[b], left)
		for c, cut := range w.r.cuts {
			if left > cut {
				cell := &t.cuts[(c*nb+b)*tcBins+bin]
				cell.n++
				cell.ev.add(f)
			}
		}
		if t.hist != nil {
			t.hist[(at+b)*histBins+histBin(ev, w.r.centre[b])]++
		}
	}
	if w.r.cfg.Positions {
		t.positions = append(t.positions, Position{Shoe: index, Hand: hand, CardsLeft: left,
			Remaining: counts.Ranks(), EV: EVs{Bets: w.r.bets, Values: slices.Clone(w.ev)}})
	}
}
