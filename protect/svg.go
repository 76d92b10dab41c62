package protect

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/tablehouse/baccarat"
)

// The chart's geometry, in SVG user units.
const (
	svgWidth  = 960
	panelH    = 200
	padLeft   = 80
	padRight  = 20
	padTop    = 36
	padBottom = 34
	// minPoint is the fewest hands a number of cards left needs to be drawn: quantiles of
	// fewer are noise.
	minPoint = 10
)

// WriteSVG draws, per bet, the expectation per unit staked against the cards left: the
// median across shoes, the band from 5% to 95%, the zero line and the cut cards of the
// report, over the hands the deepest of them lets be dealt (the few cards past it swing far
// and are never played). The report must come from a run with Config.Bands. Hand-written
// SVG, no fonts or scripts needed.
func (rep *Report) WriteSVG(w io.Writer) error {
	if rep.Bands == nil {
		return baccarat.Errorf(baccarat.CodeBadRequest, "the report has no bands: run with Config.Bands")
	}
	bw := bufio.NewWriter(w)
	height := padTop + len(rep.Bands)*panelH + 10
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		svgWidth, height, svgWidth, height)
	fmt.Fprintf(bw, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(bw, `<text x="%d" y="20" font-size="14">%s, %d decks, %d shoes: expectation per unit staked against the cards left (median, 5–95%% of shoes)</text>`+"\n",
		padLeft, esc(rep.Game), rep.Decks, rep.Shoes)
	for i := range rep.Bands {
		rep.panel(bw, &rep.Bands[i], padTop+i*panelH)
	}
	fmt.Fprintln(bw, "</svg>")
	return bw.Flush()
}

// panel draws one bet's chart with its top edge at y0.
func (rep *Report) panel(w io.Writer, b *Band, y0 int) {
	pts := make([]BandPoint, 0, len(b.Points))
	lo, hi, maxLeft := 0.0, 0.0, 6
	deepest := rep.Cuts[0].CutCard
	for _, c := range rep.Cuts {
		deepest = min(deepest, c.CutCard)
	}
	for _, p := range b.Points {
		if p.N < minPoint || p.CardsLeft <= deepest {
			continue
		}
		pts = append(pts, p)
		lo, hi = math.Min(lo, p.P5), math.Max(hi, p.P95)
		maxLeft = max(maxLeft, p.CardsLeft)
	}
	if pad := (hi - lo) * 0.05; pad > 0 {
		lo, hi = lo-pad, hi+pad
	} else {
		lo, hi = lo-0.01, hi+0.01
	}
	top, bottom := float64(y0+8), float64(y0+panelH-padBottom)
	left, right := float64(padLeft), float64(svgWidth-padRight)
	x := func(cards int) float64 { // most cards on the left: the shoe is dealt left to right
		return left + (right-left)*float64(maxLeft-cards)/float64(max(maxLeft-deepest, 1))
	}
	y := func(v float64) float64 { return bottom - (bottom-top)*(v-lo)/(hi-lo) }
	fmt.Fprintf(w, `<g><rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`+"\n",
		left, top, right-left, bottom-top)
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-weight="bold">%s</text>`+"\n", left+6, top+14, esc(b.Bet))
	rep.axes(w, x, y, lo, hi, maxLeft, deepest, bottom, left)
	if len(pts) > 0 {
		var band, med strings.Builder
		for _, p := range pts {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(p.CardsLeft), y(p.P95))
			fmt.Fprintf(&med, "%.1f,%.1f ", x(p.CardsLeft), y(p.Median))
		}
		for i := len(pts) - 1; i >= 0; i-- {
			fmt.Fprintf(&band, "%.1f,%.1f ", x(pts[i].CardsLeft), y(pts[i].P5))
		}
		fmt.Fprintf(w, `<polygon points="%s" fill="#9ecae1" fill-opacity="0.6" stroke="none"/>`+"\n", strings.TrimSpace(band.String()))
		fmt.Fprintf(w, `<polyline points="%s" fill="none" stroke="#08519c" stroke-width="1.5"/>`+"\n", strings.TrimSpace(med.String()))
	}
	fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#d62728" stroke-dasharray="6,3"/>`+"\n", left, y(0), right, y(0))
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" fill="#d62728" text-anchor="end">0</text>`+"\n", right-4, y(0)-3)
	for _, c := range rep.Cuts {
		if c.CutCard < maxLeft && c.CutCard > deepest {
			cx := x(c.CutCard)
			fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555" stroke-dasharray="2,3"/>`+"\n", cx, top, cx, bottom)
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" fill="#555" text-anchor="end">cut card %d</text>`+"\n", cx-3, top+26, c.CutCard)
		}
	}
	fmt.Fprintln(w, "</g>")
}

// axes draws the value ticks (lowest, highest) and a tick per deck of cards left, down to the
// deepest cut card.
func (rep *Report) axes(w io.Writer, x func(int) float64, y func(float64) float64, lo, hi float64, maxLeft, deepest int,
	bottom, left float64) {
	for _, v := range []float64{lo, hi} {
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-4, y(v)+4, signedPct(v))
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end">%d: cut card</text>`+"\n", x(deepest), bottom+16, deepest)
	for cards := maxLeft; cards > deepest+baccarat.NumCards/4; cards -= baccarat.NumCards {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ccc"/>`+"\n", x(cards), bottom, x(cards), bottom+4)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`+"\n", x(cards), bottom+16, cards)
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end" fill="#555">cards left</text>`+"\n", float64(svgWidth-padRight), bottom+28)
}

func signedPct(v float64) string { return fmt.Sprintf("%+.2f%%", 100*v) }

var svgEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

func esc(s string) string { return svgEscaper.Replace(s) }
