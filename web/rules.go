package web

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/table"
)

// RulesView is GET /api/tables/{id}/rules: the game's rules, every bet's pay table with its
// exact return to player and house edge for the table's shoe (the configured decks, full), the
// table's limits, and whether the game is a tournament's (played for chips, SPEC §5).
type RulesView struct {
	Table string `json:"table"`
	Game  string `json:"game"`
	Name  string `json:"name"`
	// Decks and Cards are the full shoe the figures are counted from.
	Decks int `json:"decks"`
	Cards int `json:"cards"`
	// Tournament: the game's rule document is a tournament's; its tables play for chips.
	Tournament bool `json:"tournament"`
	// Cash: this table was set up to play a tournament pay table for money (SPEC §5).
	Cash bool `json:"cash,omitempty"`
	// Rules: the game's rules in words (English); RuleLines the same with each line's stable
	// id (games.RuleLine), which the pages translate the line by.
	Rules     []string         `json:"rules"`
	RuleLines []games.RuleLine `json:"rule_lines"`
	// OneSide and SideNeedsMain are the placement rules a page can check before sending a
	// wager (RWS 3.3, 3.4); the table decides.
	OneSide       bool `json:"one_side"`
	SideNeedsMain bool `json:"side_needs_main"`
	// TieRides: Player and Banker ride on a Tie (RWS 3.9), the game's only withdrawal, so a
	// wager placed while betting stays: a page offers no Undo.
	TieRides     bool                   `json:"tie_rides,omitempty"`
	Limits       map[string]table.Limit `json:"limits"`
	MaxPerArea   int                    `json:"max_wagers_per_area,omitempty"`
	Differential baccarat.Money         `json:"differential,omitempty"`
	SessionHands int                    `json:"session_hands,omitempty"`
	Bets         []BetRules             `json:"bets"`
	// Video: the table has live video; its cards and results show as the video shows them.
	Video *live.Video `json:"video,omitempty"`
}

// BetRules is one bet's pay table and what it returns.
type BetRules struct {
	ID    string      `json:"id"`
	Name  string      `json:"name"`
	Kind  string      `json:"kind"`
	Rule  string      `json:"rule,omitempty"`
	Tiers []TierRules `json:"tiers"`
	// Return is the return to player: the expected amount back (stake included) per unit
	// staked, pushes counted as placed. HouseEdge is 1 − Return (negative: the player's edge).
	Return    Figure `json:"return"`
	HouseEdge Figure `json:"house_edge"`
	// Win and Push are the probabilities of a win (any tier) and of the stake coming back.
	Win  Figure `json:"win"`
	Push Figure `json:"push"`
	// Bet on Baccarat: the operator's margin on the bet, and the odds it is offered at before
	// the first card of a full shoe (the figures above are at those odds).
	Margin  *Figure `json:"margin,omitempty"`
	Odds    string  `json:"odds,omitempty"`
	Offered *bool   `json:"offered,omitempty"`
	// SessionHands: a Dragon bet's figures are for a session of this many hands.
	SessionHands int `json:"session_hands,omitempty"`
	// Status is set when a Dragon bet's figures are not there (cash.StatusComputing,
	// cash.StatusUnavailable): its tiers then carry their pays only.
	Status string `json:"status,omitempty"`
}

// TierRules is one way a bet wins, what it pays and how likely it is. ID is the tier's stable
// name (games.Tier), which the pages translate the event by.
type TierRules struct {
	ID          string `json:"id"`
	Event       string `json:"event"`
	Pays        string `json:"pays"`
	Probability Figure `json:"probability"`
}

// Figure is an exact quantity: a percentage with 4 decimals (rounded half away from zero)
// and the exact fraction. A Dragon session's fractions run to thousands of digits over
// (ways of a coup)^hands, so they are left out there; the percentage is still exact-rounded.
type Figure struct {
	Percent  string `json:"percent"`
	Fraction string `json:"fraction,omitempty"`
}

func figure(r *big.Rat, withFraction bool) Figure {
	f := Figure{Percent: new(big.Rat).Mul(r, big.NewRat(100, 1)).FloatString(4)}
	if withFraction {
		f.Fraction = r.String()
	}
	return f
}

func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	snap, err := s.tables.Snapshot(r.PathValue("id"), watcher)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cfg := snap.Spec.Config
	g, err := games.ByID(cfg.Game)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	key, session := rulesKeyOf(g, cfg), sessionKeyOf(g, cfg)
	bets, err := rulesCounts.start(key, func(ctx context.Context) ([]BetRules, error) { return betRules(ctx, g, key) }).wait(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, RulesView{Table: snap.Spec.ID, Game: g.ID, Name: g.Name, Decks: key.decks,
		Cards: key.decks * baccarat.NumCards, Tournament: g.Rules.Tournament, Cash: cfg.Cash, Rules: games.Texts(g.Rules.Lines()), RuleLines: g.Rules.Lines(),
		OneSide: g.Rules.OneSide, SideNeedsMain: g.Rules.SideNeedsMain, TieRides: g.Rules.TieRides, Limits: snap.State.Limits,
		MaxPerArea: snap.State.MaxPerArea, Differential: snap.State.Differential, SessionHands: session.hands,
		Bets: withSessions(r.Context(), bets, session), Video: snap.Spec.Video})
}

// rulesPatience is the longest the rules page waits for a Dragon session's count before it
// answers with the bets cash.StatusComputing: a short session is counted within it, a long one
// answers at once next time.
const rulesPatience = 250 * time.Millisecond

// withSessions is bets with each Dragon bet's figures over the session, from its count in
// the background: waited for rulesPatience at most, else marked with its status.
func withSessions(ctx context.Context, bets []BetRules, k sessionKey) []BetRules {
	if k.hands == 0 {
		return bets
	}
	c := sessionCounts.of(k)
	ctx, cancel := context.WithTimeout(ctx, rulesPatience)
	_, _ = c.wait(ctx)
	cancel()
	session, status := c.look()
	out := slices.Clone(bets)
	next := 0
	for i := range out {
		if out[i].Kind != games.Dragon.String() {
			continue
		}
		if session != nil {
			out[i] = session[next].rules
		} else {
			out[i].Status, out[i].SessionHands = status, k.hands
		}
		next++
	}
	return out
}

// rulesKey is everything a table's single-coup figures depend on: the game, the decks and,
// for Bet on Baccarat, the table's margins ("bet=bp,…" sorted, empty for other games); a
// Dragon session's figures are counted apart (sessionKey).
type rulesKey struct {
	game    string
	decks   int
	margins string
}

func rulesKeyOf(g *games.Game, cfg table.Config) rulesKey {
	k := rulesKey{game: g.ID, decks: cmp0(cfg.Decks, g.Decks.Default)}
	var m []string
	for _, b := range g.Bets {
		if v, ok := cfg.Margins[b.ID]; ok && b.Decimal {
			m = append(m, fmt.Sprintf("%s=%d", b.ID, v))
		}
	}
	slices.Sort(m)
	k.margins = strings.Join(m, ",")
	return k
}

// margins reads the key's margins back (nil: odds.DefaultMargins).
func (k rulesKey) marginMap() map[string]odds.Margin {
	if k.margins == "" {
		return nil
	}
	m := map[string]odds.Margin{}
	for _, f := range strings.Split(k.margins, ",") {
		id, v, _ := strings.Cut(f, "=")
		var bp int
		_, _ = fmt.Sscan(v, &bp)
		m[id] = odds.Margin(bp)
	}
	return m
}

// rulesCounts keeps each key's single-coup figures: a full shoe's PAR sheet, a
// millisecond's count.
var rulesCounts = newCounts[rulesKey, []BetRules](coupSlots)

// betRules counts a full shoe of the key's decks with the odds engine and reads every
// single-coup bet's figures off its PAR sheet; a Dragon bet gets its pay table only, its
// figures coming from its session's count (withSessions).
func betRules(ctx context.Context, g *games.Game, k rulesKey) ([]BetRules, error) {
	a, err := odds.Analyze(ctx, baccarat.NewCounts(k.decks), nil)
	if err != nil {
		return nil, err
	}
	sheet := a.Sheet(g, k.marginMap())
	out := make([]BetRules, 0, len(g.Bets))
	for _, b := range g.Bets {
		br := BetRules{ID: b.ID, Name: b.Name, Kind: b.Kind.String(), Rule: b.Rule, Tiers: []TierRules{}}
		if b.Kind == games.Dragon {
			for _, t := range b.Tiers {
				br.Tiers = append(br.Tiers, TierRules{ID: t.ID, Event: t.Event, Pays: t.Pays.String()})
			}
		} else if bs := sheet.Bet(b.ID); bs != nil && bs.Err == nil {
			br.coup(bs)
		}
		out = append(out, br)
	}
	return out, nil
}

func (br *BetRules) coup(bs *odds.BetSheet) {
	ret := new(big.Rat).Add(big.NewRat(1, 1), bs.ExactReturn())
	br.Return, br.HouseEdge = figure(ret, true), figure(bs.ExactHouseEdge(), true)
	br.Win, br.Push = figure(bs.Win.Rat(), true), figure(bs.Push.Rat(), true)
	for i, t := range bs.Tiers { // the sheet's tiers are its bet's, in order
		pays := t.Pays.String()
		if bs.Bet.Decimal {
			pays = "decimal odds"
		}
		br.Tiers = append(br.Tiers, TierRules{ID: bs.Bet.Tiers[i].ID, Event: t.Event, Pays: pays,
			Probability: figure(t.Probability.Rat(), true)})
	}
	if p := bs.Price; p != nil {
		m := figure(big.NewRat(int64(p.Margin), 10000), true)
		offered := p.Offered
		br.Margin, br.Offered = &m, &offered
		if p.Odds > 0 {
			br.Odds = p.Odds.String()
		}
	}
}

// dragonRules is a Dragon bet's rules priced over a session: exact, as the sum over its
// tiers.
func dragonRules(b *games.Bet, ds *odds.DragonSession) BetRules {
	br := BetRules{ID: b.ID, Name: b.Name, Kind: b.Kind.String(), Rule: b.Rule, Tiers: []TierRules{}, SessionHands: ds.Hands}
	back, win := new(big.Rat), new(big.Rat)
	for i, t := range ds.Tiers { // the session's tiers are the bet's, in order
		p := t.Probability.Rat()
		pays := big.NewRat(t.Pays.Num, max(t.Pays.Den, 1))
		back.Add(back, new(big.Rat).Mul(p, pays.Add(pays, big.NewRat(1, 1))))
		win.Add(win, p)
		br.Tiers = append(br.Tiers, TierRules{ID: b.Tiers[i].ID, Event: t.Event, Pays: t.Pays.String(), Probability: figure(p, false)})
	}
	br.Return, br.HouseEdge = figure(back, false), figure(new(big.Rat).Sub(big.NewRat(1, 1), back), false)
	br.Win, br.Push = figure(win, false), figure(new(big.Rat), true)
	return br
}
