package main

// analyze's tables for people: each bet's return and edge, its pay tiers, the summary and the
// effects of removal.

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

func printAnalysis(w io.Writer, a *analysisJSON, exact bool) {
	shoe := fmt.Sprintf("%d cards", a.Cards)
	if a.Decks > 0 {
		shoe += fmt.Sprintf(" (%d decks)", a.Decks)
	}
	if !a.Suits {
		shoe += " by rank, suits unknown"
	}
	rev := "none"
	if len(a.Revealed) > 0 {
		rev = "P " + a.Revealed[0]
		if len(a.Revealed) > 1 {
			rev += ", B " + a.Revealed[1]
		}
	}
	fmt.Fprintf(w, "%s  %s\nshoe: %s   revealed: %s   sequences: %s (hands), %s (pairs)\n\n",
		a.Game, a.Name, shoe, rev, a.Sequences, a.PairSeqs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "EVENT\tPROBABILITY\tWAYS\t")
	for _, x := range [][2]string{{"player_win", "Player wins"}, {"banker_win", "Banker wins"}, {"tie", "Tie"},
		{"cards_4", "4 cards dealt"}, {"cards_5", "5 cards dealt"}, {"cards_6", "6 cards dealt"}, {"natural", "a natural"},
		{"player_pair", "Player pair"}, {"banker_pair", "Banker pair"}} {
		fmt.Fprintf(tw, "%s\t%s\t%s\t\n", x[1], pct(a.Events[x[0]]), a.Ways[x[0]])
	}
	_ = tw.Flush()
	fmt.Fprintln(w)
	printTiers(w, a, exact)
	fmt.Fprintln(w)
	printSummary(w, a, exact)
	printEoR(w, a)
}

// printTiers is the sheet's first table: every paying tier of every bet.
func printTiers(w io.Writer, a *analysisJSON, exact bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "BET\tPAYS\tEVENT\tPROBABILITY")
	if exact {
		fmt.Fprint(tw, "\tFRACTION")
	}
	fmt.Fprintln(tw)
	for _, b := range a.Bets {
		name := b.Bet
		if b.Session > 0 {
			name += fmt.Sprintf(" (%d hands)", b.Session)
		}
		if b.Error != "" {
			fmt.Fprintf(tw, "%s\t\tnot available (below)\t\n", name)
			continue
		}
		for i, t := range b.Tiers {
			if i > 0 {
				name = ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s", name, t.Pays, t.Event, pct(t.Probability))
			if exact {
				fmt.Fprintf(tw, "\t%s", t.Fraction)
			}
			fmt.Fprintln(tw)
		}
	}
	_ = tw.Flush()
	for _, b := range a.Bets {
		if b.Error != "" {
			fmt.Fprintf(w, "%s is not available: %s\n", b.Bet, b.Error)
		}
	}
}

func printSummary(w io.Writer, a *analysisJSON, exact bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BET\tHIT RATE\tPUSH\tHOUSE EDGE\tVARIANCE\tSTD DEV\tODDS\tBREAK-EVEN\t")
	for _, b := range a.Bets {
		if b.Error != "" {
			continue
		}
		name, odd, be := b.Bet, "", ""
		if b.Session > 0 {
			name += fmt.Sprintf(" (%d hands)", b.Session)
			be = "none ≤ 1000"
			if b.BreakEven != nil {
				be = fmt.Sprintf("%d hands", *b.BreakEven)
			}
		}
		if b.decimalBet {
			odd = "—"
			if b.Odds != nil {
				odd = strconv.FormatFloat(*b.Odds, 'f', 2, 64)
			}
			if b.Offered != nil && !*b.Offered {
				odd += " (not offered)"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.4f\t%.4f\t%s\t%s\t\n", name, pct(b.HitRate), pct(b.Push),
			pct(b.HouseEdge), b.Variance, b.StdDev, odd, be)
	}
	_ = tw.Flush()
	for _, b := range a.Bets {
		if len(b.EdgeByN) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s house edge by session length:", b.Bet)
		step := max(1, (len(b.EdgeByN)+9)/10)
		for n := step; n <= len(b.EdgeByN); n += step {
			fmt.Fprintf(w, "  %d: %s", n, pct(b.EdgeByN[n-1]))
		}
		fmt.Fprintln(w)
	}
	if exact {
		fmt.Fprintln(w)
		for _, b := range a.Bets {
			if b.ExactEdge != "" {
				fmt.Fprintf(w, "%s: house edge %s, variance %s\n", b.Bet, b.ExactEdge, b.ExactVar)
			}
		}
	}
}

func printEoR(w io.Writer, a *analysisJSON) {
	if len(a.Ranks) == 0 {
		return
	}
	fmt.Fprintln(w, "\nEFFECT OF REMOVAL: change of the house edge, in % points, when one card of a rank leaves the shoe")
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "BET\t")
	for _, r := range a.Ranks {
		fmt.Fprintf(tw, "%s\t", r)
	}
	fmt.Fprintln(tw)
	for _, b := range a.Bets {
		if b.EoR == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t", b.Bet)
		for _, r := range a.Ranks {
			fmt.Fprintf(tw, "%+.5f\t", 100*b.EoR[r])
		}
		fmt.Fprintln(tw)
	}
	_ = tw.Flush()
}
