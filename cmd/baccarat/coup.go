package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

func init() {
	register(&command{
		name:    "coup",
		summary: "deal given cards through the Table of Play and resolve every bet of a game",
		usage: `Usage: baccarat coup --game ID --cards 7h,Kd,2c,9s[,...] [--json]

Deals the cards in order (P1 B1 P2 B2, then third cards as the Table of Play requires),
prints both hands, totals, the winner, and every bet of the game resolved: win (with the
tier it pays), lose or push. Cards beyond those the coup needs are left unused.
Dragon bets settle on a whole session: see 'baccarat dragon'. Bet on Baccarat bets are paid
at the odds locked when placed, so their "pays" is empty here.

Cards are rank then suit: A 2-9 T J Q K (or 10), suits c d h s, any case.

  baccarat coup --game mbs-tiger --cards 7h,Kd,2c,9s
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
	cardList := fs.String("cards", "", "cards in deal order, comma-separated")
	asJSON := fs.Bool("json", false, "print JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	g, err := games.ByID(*gameID)
	if err != nil {
		return fail(e, c.name, err)
	}
	cards, err := baccarat.ParseCards(*cardList)
	if err != nil {
		return fail(e, c.name, err)
	}
	r, used, err := baccarat.Deal(cards)
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
