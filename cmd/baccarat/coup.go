package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

func init() {
	register(&command{
		name:    "coup",
		summary: "deal given cards through the Table of Play and resolve every bet of a game",
		usage: `Usage: baccarat coup --game ID --cards 7h,Kd,2c,9s[,...] [--json]
       baccarat coup --game ID --cards "P 7h Kd | B 9c Qs 4d" [--json]

Deals the cards in order (P1 B1 P2 B2, then third cards as the Table of Play requires),
prints both hands, totals, the winner, and every bet of the game resolved: win (with the
tier it pays), lose or push. Cards beyond those the coup needs are left unused.
Dragon bets settle on a whole session: see 'baccarat dragon'. Bet on Baccarat bets are paid
at the odds locked when placed, so their "pays" is empty here.

--cards takes either form: a list in deal order (commas or spaces), or the coup notation
"P 7h Kd | B 9c Qs 4d", each hand's cards in the order it got them; the notation must be a
coup the Table of Play deals (no third card missing, none too many). --coup takes the
notation only; given with --cards, the two must name the same coup.
Cards are rank then suit: A 2-9 T J Q K (or 10), suits c d h s, any case.

  baccarat coup --game mbs-tiger --cards 7h,Kd,2c,9s
  baccarat coup --game mbs-tiger --cards "P 7h 2c | B Kd 9s"
  baccarat coup --game rws-no-commission --cards 2h,3d,4c,Kd,9s,2c --json
`,
		run: runCoup,
	})
}

type coupJSON struct {
	Game        string        `json:"game"`
	Coup        string        `json:"coup"`
	Player      []string      `json:"player"`
	Banker      []string      `json:"banker"`
	PlayerTotal int           `json:"player_total"`
	BankerTotal int           `json:"banker_total"`
	Winner      string        `json:"winner"`
	Natural     bool          `json:"natural"`
	PlayerPair  bool          `json:"player_pair"`
	BankerPair  bool          `json:"banker_pair"`
	CardsUsed   int           `json:"cards_used"`
	Bets        []betResultJS `json:"bets"`
}

type betResultJS struct {
	Bet    string `json:"bet"`
	Result string `json:"result"`
	Pays   string `json:"pays"`
	Event  string `json:"event,omitempty"`
}

func runCoup(_ context.Context, e *env, args []string) int {
	c := commands["coup"]
	fs := newFlags(e, c)
	gameID := fs.String("game", "", "game id (see 'baccarat games')")
	cardList := fs.String("cards", "", `cards in deal order (7h,Kd,2c,9s) or the coup notation "P 7h 2c | B Kd 9s"`)
	notation := fs.String("coup", "", `the coup notation "P 7h 2c | B Kd 9s"`)
	asJSON := fs.Bool("json", false, "print JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	g, err := gameFlag(*gameID)
	if err != nil {
		return usageError(e, c.name, err)
	}
	if strings.TrimSpace(*cardList) == "" && strings.TrimSpace(*notation) == "" {
		return usageError(e, c.name, baccarat.Errorf(baccarat.CodeNeedCards,
			`give the coup's cards: --cards 7h,Kd,2c,9s (deal order) or --cards "P 7h 2c | B Kd 9s"`))
	}
	r, used, err := coupOf(*cardList, *notation)
	if err != nil {
		return fail(e, c.name, err)
	}
	out := resolveCoup(g, &r, used)
	if *asJSON {
		_ = json.NewEncoder(e.stdout).Encode(out)
		return 0
	}
	printCoup(e, out)
	return 0
}

// coupOf deals the coup the flags give: --cards as a list in deal order or in coup notation
// (it has a "|"), --coup in coup notation; when both are given they must be the same coup.
func coupOf(cards, notation string) (baccarat.Result, int, error) {
	var r baccarat.Result
	used := 0
	if strings.TrimSpace(cards) != "" {
		var err error
		if r, used, err = dealText(cards); err != nil {
			return r, used, err
		}
	}
	if strings.TrimSpace(notation) == "" {
		return r, used, nil
	}
	n, err := baccarat.ParseCoup(notation)
	if err != nil {
		return n, 0, err
	}
	if used > 0 && r.String() != n.String() {
		return n, 0, baccarat.Errorf(baccarat.CodeBadCoup, "--cards deals %s but --coup says %s: give one, or the same coup twice", r, n)
	}
	return n, len(n.Dealt()), nil
}

// dealText deals a --cards value: the coup notation when it has a "|", else cards in deal
// order, of which the coup uses what it needs.
func dealText(s string) (baccarat.Result, int, error) {
	if strings.Contains(s, "|") {
		r, err := baccarat.ParseCoup(s)
		return r, len(r.Dealt()), err
	}
	cards, err := baccarat.ParseCards(s)
	if err != nil {
		return baccarat.Result{}, 0, err
	}
	return baccarat.Deal(cards)
}

func cardStrings(h baccarat.Hand) []string {
	s := make([]string, h.Len())
	for i := range s {
		s[i] = h.Card(i).String()
	}
	return s
}

func resolveCoup(g *games.Game, r *baccarat.Result, used int) coupJSON {
	out := coupJSON{Game: g.ID, Coup: r.String(), Player: cardStrings(r.Player), Banker: cardStrings(r.Banker),
		PlayerTotal: r.PlayerTotal, BankerTotal: r.BankerTotal, Winner: r.Winner.String(),
		Natural: r.Natural, PlayerPair: r.PlayerPair, BankerPair: r.BankerPair, CardsUsed: used,
		Bets: []betResultJS{}}
	for _, b := range g.CoupBets() {
		o, tier := b.Resolve(r)
		bj := betResultJS{Bet: b.ID, Result: o.String()}
		if o == games.Win {
			bj.Event = b.Tiers[tier].Event
			if !b.Decimal {
				bj.Pays = b.Tiers[tier].Pays.String()
			}
		}
		out.Bets = append(out.Bets, bj)
	}
	return out
}

func printCoup(e *env, c coupJSON) {
	fmt.Fprintf(e.stdout, "%s   %s\n", c.Game, c.Coup)
	fmt.Fprintf(e.stdout, "Player %v total %d   Banker %v total %d   winner %s", c.Player, c.PlayerTotal, c.Banker, c.BankerTotal, c.Winner)
	if c.Natural {
		fmt.Fprint(e.stdout, " (natural)")
	}
	fmt.Fprintf(e.stdout, "   %d cards\n\n", c.CardsUsed)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bet\tresult\tpays\tevent")
	for _, b := range c.Bets {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Bet, b.Result, b.Pays, b.Event)
	}
	_ = tw.Flush()
}
