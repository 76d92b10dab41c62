package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

func execCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{stdout: &out, stderr: &errb}, args)
	return out.String(), errb.String(), code
}

func analyzeJSON(t *testing.T, args ...string) analysisJSON {
	t.Helper()
	out, errs, code := execCmd(t, append([]string{"analyze", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a analysisJSON
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return a
}

func TestAnalyzeJSON(t *testing.T) {
	a := analyzeJSON(t, "--game", "mbs-tiger")
	for _, tc := range []struct{ name, got, want string }{
		{"SPEC §7 Banker ways", a.Ways["banker_win"], "2292252566437888"},
		{"SPEC §7 Player ways", a.Ways["player_win"], "2230518282592256"},
		{"SPEC §7 Tie ways", a.Ways["tie"], "475627426473216"},
		{"416·415·414·413·412·411 sequences", a.Sequences, "4998398275503360"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.got, tc.want)
		}
	}
	if a.Game != "mbs-tiger" || a.Cards != 416 || len(a.Bets) != 8 {
		t.Fatalf("%+v", a)
	}
	var tiger *betSheetJSON
	for i := range a.Bets {
		if a.Bets[i].Bet == "tiger" {
			tiger = &a.Bets[i]
		}
	}
	if tiger == nil || tiger.Odds != nil || len(tiger.Tiers) != 2 || tiger.Tiers[0].Pays != "12:1" {
		t.Fatalf("tiger row %+v", tiger)
	}
	if d := tiger.HouseEdge - 0.166836; d > 5e-7 || d < -5e-7 {
		t.Errorf("Tiger house edge %.7f, want 0.166836", tiger.HouseEdge)
	}
	if len(tiger.EoR) != 13 {
		t.Errorf("effect of removal for %d ranks", len(tiger.EoR))
	}
}

func TestAnalyzeBetOnBaccaratOdds(t *testing.T) {
	a := analyzeJSON(t, "--game", "bet-on-baccarat", "--revealed", "P:7h,B:Kd", "--margin", "player=3%,tie=0.08")
	if a.Cards != 310 || strings.Join(a.Revealed, " ") != "7h Kd" {
		t.Fatalf("%d cards, revealed %v", a.Cards, a.Revealed)
	}
	for _, b := range a.Bets {
		if b.Odds == nil || b.Offered == nil || b.Margin == nil {
			t.Fatalf("%s: no odds", b.Bet)
		}
		want := map[string]float64{"player": 0.03, "tie": 0.08}[b.Bet]
		if want == 0 {
			want = map[string]float64{"banker": 0.025, "big": 0.025, "small": 0.025}[b.Bet]
		}
		if want == 0 {
			want = 0.05
		}
		if *b.Margin != want {
			t.Errorf("%s margin %v, want %v", b.Bet, *b.Margin, want)
		}
		// SPEC §3.5: odds ≤ (1 − m − r)/p < odds + 0.01
		fair := (1 - *b.Margin - b.Push) / b.Win
		if *b.Odds > fair+1e-9 || *b.Odds+0.01 <= fair-1e-9 {
			t.Errorf("%s: odds %.2f for (1−m−r)/p = %.6f", b.Bet, *b.Odds, fair)
		}
	}
}

func TestAnalyzeDragonSession(t *testing.T) {
	a := analyzeJSON(t, "--game", "mbs-dragon", "--hands", "70")
	n := 0
	for _, b := range a.Bets {
		if b.Session == 70 {
			n++
			if len(b.Tiers) != 3 || b.BreakEven == nil || *b.BreakEven < 2 {
				t.Errorf("%s: %+v", b.Bet, b)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d Dragon rows", n)
	}
}

func TestAnalyzeText(t *testing.T) {
	out, _, code := execCmd(t, "analyze", "--game", "punto-banco", "--decks", "6", "--remove", "5h,5d,5c,5s", "--exact")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"punto-banco", "308 cards", "HOUSE EDGE", "EFFECT OF REMOVAL", "banker: house edge "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code string
	}{
		{"unknown game", []string{"--game", "nope"}, "unknown_game"},
		{"impossible composition", []string{"--game", "mbs-tiger", "--shoe", "1,2,3"}, "bad_shoe"},
		{"negative count", []string{"--game", "mbs-tiger", "--shoe", "A:-2"}, "bad_shoe"},
		{"a revealed card not in the shoe", []string{"--game", "bet-on-baccarat", "--shoe", "Ah:3,Kd:30", "--revealed", "P:7h"}, "card_not_in_shoe"},
		{"fewer than 6 cards", []string{"--game", "mbs-tiger", "--shoe", "A:2,K:3"}, "bad_shoe"},
		{"a removed card twice too many", []string{"--game", "mbs-tiger", "--shoe", "Ah:3,7h:1,Kd:30", "--remove", "7h,7h"}, "card_not_in_shoe"},
		{"BoB 3.3 the Banker's card before the Player's", []string{"--game", "bet-on-baccarat", "--revealed", "B:7h"}, "bad_request"},
		{"sessions in a game without Dragon bets", []string{"--game", "mbs-tiger", "--hands", "10"}, "bad_request"},
		{"a margin of 120%", []string{"--game", "bet-on-baccarat", "--margin", "120%"}, "bad_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, append([]string{"analyze"}, tc.args...)...)
			if code == 0 || out != "" || !strings.Contains(errs, "["+tc.code+"]") {
				t.Errorf("exit %d, stdout %q, stderr %q; want code %s", code, out, errs, tc.code)
			}
		})
	}
}

// TestAnalyzeFlagsOutOfRangeAreUsageErrors: a value the user typed is checked, never silently
// replaced by the default, and the message says the allowed range; exit 2 as for flags that
// do not parse.
func TestAnalyzeFlagsOutOfRangeAreUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"SPEC §2 --decks 0 is refused, not read as the default", []string{"--game", "mbs-tiger", "--decks", "0"}, "played with 4 to 10 decks"},
		{"SPEC §2 --decks 100 is beyond Tiger's 4 to 10", []string{"--game", "mbs-tiger", "--decks", "100"}, "--decks 100: mbs-tiger is played with 4 to 10 decks"},
		{"SPEC §2 RWS is played with 4 to 8 decks", []string{"--game", "rws-no-commission", "--decks", "10"}, "4 to 8 decks"},
		{"SPEC §2 Bet on Baccarat is played with 6 decks only", []string{"--game", "bet-on-baccarat", "--decks", "8"}, "6 decks only"},
		{"--decks and --shoe do not go together", []string{"--game", "mbs-tiger", "--decks", "8", "--shoe", "32,32,32,32,32,32,32,32,32,32,32,32,32"}, "not both"},
		{"a --shoe over 1000 decks' worth is refused before its counts can wrap", []string{"--game", "mbs-tiger", "--shoe", "5000000000,1,1,1,1,1,1,1,1,1,1,1,1"}, "more than 52000 cards"},
		{"--hands 0 is refused, not read as no session", []string{"--game", "mbs-dragon", "--hands", "0"}, "1 to 1000 hands"},
		{"--hands beyond 1000 is refused", []string{"--game", "mbs-dragon", "--hands", "1001"}, "1 to 1000 hands"},
		{"--hands in a game without Dragon bets", []string{"--game", "mbs-tiger", "--hands", "10"}, "no Dragon bets"},
		{"--game is required", []string{"--decks", "8"}, "--game is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, append([]string{"analyze"}, tc.args...)...)
			if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, out, errs, tc.want)
			}
		})
	}
	t.Run("SPEC §2 the ends of the game's range are accepted", func(t *testing.T) {
		for _, d := range []string{"4", "10"} {
			if a := analyzeJSON(t, "--game", "mbs-tiger", "--decks", d); fmt.Sprint(a.Decks) != d || a.Cards != 52*a.Decks {
				t.Errorf("--decks %s: %d decks, %d cards", d, a.Decks, a.Cards)
			}
		}
	})
	t.Run("the help states the limits the checks use", func(t *testing.T) {
		help := commands["analyze"].usage
		for _, want := range []string{fmt.Sprintf("at most %d cards", maxShoeCards), fmt.Sprintf("(1 to %d)", maxSessionHands)} {
			if !strings.Contains(help, want) {
				t.Errorf("help lacks %q", want)
			}
		}
	})
}

// TestAnalyzeWaysAreExactForAnyShoe: shoes over 1625 cards (32 decks and up) count in
// math/big; their ways must still be the counts themselves, compared as integers with the
// exact number of orderings N·(N−1)·…·(N−5) worked out here in math/big.
func TestAnalyzeWaysAreExactForAnyShoe(t *testing.T) {
	for _, perRank := range []int{124, 128, 400, 4000} { // 31, 32, 100 and 1000 decks' worth
		t.Run(fmt.Sprintf("%d cards of each rank: Banker + Player + Tie ways = N·(N−1)·…·(N−5)", perRank), func(t *testing.T) {
			shoe := strings.TrimSuffix(strings.Repeat(fmt.Sprint(perRank)+",", 13), ",")
			a := analyzeJSON(t, "--game", "mbs-tiger", "--shoe", shoe)
			n := int64(13 * perRank)
			orderings := big.NewInt(1)
			for i := int64(0); i < 6; i++ {
				orderings.Mul(orderings, big.NewInt(n-i))
			}
			if a.Sequences != orderings.String() {
				t.Errorf("sequences %s, want %s", a.Sequences, orderings)
			}
			for _, sum := range [][]string{{"banker_win", "player_win", "tie"}, {"cards_4", "cards_5", "cards_6"}} {
				if got := sumWays(t, a.Ways, sum...); got.Cmp(orderings) != 0 {
					t.Errorf("%v ways sum to %s, want %s", sum, got, orderings)
				}
			}
			tiers := map[string]string{}
			for _, b := range a.Bets {
				if b.Bet == "banker" {
					for i, tr := range b.Tiers {
						tiers[fmt.Sprint(i)] = tr.Ways
					}
				}
			}
			if got, want := sumWays(t, tiers, "0", "1"), sumWays(t, a.Ways, "banker_win"); got.Cmp(want) != 0 {
				t.Errorf("the banker bet's tiers have %s ways, Banker wins %s", got, want)
			}
		})
	}
}

func sumWays(t *testing.T, ways map[string]string, keys ...string) *big.Int {
	t.Helper()
	sum := new(big.Int)
	for _, k := range keys {
		w, ok := new(big.Int).SetString(ways[k], 10)
		if !ok {
			t.Fatalf("ways %q = %q", k, ways[k])
		}
		sum.Add(sum, w)
	}
	return sum
}

// TestAnalyzePerfectPairNeedsSuits: counts by rank know no suits, even 13 equal counts that
// make whole decks, so Perfect Pair is marked not available, saying why; by card or by decks
// it is priced.
func TestAnalyzePerfectPairNeedsSuits(t *testing.T) {
	perfect := func(a analysisJSON) betSheetJSON {
		for _, b := range a.Bets {
			if b.Bet == "perfect_pair" {
				return b
			}
		}
		t.Fatal("no perfect_pair row")
		return betSheetJSON{}
	}
	for _, shoe := range []string{"24,24,24,24,24,24,24,24,24,24,24,24,24", "23,24,24,24,24,24,24,24,24,24,24,24,24", "A:24,T:96,7:24"} {
		t.Run("by rank, "+shoe+": perfect_pair not available", func(t *testing.T) {
			a := analyzeJSON(t, "--game", "bet-on-baccarat", "--shoe", shoe)
			if b := perfect(a); a.Suits || !strings.Contains(b.Error, "needs to know suits") || b.Win != 0 || b.Odds != nil || len(b.EoR) != 0 {
				t.Errorf("suits_known %v, perfect_pair %+v", a.Suits, b)
			}
			out, _, _ := execCmd(t, "analyze", "--game", "bet-on-baccarat", "--shoe", shoe)
			for _, want := range []string{"suits unknown", "perfect_pair is not available: perfect_pair needs to know suits"} {
				if !strings.Contains(out, want) {
					t.Errorf("text lacks %q", want)
				}
			}
			if strings.Contains(out, "perfect_pair  odds") || strings.Count(out, "perfect_pair") != 3 {
				t.Errorf("perfect_pair figures printed:\n%s", out)
			}
		})
	}
	t.Run("by decks: perfect_pair priced", func(t *testing.T) {
		a := analyzeJSON(t, "--game", "bet-on-baccarat")
		if b := perfect(a); !a.Suits || b.Error != "" || b.Win == 0 {
			t.Errorf("suits_known %v, perfect_pair %+v", a.Suits, b)
		}
	})
}
