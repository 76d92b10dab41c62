package protect

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/games"
)

func TestProtectDeriveTags(t *testing.T) {
	t.Run("gains in whole steps are their own tags, correlation 1", func(t *testing.T) {
		gain := [13]float64{1, 1, 1, 2, -1, -2, -1, -1, 0, 0, 0, 0, 0}
		for i := range gain {
			gain[i] *= 3e-5
		}
		tags, bc := DeriveTags(gain)
		if tags != (Tags{1, 1, 1, 2, -1, -2, -1, -1, 0, 0, 0, 0, 0}) || math.Abs(bc-1) > 1e-12 {
			t.Errorf("%s, %v", tags, bc)
		}
	})
	t.Run("pair bets: no rank's removal matters, no count", func(t *testing.T) {
		var noise [13]float64
		for i := range noise {
			noise[i] = 3.5e-17
		}
		if tags, bc := DeriveTags(noise); tags != (Tags{}) || bc != 0 {
			t.Errorf("%s, %v", tags, bc)
		}
	})
	t.Run("every derived count is balanced, and ranks of equal effect mostly share a tag", func(t *testing.T) {
		for _, g := range []*games.Game{games.MBSTiger, games.BetOnBaccarat, games.PuntoBanco} {
			c, err := DeriveCounts(t.Context(), g, g.Decks.Default)
			if err != nil {
				t.Fatal(err)
			}
			for b, tags := range c.Tags {
				sum, level := 0, 0
				for _, v := range tags {
					sum += v
					level = max(level, v, -v)
				}
				if sum != 0 || level > MaxLevel {
					t.Errorf("%s bet %d: %s sums to %d, level %d", g.ID, b, tags, sum, level)
				}
				if level > 0 && (c.BC[b] < 0.9 || c.BC[b] != BettingCorrelation(tags, c.Gains[b])) {
					t.Errorf("%s bet %d: %s correlation %v", g.ID, b, tags, c.BC[b])
				}
			}
		}
		c, _ := DeriveCounts(t.Context(), games.PuntoBanco, 8)
		if ten := c.Tags[2][9]; c.Tags[2][10] != ten || c.Tags[2][11] != ten || c.Tags[2][12] != ten {
			t.Errorf("Tie: Ten and the face cards counted %s", c.Tags[2])
		}
	})
	t.Run("betting correlation of opposite tags is -1", func(t *testing.T) {
		gain := [13]float64{1, 2, 3, 4, 5, 6, 7, -7, -6, -5, -4, -3, -3}
		var neg Tags
		for i, g := range gain {
			neg[i] = -int(g)
		}
		if bc := BettingCorrelation(neg, gain); math.Abs(bc+1) > 1e-12 {
			t.Errorf("%v", bc)
		}
	})
}

// The true count bins are exact: a true count of exactly k/4 is in bin k, one a hair below
// is not, for negative counts too.
func TestProtectTrueCountBinsFloor(t *testing.T) {
	mid := tcRange * tcSteps
	for _, tc := range []struct{ rc, left, want int }{
		{0, 416, mid},
		{8, 416, mid + 4},        // true count exactly 1
		{7, 416, mid + 3},        // 0.875
		{-8, 416, mid - 4},       // exactly -1
		{-7, 416, mid - 4},       // -0.875: floor is -1
		{-1, 416, mid - 1},       // -0.125
		{1000, 6, tcBins - 1},    // beyond the range
		{-1000, 6, 0},            // beyond the range
		{3, 52, mid + 3*tcSteps}, // 3 per deck
	} {
		if got := tcBin(tc.rc, tc.left); got != tc.want {
			t.Errorf("running count %d with %d left: bin %d, want %d", tc.rc, tc.left, got, tc.want)
		}
	}
	if binThreshold(mid+18) != 4.5 {
		t.Errorf("bin %d starts at %v", mid+18, binThreshold(mid+18))
	}
}

func TestProtectFixedPointSumsAreExact(t *testing.T) {
	var s sum
	for _, v := range []int64{math.MaxInt64, math.MaxInt64, -5, math.MinInt64, 7} {
		s.add(v)
	}
	// MaxInt64·2 − 5 + MinInt64 + 7 = MaxInt64 + 1
	if s.hi != 0 || s.lo != 1<<63 || !s.positive() {
		t.Errorf("%+v", s)
	}
	var neg sum
	neg.add(-3)
	s.merge(neg)
	if s.lo != 1<<63-3 || neg.units() != -3.0/fixedScale || !neg.less(sum{}) {
		t.Errorf("%+v %v", s, neg.units())
	}
}

// Each expectation is written as the shortest decimal that reads back as the same float64,
// and the remaining cards as the 13 counts analyze --shoe reads.
func TestProtectPositionJSONRoundTrips(t *testing.T) {
	vals := []float64{-0.14359577247012073, 1e-7, -2.5e-320, 0, 0.1 + 0.2, 123456.789}
	p := Position{Shoe: 3, Hand: 0, CardsLeft: 416, Remaining: Remaining{32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 32, 31},
		EV: EVs{Bets: []string{"tie", "a", "b", "c", "d", "e"}, Values: vals}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"remaining":"32,32,32,32,32,32,32,32,32,32,32,32,31","ev":{"tie":-0.14359577247012073,"a":1e-7,`) {
		t.Errorf("%s", b)
	}
	var back struct{ EV map[string]float64 }
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for i, id := range p.EV.Bets {
		if math.Float64bits(back.EV[id]) != math.Float64bits(vals[i]) {
			t.Errorf("%s: %v read back as %v", id, vals[i], back.EV[id])
		}
		if want, _ := json.Marshal(vals[i]); !strings.Contains(string(b), `"`+id+`":`+string(want)) {
			t.Errorf("%s written otherwise than encoding/json writes %s", id, want)
		}
	}
	tags, _ := json.Marshal(Tags{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1})
	if string(tags) != `{"A":1,"2":0,"3":0,"4":0,"5":0,"6":0,"7":0,"8":0,"9":0,"T":0,"J":0,"Q":0,"K":-1}` {
		t.Errorf("%s", tags)
	}
}

// The chart is well-formed SVG with a panel per bet, a band, a median and a zero line each.
func TestProtectSVGDrawsEveryBet(t *testing.T) {
	rep := mustRun(t, Config{Game: games.MBSTournament, Shoes: 15, Seed: 1, Bands: true, CutCards: []int{14, 52}})
	var b strings.Builder
	if err := rep.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	d := xml.NewDecoder(strings.NewReader(svg))
	elems := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			elems[se.Name.Local]++
		}
	}
	if elems["svg"] != 1 || elems["polygon"] != 5 || elems["polyline"] != 5 || !strings.Contains(svg, "cut card 52") {
		t.Errorf("elements %v", elems)
	}
	for _, bet := range rep.Bets {
		if !strings.Contains(svg, ">"+bet+"<") {
			t.Errorf("no panel for %s", bet)
		}
	}
	if strings.Count(svg, `stroke="#d62728"`) != 5 {
		t.Errorf("%d zero lines, want 5", strings.Count(svg, `stroke="#d62728"`))
	}
	if err := mustRun(t, Config{Game: games.MBSTournament, Shoes: 1, Seed: 1}).WriteSVG(io.Discard); err == nil {
		t.Error("a report without bands drew a chart")
	}
}

// The bands are quantiles: 5% ≤ median ≤ 95%, and the median of a fresh shoe is its
// expectation, to the histogram's resolution.
func TestProtectBandsAreOrderedQuantiles(t *testing.T) {
	rep := mustRun(t, Config{Game: games.PuntoBanco, Shoes: 12, Seed: 4, Bands: true})
	for _, band := range rep.Bands {
		first := band.Points[0]
		if first.CardsLeft != 416 || first.N != 12 {
			t.Fatalf("%s first point %+v", band.Bet, first)
		}
		for _, p := range band.Points {
			if !(p.P5 <= p.Median && p.Median <= p.P95) {
				t.Errorf("%s at %d: %v %v %v", band.Bet, p.CardsLeft, p.P5, p.Median, p.P95)
			}
		}
		if math.Abs(first.Median-first.P5) > 1e-4 || math.Abs(first.P95-first.Median) > 1e-4 {
			t.Errorf("%s fresh shoe: every shoe starts alike, got %v %v %v", band.Bet, first.P5, first.Median, first.P95)
		}
	}
	if h := histBin(-0.2, -0.2); histValue(h, -0.2)-(-0.2) > 1e-4 || h != histBins/2 {
		t.Errorf("the centre falls in bin %d, value %v", h, histValue(h, -0.2))
	}
	for _, v := range []float64{-1, -0.3, -0.01, 0.05, 2} {
		got := histValue(histBin(v, -0.01), -0.01)
		if math.Abs(got-v) > 0.04*math.Abs(v+0.01)+4e-5 {
			t.Errorf("%v read back as %v", v, got)
		}
	}
}
