package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/roads"
)

func init() {
	d := roads.DefaultSettings()
	register(&command{
		name:    "roads",
		summary: "draw a shoe's scoreboards: Bead Plate, Big Road, derived roads, Ask, statistics",
		usage: fmt.Sprintf(`Usage: baccarat roads --results "TBPPTBBB..." [--cards-left N] [--json]

Draws the five scoreboards of one shoe (ROADS.md): the Bead Plate, the Big Road, Big Eye Boy,
Small Road and Cockroach Pig, the Ask-Banker / Ask-Player predictions, the shoe statistics and
the good-road detectors. The display is informational only: the cards prevail (Tiger 6.3).

Results, one per settled, non-void round, in order:
  B Banker   P Player   T Tie          (upper-case)
  each directly followed by any of these flags, at most once each, in any order:
  p Player pair   b Banker pair   n natural
Spaces and commas are ignored. "TBPPTBBB" is eight plain rounds; "T Bp Pbn B" is a tie, a
Banker win with a Player pair, a Player natural with a Banker pair, and a Banker win. A bad
character is reported with its 1-based position.

Text output is coloured when stdout is a terminal; --width scrolls each grid to its last N
columns. --json prints every road, the grids as placed items, and the statistics; a derived
road that has not started is []. An Ask entry is the mark that road would get from the next
result, even the one that would start it, and null (- in text) where the road would still not
exist after that result.

Good-road thresholds (defaults in brackets), each 1 to %d: --long [%d] cells in the current
column; --ping-pong [%d] columns of one; --double-jump [%d] columns of two; --one-two [%d]
columns alternating one and two (one Banker two Player, or the reverse); --consecutive [%d]
columns of one side in a row, each of two or more cells.
--cards-left is 0 to %d (1000 decks; -1, the default: unknown); --width is 0 (every
column, the default) to %d.

  baccarat roads --results "T B P P T B B B P B P P B T T B P B B B B B B B B P P P P P P B"
  baccarat roads --results "BpPPbnTB" --cards-left 402 --json
`, maxRoadsCount, d.LongStreak, d.PingPong, d.DoubleJump, d.OneTwo, d.Consecutive, maxShoeCards, maxRoadsCount),
		run: runRoads,
	})
}

func runRoads(_ context.Context, e *env, args []string) int {
	c := commands["roads"]
	fs := newFlags(e, c)
	d := roads.DefaultSettings()
	results := fs.String("results", "", "the shoe's results in order, B/P/T with flags p, b, n")
	asJSON := fs.Bool("json", false, "print JSON")
	cardsLeft := fs.Int("cards-left", -1, "cards left in the shoe, for the statistics (-1: unknown)")
	width := fs.Int("width", 0, "text: show only the last N columns of each grid (0: all)")
	var set roads.Settings
	fs.IntVar(&set.LongStreak, "long", d.LongStreak, "long Banker/Player: cells in the current column")
	fs.IntVar(&set.PingPong, "ping-pong", d.PingPong, "ping-pong: columns of one cell in a row")
	fs.IntVar(&set.DoubleJump, "double-jump", d.DoubleJump, "double jump: columns of two cells in a row")
	fs.IntVar(&set.OneTwo, "one-two", d.OneTwo, "one Banker two Player (and reverse): columns in a row")
	fs.IntVar(&set.Consecutive, "consecutive", d.Consecutive, "Banker/Player consecutive: that side's columns of 2+ in a row")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if err := checkRoadsFlags(*cardsLeft, *width, set); err != nil {
		return usageError(e, c.name, err)
	}
	rounds, err := roads.ParseRounds(*results)
	if err != nil {
		return fail(e, c.name, err)
	}
	board, err := roads.New(rounds)
	if err != nil {
		return fail(e, c.name, err)
	}
	view := board.View(set, *cardsLeft)
	if *asJSON {
		_ = json.NewEncoder(e.stdout).Encode(view)
		return 0
	}
	(&roadsText{w: e.stdout, tty: e.tty, width: *width}).render(board, view)
	return 0
}

// maxRoadsCount bounds --width and the good-road thresholds: a shoe of 8 decks deals about 80
// rounds, so no column count or streak of a real shoe comes near it.
const maxRoadsCount = 1000

// checkRoadsFlags refuses numbers out of their ranges before anything is built (-1 cards
// left is "unknown"; a shoe holds at most maxShoeCards, as analyze takes them).
func checkRoadsFlags(cardsLeft, width int, s roads.Settings) error {
	if cardsLeft < -1 || width < 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--cards-left and --width cannot be negative")
	}
	if cardsLeft > maxShoeCards {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--cards-left %d: give 0 to %d cards (1000 decks), or leave it out", cardsLeft, maxShoeCards)
	}
	if width > maxRoadsCount {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--width %d: give 0 (every column) to %d columns", width, maxRoadsCount)
	}
	for _, v := range []int{s.LongStreak, s.PingPong, s.DoubleJump, s.OneTwo, s.Consecutive} {
		if v < 1 || v > maxRoadsCount {
			return baccarat.Errorf(baccarat.CodeBadRequest, "good-road thresholds must be at least 1 and at most %d, not %d", maxRoadsCount, v)
		}
	}
	return nil
}

// ANSI colours: Banker red, Player blue, Tie green (ROADS.md, Bead Plate).
const (
	ansiRed   = "\x1b[31m"
	ansiBlue  = "\x1b[34m"
	ansiGreen = "\x1b[32m"
	ansiReset = "\x1b[0m"
)

// roadsText draws the roads for people: letters always, colour only on a terminal.
type roadsText struct {
	w     io.Writer
	tty   bool
	width int // show only the last width columns of each grid; 0 shows all
}

// item is one drawn grid cell: visible text and its colour (used only on a terminal).
type item struct {
	roads.Pos
	text, colour string
}

func sideColour(letter string) string {
	switch letter {
	case "B":
		return ansiRed
	case "P":
		return ansiBlue
	}
	return ansiGreen
}

func (t *roadsText) render(b *roads.Board, v roads.View) {
	t.stats(v.Stats)
	var beads []item
	for _, bd := range b.BeadPlate() {
		beads = append(beads, item{bd.Pos, bd.Round.String(), sideColour(bd.Round.Winner.Letter())})
	}
	t.grid("Bead Plate", beads)
	t.grid("Big Road (a digit counts the ties after a cell, leading ties on the first; p/b pairs)", bigRoadItems(v))
	for _, k := range roads.Kinds {
		var marks []item
		for _, m := range b.RoadGrid(k) {
			marks = append(marks, item{m.Pos, t.mark(k, m.Colour), colourCode(m.Colour)})
		}
		t.grid(k.String(), marks)
	}
	t.ask("Ask Banker", v.AskBanker)
	t.ask("Ask Player", v.AskPlayer)
	var good []string
	for _, d := range v.Stats.Detectors {
		if d.Hit {
			good = append(good, fmt.Sprintf("%s %d (≥ %d)", strings.ReplaceAll(d.Name, "_", " "), d.Length, d.Threshold))
		}
	}
	if len(good) == 0 {
		good = []string{"none"}
	}
	fmt.Fprintf(t.w, "Good roads: %s\n", strings.Join(good, ", "))
}

// bigRoadItems draws each Big Road cell as its side letter, its tie count (a tie never takes a
// cell of its own) and its pair flags.
func bigRoadItems(v roads.View) []item {
	var big []item
	for _, p := range v.BigRoadGrid {
		text := p.Side
		if ties := p.Ties + p.LeadingTies; ties > 0 {
			text += fmt.Sprint(ties)
		}
		if p.PlayerPair {
			text += "p"
		}
		if p.BankerPair {
			text += "b"
		}
		big = append(big, item{p.Pos, text, sideColour(p.Side)})
	}
	return big
}

func colourCode(c roads.Colour) string {
	if c == roads.Red {
		return ansiRed
	}
	return ansiBlue
}

// mark is a derived-road mark: on a terminal the road's own symbol in its colour (Big Eye Boy
// hollow circles, Small Road solid dots, Cockroach Pig slashes); in plain text R or b.
func (t *roadsText) mark(k roads.Kind, c roads.Colour) string {
	if !t.tty {
		return c.Letter()
	}
	switch k {
	case roads.BigEyeBoy:
		return "○"
	case roads.SmallRoad:
		return "●"
	}
	return "╱"
}

func (t *roadsText) stats(s roads.Stats) {
	pct := func(sh roads.Share) string { return fmt.Sprintf("%d (%.1f%%)", sh.Count, 100*sh.Float()) }
	left := "unknown"
	if s.CardsLeft != nil {
		left = fmt.Sprint(*s.CardsLeft)
	}
	fmt.Fprintf(t.w, "%d hands: Banker %s, Player %s, Tie %s\n", s.Hands, pct(s.Banker), pct(s.Player), pct(s.Tie))
	fmt.Fprintf(t.w, "Player pairs %s, Banker pairs %s, naturals %s; longest Banker %d, Player %d; cards left %s\n",
		pct(s.PlayerPairs), pct(s.BankerPairs), pct(s.Naturals), s.LongestBanker, s.LongestPlayer, left)
}

func (t *roadsText) ask(name string, a [3]roads.Colour) {
	parts := make([]string, len(a))
	for i, c := range a {
		text := "-"
		if c != roads.None {
			text = t.paint(c.String(), colourCode(c))
		}
		parts[i] = roads.Kinds[i].String() + " " + text
	}
	fmt.Fprintf(t.w, "%s: %s\n", name, strings.Join(parts, ", "))
}

// grid draws items on a 6-row grid, one fixed-width cell per display column, "." for empty
// cells, scrolled to the last t.width columns when set.
func (t *roadsText) grid(title string, items []item) {
	fmt.Fprintf(t.w, "\n%s\n", title)
	cols, w := 0, 1
	for _, it := range items {
		cols = max(cols, it.Column+1)
		w = max(w, utf8.RuneCountInString(it.text))
	}
	first := 0
	if t.width > 0 && cols > t.width {
		first = cols - t.width
	}
	rows := [roads.Rows][]string{}
	for r := range rows {
		rows[r] = make([]string, cols-first)
		for c := range rows[r] {
			rows[r][c] = pad(".", w)
		}
	}
	for _, it := range items {
		if it.Column >= first {
			rows[it.Row][it.Column-first] = t.paint(pad(it.text, w), it.colour)
		}
	}
	for _, r := range rows {
		fmt.Fprintln(t.w, strings.TrimRight(strings.Join(r, " "), " "))
	}
}

func pad(s string, w int) string {
	return s + strings.Repeat(" ", w-utf8.RuneCountInString(s))
}

func (t *roadsText) paint(s, colour string) string {
	if !t.tty {
		return s
	}
	return colour + s + ansiReset
}
