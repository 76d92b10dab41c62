package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

func init() {
	register(&command{
		name:    "dragon",
		summary: "settle the three Dragon bets over a session's results",
		usage: fmt.Sprintf(`Usage: baccarat dragon --results BPPTBB... [--stake N] [--json]

Settles Banker Dragon, Player Dragon and Any Dragon (Dragon Baccarat Tournament, MBS) over a
session's results, one letter a hand: B Banker, P Player, T Tie (voided hands are left out).
Each bet is paid once, on the longest streak of the session: Ruby 5, Golden 6, Royal 7 or
more; a Tie neither breaks nor extends a streak (Dragon 3.11). --results is required.
--stake shows the money won or lost on a stake in minor units: 1 to %d,
the largest stake whose best Dragon return the books can post.

  baccarat dragon --results BBTBBBPPB
  baccarat dragon --results PPPPPTPP --stake 1000 --json
`, maxDragonStake()),
		run: runDragon,
	})
}

type dragonJSON struct {
	Hands         int          `json:"hands"`
	LongestBanker int          `json:"longest_banker"`
	LongestPlayer int          `json:"longest_player"`
	Bets          []dragonBetJ `json:"bets"`
}

type dragonBetJ struct {
	Bet     string          `json:"bet"`
	Longest int             `json:"longest"`
	Result  string          `json:"result"`
	Tier    string          `json:"tier"`
	Pays    string          `json:"pays"`
	Net     *baccarat.Money `json:"net,omitempty"`
}

// parseResults reads B/P/T letters (spaces and commas ignored); an error names the position.
func parseResults(s string) ([]baccarat.Winner, error) {
	var out []baccarat.Winner
	pos := 0
	for _, r := range s {
		if r == ' ' || r == ',' {
			continue
		}
		pos++
		switch r {
		case 'B', 'b':
			out = append(out, baccarat.BankerWins)
		case 'P', 'p':
			out = append(out, baccarat.PlayerWins)
		case 'T', 't':
			out = append(out, baccarat.Tie)
		default:
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "result %d %q is not B, P or T", pos, string(r))
		}
	}
	return out, nil
}

// checkDragonFlags refuses a session with no results (there is nothing to settle) and a
// stake, when given, outside 1 to the largest stake whose return at the best Dragon tier fits
// the books (baccarat.MaxAmount).
func checkDragonFlags(fs *flag.FlagSet, results string, stake baccarat.Money) error {
	if strings.Trim(results, " ,") == "" {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--results is required: the session's results, one letter a hand (B, P or T)")
	}
	if most := maxDragonStake(); given(fs, "stake") && (stake < 1 || stake > most) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--stake %d: a stake is 1 to %d minor units", stake, most)
	}
	return nil
}

// maxDragonStake is the largest stake every Dragon bet can settle: its return at the highest
// paying tier fits baccarat.MaxAmount.
func maxDragonStake() baccarat.Money {
	m := baccarat.MaxAmount
	for _, b := range games.MBSDragon.DragonBets() {
		for _, t := range b.Tiers {
			m = min(m, t.Pays.MaxStakeFor())
		}
	}
	return m
}

func runDragon(_ context.Context, e *env, args []string) int {
	c := commands["dragon"]
	fs := newFlags(e, c)
	results := fs.String("results", "", "the session's results, B/P/T a hand")
	stakeFlag := fs.Int64("stake", 0, "stake in minor units, to show the amount won or lost")
	asJSON := fs.Bool("json", false, "print JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	stake := baccarat.Money(*stakeFlag)
	if err := checkDragonFlags(fs, *results, stake); err != nil {
		return usageError(e, c.name, err)
	}
	rs, err := parseResults(*results)
	if err != nil {
		return fail(e, c.name, err)
	}
	b, p := games.Streaks(rs)
	out := dragonJSON{Hands: len(rs), LongestBanker: b, LongestPlayer: p}
	for _, bet := range games.MBSDragon.DragonBets() {
		s := games.SettleDragon(bet, stake, rs)
		j := dragonBetJ{Bet: bet.ID, Longest: bet.Dragon.Longest(rs), Result: s.Outcome.String()}
		if s.Outcome == games.Win {
			j.Tier = strings.SplitN(bet.Tiers[s.Tier].Event, ":", 2)[0]
			j.Pays = s.Pays.String()
		}
		if stake > 0 {
			j.Net = &s.Net
		}
		out.Bets = append(out.Bets, j)
	}
	if *asJSON {
		_ = json.NewEncoder(e.stdout).Encode(out)
		return 0
	}
	fmt.Fprintf(e.stdout, "%d hands; longest Banker streak %d, longest Player streak %d\n\n", out.Hands, b, p)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bet\tlongest\tresult\ttier\tpays\tnet")
	for _, j := range out.Bets {
		net := ""
		if j.Net != nil {
			net = fmt.Sprint(*j.Net)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", j.Bet, j.Longest, j.Result, j.Tier, j.Pays, net)
	}
	_ = tw.Flush()
	return 0
}
