package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/protect"
)

// protectOut is `protect --json` read back, field by field as the JSON names them.
type protectOut struct {
	Game    string `json:"game"`
	Decks   int    `json:"decks"`
	CutCard int    `json:"cut_card"`
	Shoes   int    `json:"shoes"`
	Hands   uint64 `json:"hands"`
	Bets    []struct {
		Bet           string   `json:"bet"`
		PositiveShare float64  `json:"positive_share"`
		MeanEdge      float64  `json:"mean_edge_when_positive"`
		PerfectWin    float64  `json:"perfect_win_per_shoe"`
		Safe          *int     `json:"safe_cut_card"`
		Count         struct{} `json:"count"`
	} `json:"bets"`
	Positions []struct {
		Shoe      int                `json:"shoe"`
		Hand      int                `json:"hand"`
		CardsLeft int                `json:"cards_left"`
		Remaining string             `json:"remaining"`
		EV        map[string]float64 `json:"ev"`
	} `json:"positions"`
}

func protectJSON(t *testing.T, args ...string) (protectOut, string) {
	t.Helper()
	out, errs, code := execCmd(t, append([]string{"protect", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var p protectOut
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return p, out
}

// writeOrders writes seeded shoes to an orders file, one a line, as an auditor would.
func writeOrders(t *testing.T, decks int, seed uint64, shoes int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# shoes in deal order\n")
	for i := 0; i < shoes; i++ {
		b.WriteString(baccarat.FormatCards(protect.SeededShoe(decks, seed, i).Order(), ",") + "\n")
	}
	path := filepath.Join(t.TempDir(), "orders.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The JSON is exactly the documented shape: these keys, in this order, and the tags A to K.
func TestProtectJSONShape(t *testing.T) {
	_, out := protectJSON(t, "--game", "mbs-tiger", "--shoes", "3")
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"bets", "cut_card", "decks", "game", "hands", "shoes"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %v, want %v (positions only with --positions)", keys, want)
	}
	var bets []map[string]json.RawMessage
	_ = json.Unmarshal(raw["bets"], &bets)
	if len(bets) != 8 || string(bets[0]["bet"]) != `"player"` {
		t.Fatalf("bets %s", raw["bets"])
	}
	var count map[string]json.RawMessage
	_ = json.Unmarshal(bets[3]["count"], &count)
	for _, k := range []string{"tags", "threshold", "win_per_shoe", "betting_correlation"} {
		if _, ok := count[k]; !ok {
			t.Errorf("count has no %s: %s", k, bets[3]["count"])
		}
	}
	tags := strings.Join(strings.Fields(string(count["tags"])), "")
	if !strings.HasPrefix(tags, `{"A":`) || !strings.Contains(tags, `,"2":`) || !strings.HasSuffix(strings.Split(tags, `"K":`)[0], ",") {
		t.Errorf("tags %s", tags)
	}
	for _, k := range []string{"positive_share", "mean_edge_when_positive", "perfect_win_per_shoe", "safe_cut_card"} {
		if _, ok := bets[3][k]; !ok {
			t.Errorf("bet has no %s", k)
		}
	}
}

// Several cut cards: one object per cut card, in an array, over the same shoes.
func TestProtectSeveralCutCardsPrintAnArray(t *testing.T) {
	out, errs, code := execCmd(t, "protect", "--game", "punto-banco", "--shoes", "4", "--cut-card", "14, 52", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var reps []protectOut
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 2 {
		t.Fatalf("%v: %s", err, out)
	}
	if reps[0].CutCard != 14 || reps[1].CutCard != 52 || reps[0].Shoes != 4 || reps[0].Hands <= reps[1].Hands {
		t.Errorf("%d (%d hands) and %d (%d hands)", reps[0].CutCard, reps[0].Hands, reps[1].CutCard, reps[1].Hands)
	}
}

// The expectation at a position is what `baccarat analyze --shoe` says of the cards left, run
// in-process on the remaining counts the position prints: the same float64.
func TestProtectPositionEqualsAnalyzeShoe(t *testing.T) {
	orders := writeOrders(t, 8, 21, 1)
	p, _ := protectJSON(t, "--game", "mbs-tiger", "--orders", orders, "--positions")
	if len(p.Positions) < 60 || p.Positions[0].Remaining != "32,32,32,32,32,32,32,32,32,32,32,32,32" || p.Positions[0].CardsLeft != 416 {
		t.Fatalf("%d positions, first %+v", len(p.Positions), p.Positions[0])
	}
	for i, pos := range p.Positions {
		if i%9 != 0 && i != len(p.Positions)-1 {
			continue
		}
		a := analyzeJSON(t, "--game", "mbs-tiger", "--shoe", pos.Remaining)
		if a.Cards != pos.CardsLeft {
			t.Fatalf("hand %d: analyze counted %d cards, %d left", pos.Hand, a.Cards, pos.CardsLeft)
		}
		for _, b := range a.Bets {
			if got := pos.EV[b.Bet]; math.Float64bits(got) != math.Float64bits(b.Return) {
				t.Errorf("shoe %d hand %d %s: %v, analyze --shoe %s says %v", pos.Shoe, pos.Hand, b.Bet, got, pos.Remaining, b.Return)
			}
		}
	}
}

// Bet on Baccarat's Perfect Pair needs the suits: the cards left given card by card to
// analyze give the same expectations, every bet at the odds offered from those cards.
func TestProtectBetOnBaccaratPositionEqualsAnalyzeByCard(t *testing.T) {
	orders := writeOrders(t, 6, 4, 1)
	p, _ := protectJSON(t, "--game", "bet-on-baccarat", "--orders", orders, "--positions")
	order := protect.SeededShoe(6, 4, 0).Order()
	for _, pos := range []int{0, 17, len(p.Positions) - 1} {
		at := p.Positions[pos]
		s := baccarat.NewShoeFromOrder(order)
		s.Advance(len(order) - at.CardsLeft)
		counts := s.Counts()
		var byCard []string
		for k := baccarat.Card(0); k < baccarat.NumCards; k++ {
			byCard = append(byCard, k.String()+":"+strconv.Itoa(counts.Card(k)))
		}
		a := analyzeJSON(t, "--game", "bet-on-baccarat", "--shoe", strings.Join(byCard, ","))
		for _, b := range a.Bets {
			if got := at.EV[b.Bet]; got != b.Return || got >= 0 {
				t.Errorf("hand %d %s: %v, analyze says %v (never positive at the offered odds)", at.Hand, b.Bet, got, b.Return)
			}
		}
	}
}

func TestProtectSameOutputWhateverTheWorkers(t *testing.T) {
	args := []string{"--game", "rws-no-commission", "--shoes", "40", "--seed", "3", "--positions", "--cut-card", "14,30"}
	one, _, c1 := execCmd(t, append([]string{"protect", "--json"}, append(args, "--workers", "1")...)...)
	three, _, c3 := execCmd(t, append([]string{"protect", "--json"}, append(args, "--workers", "3")...)...)
	if c1 != 0 || c3 != 0 || !strings.HasPrefix(one, `[{"game":"rws-no-commission"`) {
		t.Fatalf("exit %d, %d: %.100s", c1, c3, one)
	}
	if one != three {
		t.Error("seed 3 on 3 workers prints otherwise than on 1")
	}
}

func TestProtectTextAndSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "tiger.svg")
	out, errs, code := execCmd(t, "protect", "--game", "mbs-dragon", "--shoes", "20", "--svg", svg, "--safe", "0.02")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q (no progress bar when not a terminal)", code, errs)
	}
	for _, want := range []string{"mbs-dragon: 20 shoes of 8 decks (seed 1)", "Cut card with 14 cards behind it", "PERFECT WIN",
		"SAFE CUT", "below 0.02 units", "Dragon bets settle on a session, not on a hand: left out."} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "banker_dragon") {
		t.Error("a Dragon bet in the report")
	}
	b, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(b), "<svg") || !strings.Contains(string(b), ">tie<") {
		t.Errorf("svg: %v %.80s", err, b)
	}
	help, _, _ := execCmd(t, "help", "protect")
	if !strings.Contains(help, "Dragon bets (mbs-dragon) settle on a session") || !strings.Contains(help, "--orders") {
		t.Errorf("help: %s", help)
	}
}

// Bad input: a clear error, nothing on stdout, no SVG file written; exit 2 when the command
// line is wrong, 1 when what it names cannot be used (the house's rule, games.go).
func TestProtectBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	_ = os.WriteFile(bad, []byte("# audit\nAh,Kd,7c,8d,9h,2s,3c\nAh,Kd,Xq\n"), 0o644)
	nine := filepath.Join(dir, "nine.txt")
	_ = os.WriteFile(nine, []byte(strings.Repeat("Ah,", 9)+"Kd,7c,8d,9h,2s,3c,4d,5h,6s,Ts,Js,Qs,Ks,Kh\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		exit int
		want string
	}{
		{"no game", []string{"--shoes", "3"}, 2, "--game is required"},
		{"unknown game", []string{"--game", "nope"}, 2, "[unknown_game]"},
		{"SPEC §2 Tiger with 11 decks", []string{"--game", "mbs-tiger", "--decks", "11"}, 2, "--decks 11: mbs-tiger is played with 4 to 10 decks"},
		{"SPEC §2 Bet on Baccarat with 8 decks", []string{"--game", "bet-on-baccarat", "--decks", "8"}, 2, "6 decks only"},
		{"a cut card 4 deep", []string{"--game", "mbs-tiger", "--cut-card", "14,4"}, 2, `--cut-card "4": cards behind the cut card are 5 to 410`},
		{"a cut card behind the shoe", []string{"--game", "punto-banco", "--decks", "4", "--cut-card", "203"}, 2, "5 to 202 in a shoe of 4 decks"},
		{"a cut card that is not a number", []string{"--game", "mbs-tiger", "--cut-card", "14,x"}, 2, `--cut-card "x"`},
		{"no shoes", []string{"--game", "mbs-tiger", "--shoes", "0"}, 2, "--shoes 0: deal 1 shoe or more [bad_request]"},
		{"no workers", []string{"--game", "mbs-tiger", "--workers", "0"}, 2, "--workers 0"},
		{"an orders file that is not there", []string{"--game", "mbs-tiger", "--orders", filepath.Join(dir, "none.txt")}, 2, "does not exist"},
		{"orders and shoes", []string{"--game", "mbs-tiger", "--orders", bad, "--shoes", "3"}, 2, "leave out --shoes and --seed"},
		{"positions without JSON", []string{"--game", "mbs-tiger", "--positions"}, 2, "use it with --json"},
		{"a safe level of 0", []string{"--game", "mbs-tiger", "--safe", "0"}, 2, "--safe 0"},
		{"a flag that does not parse", []string{"--game", "mbs-tiger", "--shoes", "many"}, 2, "invalid value"},
		{"a bad card in the orders", []string{"--game", "mbs-tiger", "--orders", bad, "--cut-card", "5"}, 1, `line 3: card 3 "Xq" is not a card`},
		{"a ninth Ace of hearts in 8 decks", []string{"--game", "mbs-tiger", "--orders", nine}, 1, "line 1: card 9 is the 9th copy of Ah, and 8 decks hold 8: the shoe cannot contain it [card_not_in_shoe]"},
		{"an order too short for its cut card", []string{"--game", "mbs-tiger", "--orders", bad}, 1, "line 2: 7 cards: with 14 cards behind the cut card"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".svg")
			out, errs, code := execCmd(t, append(append([]string{"protect"}, tc.args...), "--svg", svg)...)
			if code != tc.exit || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d saying %q", code, out, errs, tc.exit, tc.want)
			}
			if _, err := os.Stat(svg); !os.IsNotExist(err) {
				t.Errorf("%s written: %v", svg, err)
			}
		})
	}
}
