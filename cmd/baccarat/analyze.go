package main

import (
	"context"
	"encoding/json"
	"flag"
	"math/big"
	"strconv"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "exact PAR sheet of a game from any shoe: every bet's odds, edge and variance",
		usage: `Usage: baccarat analyze --game ID [--decks N | --shoe COUNTS] [--remove CARDS]
                        [--revealed P:7h,B:Kd] [--hands N] [--margin M] [--exact] [--json]

Counts every ordered sequence of cards the next coup can be dealt from the shoe, exactly, and
prints the game's PAR sheet: for every bet the probability of each paying tier, of a push and
of a loss, the house edge (positive: the house's advantage; pushes count in the denominator),
variance, standard deviation and hit rate, then the effect on each edge of removing one card
of each rank. Hand outcomes count ordered 6-card prefixes (8 decks: 416·415·…·411 sequences),
pair bets ordered 4-card prefixes, the convention of published tables.

  --decks     full decks, within the game's range (SPEC §2; see 'baccarat games'); any other
              shoe with --shoe
  --shoe      13 counts A..K (32,32,...), rank:count pairs (A:31,T:30) or card:count pairs
              (Ah:8,Kd:7), at most 52000 cards. Counts by rank know no suits, even when
              they make whole decks, so bets on identical cards (Perfect Pair) are left out
              and marked not available; give card:count pairs or --decks for them
  --remove    cards already dealt from the shoe (7h,Kd,... ; by rank for a shoe without suits)
  --revealed  Bet on Baccarat's later betting rounds: the Player's first card, then the
              Banker's (P:7h or P:7h,B:Kd); the odds follow them
  --hands     add the Dragon bets for a session of N hands (1 to 1000), with their break-even
              length; games with Dragon bets only
  --margin    Bet on Baccarat margin: 0.05, 5% or 500bp for every bet, or per bet
              (tie=8%,player=2%); default: odds.DefaultMargins
  --exact     show every probability as an exact fraction too

Most sheets take a moment; --hands near 1000 takes seconds. Ctrl-C (or SIGTERM) stops it
with nothing printed (exit 130).

  baccarat analyze --game mbs-tiger
  baccarat analyze --game punto-banco --decks 6 --remove 5h,5d,5c,5s --json
  baccarat analyze --game bet-on-baccarat --revealed P:7h,B:Kd --margin 3%
  baccarat analyze --game mbs-dragon --hands 70
`,
		run: runAnalyze,
	})
}

type analyzeOpts struct {
	game                      *games.Game
	decks                     int
	shoe, remove, reveal, mar string
	hands                     int
	exact, asJSON             bool
}

func runAnalyze(ctx context.Context, e *env, args []string) int {
	c := commands["analyze"]
	fs := newFlags(e, c)
	var o analyzeOpts
	gameID := fs.String("game", "", "game id (see 'baccarat games')")
	fs.IntVar(&o.decks, "decks", 0, "decks in a full shoe (default: the game's)")
	fs.StringVar(&o.shoe, "shoe", "", "shoe composition instead of full decks")
	fs.StringVar(&o.remove, "remove", "", "cards removed from the shoe")
	fs.StringVar(&o.reveal, "revealed", "", "revealed cards of the coup: P:card[,B:card]")
	fs.IntVar(&o.hands, "hands", 0, "Dragon session length in hands")
	fs.StringVar(&o.mar, "margin", "", "Bet on Baccarat margin(s)")
	fs.BoolVar(&o.exact, "exact", false, "show exact fractions")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	g, err := gameFlag(*gameID)
	if err != nil {
		return usageError(e, c.name, err)
	}
	o.game = g
	if err := checkAnalyzeFlags(fs, &o); err != nil {
		return usageError(e, c.name, err)
	}
	out, err := analyze(ctx, &o)
	if err != nil {
		return failed(ctx, e, c.name, err, func() string { return "before the sheet was complete: nothing printed" })
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return 0
	}
	printAnalysis(e.stdout, out, o.exact)
	return 0
}

// analysisJSON is analyze's output; the text form prints the same fields.
type analysisJSON struct {
	Game      string             `json:"game"`
	Name      string             `json:"name"`
	Cards     int                `json:"cards"`
	Decks     int                `json:"decks,omitempty"`
	Suits     bool               `json:"suits_known"` // false for a shoe given by rank: no Perfect Pair
	Revealed  []string           `json:"revealed,omitempty"`
	Sequences string             `json:"sequences"`
	PairSeqs  string             `json:"pair_sequences"`
	Events    map[string]float64 `json:"events"`
	Ways      map[string]string  `json:"ways"`
	Bets      []betSheetJSON     `json:"bets"`
	Ranks     []string           `json:"ranks"`
}

type betSheetJSON struct {
	Bet        string             `json:"bet"`
	Name       string             `json:"name"`
	Error      string             `json:"error,omitempty"`
	Session    int                `json:"session_hands,omitempty"`
	Win        float64            `json:"win_probability"`
	Push       float64            `json:"push_probability"`
	Lose       float64            `json:"lose_probability"`
	Return     float64            `json:"return"`
	HouseEdge  float64            `json:"house_edge"`
	Variance   float64            `json:"variance"`
	StdDev     float64            `json:"std_dev"`
	HitRate    float64            `json:"hit_rate"`
	Tiers      []tierSheetJSON    `json:"tiers"`
	Odds       *float64           `json:"odds"`
	Offered    *bool              `json:"offered,omitempty"`
	Margin     *float64           `json:"margin,omitempty"`
	EoR        map[string]float64 `json:"effect_of_removal,omitempty"`
	BreakEven  *int               `json:"break_even_hands,omitempty"`
	EdgeByN    []float64          `json:"house_edge_by_hands,omitempty"`
	ExactEdge  string             `json:"exact_house_edge,omitempty"`
	ExactWin   string             `json:"exact_win,omitempty"`
	ExactPush  string             `json:"exact_push,omitempty"`
	ExactVar   string             `json:"exact_variance,omitempty"`
	decimalBet bool
}

type tierSheetJSON struct {
	Event       string  `json:"event"`
	Pays        string  `json:"pays"`
	Probability float64 `json:"probability"`
	Ways        string  `json:"ways,omitempty"`
	Fraction    string  `json:"fraction,omitempty"`
}

// maxShoeCards is the largest --shoe analyze takes: a thousand decks' worth. Every count is
// exact at any size (shoes of more than 1625 cards count in math/big); the limit keeps each
// count well inside the int32 a composition holds.
const maxShoeCards = 1000 * baccarat.NumCards

// maxSessionHands is the longest Dragon session --hands prices: the house edge is worked out
// for every length up to it, which takes time growing with its square (1000 hands, seconds).
const maxSessionHands = odds.MaxSessionHands

// checkAnalyzeFlags refuses flags that do not go together or are out of range, and sets
// o.decks: the game's range and default when --shoe is not given (SPEC §2), else 0.
func checkAnalyzeFlags(fs *flag.FlagSet, o *analyzeOpts) error {
	switch {
	case o.shoe != "" && given(fs, "decks"):
		return baccarat.Errorf(baccarat.CodeBadRequest, "give --decks or --shoe, not both")
	case o.shoe != "":
		o.decks = 0
		if err := checkShoeSize(o.shoe); err != nil {
			return err
		}
	default:
		var err error
		if o.decks, err = gameDecks(fs, o.game, o.decks); err != nil {
			return err
		}
	}
	if !given(fs, "hands") {
		return nil
	}
	if len(o.game.DragonBets()) == 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--hands: %s has no Dragon bets, so no sessions to price (mbs-dragon has)", o.game.ID)
	}
	if o.hands < 1 || o.hands > maxSessionHands {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--hands %d: a Dragon session here is 1 to %d hands", o.hands, maxSessionHands)
	}
	return nil
}

// checkShoeSize refuses a --shoe with any count, or a total, over maxShoeCards, reading the
// numbers before the composition is built so that none can wrap around.
func checkShoeSize(shoe string) error {
	total := 0
	for _, f := range strings.Split(shoe, ",") {
		f = strings.TrimSpace(f)
		if _, v, ok := strings.Cut(f, ":"); ok {
			f = v
		}
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			continue // not a number: ParseCounts says what is wrong with it
		}
		if total += max(n, 0); n > maxShoeCards || total > maxShoeCards {
			return baccarat.Errorf(baccarat.CodeBadShoe, "--shoe holds more than %d cards (1000 decks), the most analyze takes", maxShoeCards)
		}
	}
	return nil
}

// rankShoe reads --shoe. Counts by rank know no suits, even 13 equal counts that make whole
// decks: who says how many Aces a shoe holds has not said they are one of each suit a deck, so
// identical-card bets (Perfect Pair) cannot be counted from them.
func rankShoe(shoe string) (baccarat.Counts, error) {
	counts, err := baccarat.ParseCounts(shoe)
	if err != nil || !counts.Suited() || strings.Contains(shoe, ":") {
		return counts, err // card:count pairs know their suits
	}
	var ranks [13]int
	for i, n := range counts.Ranks() {
		ranks[i] = int(n)
	}
	return baccarat.NewRankCounts(ranks)
}

// shoeFor builds the composition: full decks or --shoe, less --remove and --revealed.
func shoeFor(o *analyzeOpts) (baccarat.Counts, []baccarat.Card, error) {
	var counts baccarat.Counts
	if o.shoe != "" {
		var err error
		if counts, err = rankShoe(o.shoe); err != nil {
			return counts, nil, err
		}
	} else {
		counts = baccarat.NewCounts(o.decks)
	}
	if o.remove != "" {
		cards, err := baccarat.ParseCards(o.remove)
		if err != nil {
			return counts, nil, err
		}
		if err := counts.RemoveAll(cards); err != nil {
			return counts, nil, err
		}
	}
	revealed, err := parseRevealed(o.reveal)
	if err != nil {
		return counts, nil, err
	}
	if err := counts.RemoveAll(revealed); err != nil {
		return counts, nil, err
	}
	return counts, revealed, nil
}

// parseRevealed reads "P:7h,B:Kd" (or "7h,Kd"): the Player's first card, then the Banker's.
func parseRevealed(s string) ([]baccarat.Card, error) {
	var out []baccarat.Card
	for i, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		want := [2]string{"P", "B"}
		if i > 1 {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--revealed takes at most two cards: P1, then B1")
		}
		side, card, ok := strings.Cut(f, ":")
		if !ok {
			side, card = want[i], f
		}
		if !strings.EqualFold(side, want[i]) {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest,
				"revealed card %d %q: cards come in deal order, the Player's first (P:7h), then the Banker's (B:Kd)", i+1, f)
		}
		k, err := baccarat.ParseCard(card)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// parseMargins reads --margin: one margin for every bet, or bet=margin pairs. A margin is a
// fraction (0.05), a percentage (5%) or basis points (500bp).
func parseMargins(s string, g *games.Game) (map[string]odds.Margin, error) {
	if s == "" {
		return nil, nil
	}
	one := func(v string) (odds.Margin, error) {
		v = strings.TrimSpace(v)
		scale, num := 10000.0, v
		switch {
		case strings.HasSuffix(v, "%"):
			scale, num = 100, strings.TrimSuffix(v, "%")
		case strings.HasSuffix(v, "bp"):
			scale, num = 1, strings.TrimSuffix(v, "bp")
		}
		f, err := strconv.ParseFloat(num, 64)
		bp := f * scale
		if err != nil || bp < 0 || bp >= 10000 || bp != float64(int(bp+0.5)) && scale == 1 {
			return 0, baccarat.Errorf(baccarat.CodeBadRequest, "margin %q: write 0.05, 5%% or 500bp (0 to under 100%%)", v)
		}
		return odds.Margin(int(bp + 0.5)), nil
	}
	m := map[string]odds.Margin{}
	if !strings.Contains(s, "=") {
		v, err := one(s)
		for _, b := range g.Bets {
			m[b.ID] = v
		}
		return m, err
	}
	for _, f := range strings.Split(s, ",") {
		id, v, _ := strings.Cut(f, "=")
		if g.Bet(strings.TrimSpace(id)) == nil {
			return nil, baccarat.Errorf(baccarat.CodeUnknownBet, "--margin names bet %q, which %s does not have", id, g.ID)
		}
		mv, err := one(v)
		if err != nil {
			return nil, err
		}
		m[strings.TrimSpace(id)] = mv
	}
	return m, nil
}

func analyze(ctx context.Context, o *analyzeOpts) (*analysisJSON, error) {
	counts, revealed, err := shoeFor(o)
	if err != nil {
		return nil, err
	}
	margins, err := parseMargins(o.mar, o.game)
	if err != nil {
		return nil, err
	}
	sheet, eor, err := odds.EffectOfRemoval(ctx, counts, revealed, o.game, margins)
	if err != nil {
		return nil, err
	}
	a, err := odds.Analyze(ctx, counts, revealed)
	if err != nil {
		return nil, err
	}
	out := &analysisJSON{Game: o.game.ID, Name: o.game.Name, Cards: counts.Total(), Decks: o.decks, Suits: counts.Suited(),
		Sequences: a.Total().String(), PairSeqs: a.PairTotal().String(), Events: map[string]float64{},
		Ways: map[string]string{"total": a.Total().String()}}
	for _, k := range revealed {
		out.Revealed = append(out.Revealed, k.String())
	}
	out.addEvents(sheet.Events)
	for _, rm := range eor {
		out.Ranks = append(out.Ranks, rm.Rank.String())
	}
	for i := range sheet.Bets {
		out.Bets = append(out.Bets, betJSONOf(&sheet.Bets[i], eor, i, o.exact))
	}
	if o.hands > 0 {
		for _, b := range o.game.DragonBets() {
			bj, err := dragonJSONOf(ctx, a, b, o.hands, o.exact)
			if err != nil {
				return nil, err
			}
			out.Bets = append(out.Bets, bj)
		}
	}
	return out, nil
}

// addEvents writes each event's probability and its ways (the exact numerator).
func (out *analysisJSON) addEvents(ev odds.Events) {
	for _, x := range []struct {
		name string
		f    odds.Fraction
	}{{"player_win", ev.PlayerWin}, {"banker_win", ev.BankerWin}, {"tie", ev.Tie}, {"cards_4", ev.Cards4},
		{"cards_5", ev.Cards5}, {"cards_6", ev.Cards6}, {"natural", ev.Natural}, {"player_pair", ev.PlayerPair},
		{"banker_pair", ev.BankerPair}} {
		out.Events[x.name] = x.f.Float64()
		out.Ways[x.name] = x.f.Num().String()
	}
}

func betJSONOf(bs *odds.BetSheet, eor []odds.Removal, i int, exact bool) betSheetJSON {
	bj := betSheetJSON{Bet: bs.Bet.ID, Name: bs.Bet.Name, Tiers: []tierSheetJSON{}, decimalBet: bs.Bet.Decimal}
	if bs.Err != nil {
		bj.Error = bs.Err.Error()
		return bj
	}
	bj.Win, bj.Push, bj.Lose = bs.Win.Float64(), bs.Push.Float64(), bs.Lose.Float64()
	bj.Return, bj.HouseEdge, bj.Variance, bj.StdDev, bj.HitRate = bs.Return, bs.HouseEdge, bs.Variance, bs.StdDev, bs.HitRate
	for _, t := range bs.Tiers {
		tj := tierSheetJSON{Event: t.Event, Pays: t.Pays.String(), Probability: t.Probability.Float64(),
			Ways: t.Probability.Num().String()}
		if bs.Bet.Decimal {
			tj.Pays = "odds"
		}
		if exact {
			tj.Fraction = t.Probability.String()
		}
		bj.Tiers = append(bj.Tiers, tj)
	}
	if p := bs.Price; p != nil {
		margin := float64(p.Margin) / 10000
		bj.Margin, bj.Offered = &margin, &p.Offered
		if p.Odds > 0 {
			v := float64(p.Odds) / 100
			bj.Odds = &v
		}
	}
	bj.EoR = map[string]float64{}
	for _, rm := range eor {
		bj.EoR[rm.Rank.String()] = rm.Delta[i]
	}
	if exact {
		bj.ExactEdge, bj.ExactVar = ratString(bs.ExactHouseEdge()), ratString(bs.ExactVariance())
		bj.ExactWin, bj.ExactPush = bs.Win.String(), bs.Push.String()
	}
	return bj
}

func dragonJSONOf(ctx context.Context, a *odds.Analysis, b *games.Bet, hands int, exact bool) (betSheetJSON, error) {
	ds, err := a.Dragon(ctx, b, hands)
	if err != nil {
		return betSheetJSON{}, err
	}
	bj := betSheetJSON{Bet: b.ID, Name: b.Name, Session: hands, Win: ds.Win.Float64(), Lose: ds.Lose.Float64(),
		Return: ds.Return, HouseEdge: ds.HouseEdge, Variance: ds.Variance, StdDev: ds.StdDev, HitRate: ds.Win.Float64()}
	for _, t := range ds.Tiers {
		tj := tierSheetJSON{Event: t.Event, Pays: t.Pays.String(), Probability: t.Probability.Float64()}
		if exact {
			tj.Fraction = t.Probability.String()
		}
		bj.Tiers = append(bj.Tiers, tj)
	}
	if n, ok, err := a.DragonBreakEven(ctx, b, 1000); err != nil {
		return bj, err
	} else if ok {
		bj.BreakEven = &n
	}
	bj.EdgeByN, err = a.DragonEdges(ctx, b, hands)
	return bj, err
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.String()
}

func pct(f float64) string { return strconv.FormatFloat(100*f, 'f', 4, 64) + "%" }
