package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// freshOdds are Bet on Baccarat's first-round prices from a fresh shoe: what the simulator
// pays its decimal bets at.
func freshOdds(t testing.TB, g *games.Game, decks int) map[string]baccarat.Odds {
	t.Helper()
	prices, err := odds.Prices(baccarat.NewCounts(decks), nil, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]baccarat.Odds{}
	for _, p := range prices {
		m[p.Bet] = max(p.Odds, 100)
	}
	return m
}

func TestDeterministicWhateverTheCores(t *testing.T) {
	cfg := Config{Game: games.MBSDragon, Shoes: 3*ChunkShoes + 5, CutCard: -1, Seed: 7, Sessions: []int{10, 30}}
	var reports []*Report
	for _, workers := range []int{1, 2, 5} {
		cfg.Workers = workers
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, rep)
	}
	for i := 1; i < len(reports); i++ {
		if !reflect.DeepEqual(reports[0], reports[i]) {
			t.Errorf("seed 7 on %d workers differs from 1 worker:\n%+v\n%+v", []int{1, 2, 5}[i], reports[0], reports[i])
		}
	}
	cfg.Seed = 8
	other, _ := Run(context.Background(), cfg)
	if reflect.DeepEqual(reports[0].Bets, other.Bets) {
		t.Error("seeds 7 and 8 deal the same")
	}
}

// Every coup of the dealing loop, dealt again by the rules engine, has the key the loop gave it.
func TestDealingLoopAgreesWithRulesEngine(t *testing.T) {
	for _, g := range []*games.Game{games.MBSTiger, games.BetOnBaccarat} {
		cfg := Config{Game: g, Shoes: 100, CutCard: -1, Seed: 3, Odds: freshOdds(t, g, 6), verify: true}
		rep, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Hands == 0 || rep.PlayerWins+rep.BankerWins+rep.Ties != rep.Hands ||
			rep.Cards4+rep.Cards5+rep.Cards6 != rep.Hands {
			t.Errorf("%s: %+v", g.ID, rep)
		}
		if want := 4*rep.Cards4 + 5*rep.Cards5 + 6*rep.Cards6; rep.Cards != want {
			t.Errorf("%s: %d cards dealt, the coups used %d", g.ID, rep.Cards, want)
		}
	}
}

// The simulator agrees with the exact values within its 99% confidence intervals, for every
// bet of every game. (The exact values are a fresh shoe's; over whole shoes with a cut card
// a bet's expected return differs from it by the cut-card effect, orders of magnitude below
// these intervals.)
func TestSimulatorAgreesWithExact(t *testing.T) {
	shoes := 3000
	if testing.Short() {
		shoes = 300
	}
	for _, g := range games.All() {
		t.Run(g.ID, func(t *testing.T) {
			decks := g.Decks.Default
			cfg := Config{Game: g, Shoes: shoes, CutCard: -1, Seed: 2024}
			if g.Rules.BettingRounds > 1 {
				cfg.Odds = freshOdds(t, g, decks)
			}
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			a, err := odds.Analyze(context.Background(), baccarat.NewCounts(decks), nil)
			if err != nil {
				t.Fatal(err)
			}
			sheet := a.Sheet(g, nil)
			for _, br := range rep.Bets {
				exact := sheet.Bet(br.Bet).Return
				if math.Abs(br.Return-exact) > br.CI99 {
					t.Errorf("%s: realised %.5f ± %.5f, exact %.5f", br.Bet, br.Return, br.CI99, exact)
				}
			}
		})
	}
}

// The longest streaks of simulated Dragon sessions agree with the exact chain (independent
// hands at the fresh shoe's probabilities). 48 proportions are compared at once, so each gets
// a Bonferroni-corrected interval (z = 3.71: 99% for the family); a 40,000-shoe run agrees
// with the chain within ±2 standard errors everywhere.
func TestDragonSessionsAgreeWithChain(t *testing.T) {
	shoes := 3000
	if testing.Short() {
		shoes = 300
	}
	rep, err := Run(context.Background(), Config{Game: games.MBSDragon, Shoes: shoes, CutCard: -1, Seed: 99, Sessions: []int{20, 60}})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := odds.Analyze(context.Background(), baccarat.NewCounts(8), nil)
	for _, sr := range rep.Sessions {
		for k, b := range games.MBSDragon.DragonBets() {
			ds, err := a.Dragon(context.Background(), b, sr.Hands)
			if err != nil {
				t.Fatal(err)
			}
			for l := 0; l < 8; l++ {
				p := ds.Longest[l].Float64()
				got := float64(sr.Longest[k][l]) / float64(sr.Sessions)
				ci := 3.71*math.Sqrt(p*(1-p)/float64(sr.Sessions)) + 1e-9
				if math.Abs(got-p) > ci {
					t.Errorf("%s, %d hands, longest %d: %.4f, chain %.4f ± %.4f", b.ID, sr.Hands, l, got, p, ci)
				}
			}
		}
	}
}

func TestConfigRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		code baccarat.Code
	}{
		{"no game", Config{Shoes: 1}, baccarat.CodeUnknownGame},
		{"no shoes", Config{Game: games.MBSTiger}, baccarat.CodeBadRequest},
		{"cut card behind every card", Config{Game: games.MBSTiger, Shoes: 1, CutCard: 416}, baccarat.CodeBadRequest},
		{"BoB without odds", Config{Game: games.BetOnBaccarat, Shoes: 1, CutCard: -1}, baccarat.CodeBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tc.cfg); baccarat.ErrorCode(err) != tc.code {
				t.Errorf("error %v, want %s", err, tc.code)
			}
		})
	}
}

// A cut card placed within five cards of the end lets rounds run out of cards: those rounds
// are void (SPEC §2), and nothing else changes.
func TestCutCardAtTheEnd(t *testing.T) {
	rep, err := Run(context.Background(), Config{Game: games.PuntoBanco, Decks: 1, Shoes: 400, CutCard: 0, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Voids == 0 || rep.Voids > 400 {
		t.Errorf("%d void rounds in 400 one-deck shoes dealt to the last card", rep.Voids)
	}
	if rep.Cards > 400*52 {
		t.Errorf("%d cards dealt from 400 decks", rep.Cards)
	}
}

func ExampleRun() {
	rep, _ := Run(context.Background(), Config{Game: games.PuntoBanco, Shoes: 1000, CutCard: -1, Seed: 1})
	fmt.Println(rep.Hands, "coups from", rep.Shoes, "shoes")
	for _, b := range rep.Bets[:3] {
		fmt.Printf("%-6s %+.4f ± %.4f\n", b.Bet, b.Return, b.CI99)
	}
	// Output:
	// 81848 coups from 1000 shoes
	// player -0.0140 ± 0.0084
	// banker -0.0090 ± 0.0082
	// tie    -0.1525 ± 0.0242
}

// The streak automaton against games.Streaks, the rules' own count, over every sequence of
// up to 9 results.
func TestStreaksAgainstRules(t *testing.T) {
	res := []baccarat.Winner{baccarat.PlayerWins, baccarat.BankerWins, baccarat.Tie}
	for n := 0; n <= 9; n++ {
		seq := make([]baccarat.Winner, n)
		raw := make([]uint8, n)
		var walk func(i int)
		walk = func(i int) {
			if i == n {
				b, p := streaks(raw)
				wb, wp := games.Streaks(seq)
				if b != min(wb, 7) || p != min(wp, 7) {
					t.Fatalf("%v: %d %d, rules %d %d", seq, b, p, wb, wp)
				}
				return
			}
			for _, r := range res {
				seq[i], raw[i] = r, uint8(r)
				walk(i + 1)
			}
		}
		walk(0)
	}
}

// The dealing loop allocates nothing once a coup's key has been settled (a target of the simulator: zero
// allocations in the inner loops). Replaying one chunk keeps its keys known.
func TestDealingLoopAllocates0(t *testing.T) {
	for _, g := range []*games.Game{games.MBSTiger, games.MBSDragon} {
		cfg := Config{Game: g, Shoes: 1, CutCard: -1, Seed: 1}
		if err := cfg.validate(); err != nil {
			t.Fatal(err)
		}
		tb, err := newTable(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		w := newWorker(tb)
		w.chunk(1, 0, 8)
		if allocs := testing.AllocsPerRun(10, func() { w.chunk(1, 0, 8) }); allocs != 0 {
			t.Errorf("%s: %v allocations per 8 shoes", g.ID, allocs)
		}
	}
}

// The dealing loop's key, from its tables, against the rules engine's coup over every coup
// that differs in what a key or the Table of Play can see: the first four cards of every rank
// from ace to jack (every value, and two ranks worth 0), the fifth and sixth of every value.
// Their suits follow four patterns in turn, which between them give each pair a key looks at
// (the Player's two, the Banker's two, the first of each) every combination of suits, so that
// pairs of identical cards and of one rank in any two suits all come up.
func TestDealingLoopKeyEveryCoup(t *testing.T) {
	cfg := Config{Game: games.PuntoBanco, Decks: 1, Shoes: 1, CutCard: -1, Seed: 1}
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	tb, err := newTable(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := newWorker(tb)
	copy(w.cards, tb.shoe)
	patterns := [4][6]int{{0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 0, 1}, {0, 3, 1, 2, 2, 3}, {0, 2, 3, 1, 1, 0}}
	var ranks [6]int
	order := make([]baccarat.Card, 6)
	n := 0
	for x := 0; x < 11*11*11*11*10*10; x++ {
		suits := patterns[x%4]
		for i, r := 0, x; i < 6; i++ {
			base := 11 // ace to jack
			if i >= 4 {
				base = 10 // ace to ten
			}
			ranks[i], r = r%base, r/base
			order[i] = baccarat.Card(ranks[i]*4 + suits[i])
			w.cards[i] = cardWord(order[i])
		}
		pos, _, key, cards := w.deal(0, w.n, w.n) // shuffled
		res, used, err := baccarat.Deal(order)
		if err != nil || pos != 0 || int(key) != coupKey(&res) || int(cards) != used {
			t.Fatalf("ranks %v suits %v: loop key %d, %d cards; engine %s, key %d, %d cards",
				ranks, suits, key, cards, res, coupKey(&res), used)
		}
		n++
	}
	if n != 1464100 {
		t.Errorf("%d coups, want 11⁴·10²", n)
	}
}

// Folding block summaries gives every session the longest runs the automaton gives it one
// result at a time: over every sequence of up to 8 results cut into blocks of every size that
// divides it, and over random sessions of 80 results in blocks of 1, 2, 5, 10, 20 and 40.
func TestFoldedBlocksAgainstStreaks(t *testing.T) {
	check := func(seq []uint8, g int) {
		blocks := make([]uint32, 0, len(seq)/g)
		for i := 0; i+g <= len(seq); i += g {
			blocks = append(blocks, summarize(seq[i:i+g]))
		}
		b, p := fold(blocks)
		if wb, wp := streaks(seq); b != wb || p != wp {
			t.Fatalf("%v in blocks of %d: longest %d %d, one result at a time %d %d", seq, g, b, p, wb, wp)
		}
	}
	for n := 1; n <= 8; n++ {
		seq := make([]uint8, n)
		for x := 0; x < int(math.Pow(3, float64(n))); x++ {
			for i, r := 0, x; i < n; i, r = i+1, r/3 {
				seq[i] = uint8(r%3 + 1)
			}
			for g := 1; g <= n; g++ {
				if n%g == 0 {
					check(seq, g)
				}
			}
		}
	}
	src := rand.New(rand.NewPCG(1, 2))
	seq := make([]uint8, 80)
	for range 20000 {
		tie := src.IntN(4) // sessions with few ties and with many
		for i := range seq {
			seq[i] = uint8(1 + src.IntN(2))
			if src.IntN(8) < tie {
				seq[i] = uint8(baccarat.Tie)
			}
		}
		for _, g := range []int{1, 2, 5, 10, 20, 40} {
			check(seq, g)
		}
	}
}

// The dealing loop shuffles as it deals (worker.deal); it deals the same coups, and leaves the
// generator where it would be, as a shoe shuffled first by plain Fisher–Yates and dealt after.
// The chunks are ones whose first shoe redraws a draw at each place the loop can meet one: the
// first, second and third pair shuffled ahead of a coup (seed 2024, 8 decks).
func TestShuffleAlongsideDealing(t *testing.T) {
	cfg := Config{Game: games.PuntoBanco, Shoes: 1, CutCard: -1, Seed: 2024}
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	tb, err := newTable(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{0, 1, 409061, 486206, 15061, 89841} {
		fast, slow := newWorker(tb), newWorker(tb)
		for _, w := range []*worker{fast, slow} {
			w.r = rng{chunkSeed(cfg.Seed, chunk)}
			copy(w.cards, tb.shoe)
		}
		for shoe := range 8 {
			fast.shoe()
			shuffledFirst(slow)
			if fast.r != slow.r || fast.nr != slow.nr || fast.results != slow.results || fast.sums != slow.sums {
				t.Fatalf("chunk %d, shoe %d: dealt as it shuffled, %d coups; shuffled first, %d",
					chunk, shoe, fast.nr, slow.nr)
			}
		}
	}
}

// shuffledFirst plays a shoe shuffled first, by Fisher–Yates as shuffle.go describes it, one
// draw a pair, written plainly, and then dealt.
func shuffledFirst(w *worker) {
	n, cut := w.n, uint64(w.t.cut)
	m := min(n, cut+5)
	for i := uint64(0); i+1 < m; i += 2 {
		u := w.r.next()
		a, b := (u&0xffffffff)*(n-i), (u>>32)*(n-i-1)
		if uint32(a) < uint32(n-i) || uint32(b) < uint32(n-i-1) {
			a, b = w.r.fix32(a, n-i)<<32, w.r.fix32(b, n-i-1)<<32
		}
		j0, j1 := i+a>>32, i+1+b>>32
		w.cards[i], w.cards[j0] = w.cards[j0], w.cards[i]
		w.cards[i+1], w.cards[j1] = w.cards[j1], w.cards[i+1]
	}
	if m%2 == 1 && m < n {
		j := m - 1 + w.r.bounded(n-m+1)
		w.cards[m-1], w.cards[j] = w.cards[j], w.cards[m-1]
	}
	pos := uint64(0)
	for pos < cut {
		var key uint
		var cards uint64
		pos, _, key, cards = w.deal(pos, m, m) // the shuffle is done
		switch {
		case cards != 0:
			w.count(w.newClass(int(key), (*[6]uint32)(w.cards[pos:pos+6]), int(cards)))
			pos += cards
		case pos >= cut:
		case n-pos < 6:
			if pos = w.lastRound(pos); pos > n {
				w.endShoe(n)
				return
			}
		}
	}
	w.endShoe(min(pos, n))
}
