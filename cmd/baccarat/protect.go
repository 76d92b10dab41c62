package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/protect"
	"github.com/tablehouse/baccarat/sim"
)

func init() {
	register(&command{
		name:    "protect",
		summary: "game protection: what card counting wins on every fixed-odds bet, and the safe cut card",
		usage: `Usage: baccarat protect --game ID [--decks N] [--cut-card C[,C...]]
                        [--shoes N --seed S | --orders FILE] [--json] [--positions]
                        [--svg FILE] [--safe X] [--workers W]

Deals real shoes by the Table of Play and, before every hand, computes from the cards left
the exact expected value per unit staked of every fixed-odds bet of the game (the same count
as 'baccarat analyze --shoe' of those cards). For each bet and cut card it reports:

  perfect counter  the share of hands where the bet's expectation is positive, the mean edge
                   on those hands, and the win per shoe of a player who bets one unit then only
  practical count  integer tags per rank from the effect of removal, a true count (running
                   count per deck left), the best threshold, the win per shoe of a counter who
                   bets one unit when the true count reaches it, and the betting correlation
                   (the correlation of the tags with the effects of removal)
  safe cut card    the fewest cards behind the cut card that keep the perfect counter's win
                   per shoe below --safe units

Wins per shoe are expectations: the sum, over the hands bet, of the bet's exact expectation
there, per shoe dealt. Bet on Baccarat's prices follow the cards: its bets are valued at the
odds its first betting round offers from the same cards, so they are never positive (a check).
Dragon bets (mbs-dragon) settle on a session, not on a hand: they are left out.

  --decks     decks per shoe, within the game's range (SPEC §2; see 'baccarat games')
  --shoes     seeded shoes, 1 to 1000000 (default: 10000)
  --cut-card  cards behind the cut card, as 'baccarat simulate' counts them: a round starts
              while more cards than that are left, and is completed (default: 14; Bet on
              Baccarat 39, BoB 3.4). Up to 16, comma-separated, report each on the same shoes.
              5 to the shoe's cards less 6, so every hand starts with six cards or more.
  --orders    shoes to audit instead of seeded ones: one shoe a line, its cards in deal order
              separated by commas (Ah,7d,Ts,...); a line is the whole shoe; # starts a comment;
              at most 1000000 shoes
  --positions with --json, every hand position: its shoe and hand, the cards left and their
              13 counts A..K (what analyze --shoe reads), and every bet's expectation; kept in
              memory, so for at most 10000 shoes
  --workers   goroutines, 1 to 128 (default: one per core)
  --svg       draw, per bet, the expectation against the cards left (median and 5-95% band
              across shoes, the zero line, the cut cards) into FILE
  --json      one object per cut card (an array of them for several cut cards):
              {"game","decks","cut_card","shoes","hands","bets":[{"bet","positive_share",
              "mean_edge_when_positive","perfect_win_per_shoe","count":{"tags","threshold",
              "win_per_shoe","betting_correlation"},"safe_cut_card"}],"positions":[...]}
              threshold is null when no threshold wins (the counter never bets);
              safe_cut_card is null when no cut card keeps the bet safe

Runs on every core; the same seed, or the same orders, give the same report whatever the
number of cores. On a terminal a progress bar runs on stderr; Ctrl-C (or SIGTERM) stops a
run, says how many shoes were dealt and reports nothing from part of a run. Exit status: 0
done; 2 the command line is wrong (no or an unknown game, --decks outside the game's range,
a cut card outside the shoe, a count outside its range, an orders file that cannot be read
or holds too many shoes, flags that do not go together); 1 what it holds cannot be used (a
bad card in the orders, a shoe the decks cannot contain); 130 stopped.

  baccarat protect --game mbs-tiger --shoes 20000
  baccarat protect --game punto-banco --cut-card 14,26,52 --svg punto-banco.svg
  baccarat protect --game mbs-tournament --orders shoes.txt --json --positions
`,
		run: runProtect,
	})
}

type protectOpts struct {
	gameID, cuts, orders, svg string
	decks, shoes, workers     int
	seed                      uint64
	safe                      float64
	asJSON, positions         bool
}

func runProtect(ctx context.Context, e *env, args []string) int {
	c := commands["protect"]
	fs := newFlags(e, c)
	var o protectOpts
	fs.StringVar(&o.gameID, "game", "", "game id (see 'baccarat games')")
	fs.IntVar(&o.decks, "decks", 0, "decks per shoe (default: the game's)")
	fs.StringVar(&o.cuts, "cut-card", "", "cards behind the cut card, comma-separated for several (default: the game's rule)")
	fs.IntVar(&o.shoes, "shoes", 10000, "seeded shoes to deal")
	fs.Uint64Var(&o.seed, "seed", 1, "seed: the same seed gives the same report")
	fs.StringVar(&o.orders, "orders", "", "file of shoes in deal order, one a line, instead of seeded shoes")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON")
	fs.BoolVar(&o.positions, "positions", false, "with --json: every hand position")
	fs.StringVar(&o.svg, "svg", "", "draw the expectations against the cards left into this SVG file")
	fs.Float64Var(&o.safe, "safe", protect.DefaultSafe, "win per shoe, in units, below which a cut card is safe")
	fs.IntVar(&o.workers, "workers", 0, "goroutines (default: every core)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	cfg, err := protectConfig(fs, &o)
	if err != nil {
		return usageError(e, c.name, err)
	}
	if o.orders != "" {
		f, err := openInput("--orders file", o.orders)
		if err != nil {
			return usageError(e, c.name, err)
		}
		defer f.Close()
		if cfg.Shoes, err = countOrders(f); err != nil {
			return fail(e, c.name, err)
		}
		if err := checkProtectShoes(fmt.Sprintf("the --orders file holds %d shoes", cfg.Shoes), cfg.Shoes, o.positions); err != nil {
			return usageError(e, c.name, err)
		}
		cfg.Orders = protect.ReadOrders(f)
	}
	return protectRun(ctx, e, &o, cfg)
}

// The ranges of protect's counts (its help states them). A shoe is about 80 positions, each
// valued exactly, so maxProtectShoes is many minutes on a few cores; --positions keeps every
// position in memory and prints it, hence its own bound. Each cut card has tallies of its own
// in every worker.
const (
	maxProtectShoes  = 1_000_000
	maxPositionShoes = 10_000
	maxCutCards      = 16
)

// checkProtectShoes refuses more shoes than a run takes; given says how they were given
// ("--shoes 20000").
func checkProtectShoes(given string, shoes int, positions bool) error {
	if shoes > maxProtectShoes {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s: deal at most %d shoes a run (split them over several runs)", given, maxProtectShoes)
	}
	if positions && shoes > maxPositionShoes {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s: --positions keeps every position of at most %d shoes (leave it out, or give fewer shoes)", given, maxPositionShoes)
	}
	return nil
}

// protectConfig checks the command line (gameFlag, gameDecks and the house's other checks:
// a usage error, exit 2, for anything wrong in it) and turns it into a configuration.
func protectConfig(fs *flag.FlagSet, o *protectOpts) (protect.Config, error) {
	bad := func(format string, args ...any) (protect.Config, error) {
		return protect.Config{}, baccarat.Errorf(baccarat.CodeBadRequest, format, args...)
	}
	g, err := gameFlag(o.gameID)
	if err != nil {
		return protect.Config{}, err
	}
	cfg := protect.Config{Game: g, Shoes: o.shoes, Seed: o.seed, Workers: o.workers, Safe: o.safe,
		Positions: o.positions, Bands: o.svg != ""}
	if cfg.Decks, err = gameDecks(fs, g, o.decks); err != nil {
		return protect.Config{}, err
	}
	switch {
	case o.orders != "" && (given(fs, "shoes") || given(fs, "seed")):
		return bad("--orders gives the shoes: leave out --shoes and --seed")
	case o.orders == "" && o.shoes < 1:
		return bad("--shoes %d: deal 1 shoe or more", o.shoes)
	case o.positions && !o.asJSON:
		return bad("--positions adds every position to the JSON: use it with --json")
	case !(o.safe > 0) || math.IsInf(o.safe, 1):
		return bad("--safe %v: a win per shoe above 0, in units (0.01)", o.safe)
	case given(fs, "workers") && (o.workers < 1 || o.workers > maxWorkers):
		return bad("--workers %d: 1 or more goroutines, at most %d (leave it out for one per core)", o.workers, maxWorkers)
	}
	if o.orders == "" {
		if err := checkProtectShoes(fmt.Sprintf("--shoes %d", o.shoes), o.shoes, o.positions); err != nil {
			return protect.Config{}, err
		}
	}
	if !given(fs, "cut-card") {
		return cfg, nil
	}
	most := cfg.Decks*baccarat.NumCards - 6
	cuts := strings.Split(o.cuts, ",")
	if len(cuts) > maxCutCards {
		return bad("--cut-card: %d cut cards; give at most %d", len(cuts), maxCutCards)
	}
	for _, f := range cuts {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < protect.MinCutCard || n > most {
			return bad("--cut-card %q: cards behind the cut card are %d to %d in a shoe of %d decks, comma-separated for several (14,26)",
				strings.TrimSpace(f), protect.MinCutCard, most, cfg.Decks)
		}
		cfg.CutCards = append(cfg.CutCards, n)
	}
	return cfg, nil
}

// countOrders counts the shoes of an orders file (for the progress bar) and rewinds it.
func countOrders(f *os.File) (int, error) {
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" && !strings.HasPrefix(s, "#") {
			n++
		}
	}
	_, err := f.Seek(0, io.SeekStart)
	return n, err
}

func protectRun(ctx context.Context, e *env, o *protectOpts, cfg protect.Config) int {
	name := "protect"
	shoes := sim.Config{Shoes: max(cfg.Shoes, 1)}
	prog := startProgress(e, &shoes)
	cfg.Progress = shoes.Progress
	start := time.Now()
	rep, err := protect.Run(ctx, cfg)
	elapsed := time.Since(start)
	prog.stop()
	if err != nil {
		return failed(ctx, e, name, err, prog.sofar)
	}
	if o.svg != "" {
		var b bytes.Buffer
		if err := rep.WriteSVG(&b); err != nil {
			return fail(e, name, err)
		}
		if err := os.WriteFile(o.svg, b.Bytes(), 0o644); err != nil {
			return fail(e, name, baccarat.Errorf(baccarat.CodeBadRequest, "--svg: %v", err))
		}
	}
	if o.asJSON {
		return writeProtectJSON(e, rep, o.positions)
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	printProtect(e.stdout, rep, cfg.Seed, o.orders, elapsed, workers)
	return 0
}

// writeProtectJSON prints one object per cut card, an array of them for several; indented,
// except with every position (one line then: it is long).
func writeProtectJSON(e *env, rep *protect.Report, positions bool) int {
	var v any = rep.Cuts
	if len(rep.Cuts) == 1 {
		v = rep.Cuts[0]
	}
	enc := json.NewEncoder(e.stdout)
	if !positions {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return fail(e, "protect", err)
	}
	return 0
}

func printProtect(w io.Writer, rep *protect.Report, seed uint64, orders string, elapsed time.Duration, workers int) {
	source := fmt.Sprintf("seed %d", seed)
	if orders != "" {
		source = "shoes from " + orders
	}
	fmt.Fprintf(w, "%s: %d shoes of %d decks (%s); %d positions valued in %.2f s on %d cores, %.0f a second\n",
		rep.Game, rep.Shoes, rep.Decks, source, rep.Hands, elapsed.Seconds(), workers, float64(rep.Hands)/max(elapsed.Seconds(), 1e-9))
	for _, c := range rep.Cuts {
		fmt.Fprintf(w, "\nCut card with %d cards behind it: %d hands. Expectations per unit staked; wins in units per shoe.\n", c.CutCard, c.Hands)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "BET\tPOSITIVE\tEDGE WHEN +\tPERFECT WIN\t TAGS  A  2  3  4  5  6  7  8  9  T  J  Q  K\tCORR\tBET AT TC\tCOUNT WIN\tSAFE CUT\t")
		for _, b := range c.Bets {
			th := "never"
			if b.Count.Threshold != nil {
				th = fmt.Sprintf("≥ %+.2f", *b.Count.Threshold)
			}
			safe := "none"
			if b.SafeCutCard != nil {
				safe = strconv.Itoa(*b.SafeCutCard)
			}
			fmt.Fprintf(tw, "%s\t%.3f%%\t%+.3f%%\t%+.4f\t%s\t%.3f\t%s\t%+.4f\t%s\t\n", b.Bet, 100*b.PositiveShare,
				100*b.MeanEdgeWhenPositive, b.PerfectWinPerShoe, tagColumns(b.Count.Tags), b.Count.BettingCorrelation,
				th, b.Count.WinPerShoe, safe)
		}
		_ = tw.Flush()
	}
	fmt.Fprintf(w, "\nSAFE CUT: the fewest cards behind the cut card that keep the perfect counter below %g units a shoe (none: no depth does).\n", rep.Safe)
	fmt.Fprintln(w, "COUNT: add each card's tag as it is dealt; true count = running count / decks left; bet one unit from the threshold.")
	if g, _ := games.ByID(rep.Game); g != nil {
		if d := g.DragonBets(); len(d) > 0 {
			fmt.Fprintln(w, "Dragon bets settle on a session, not on a hand: left out.")
		}
		if g.Rules.BettingRounds > 1 {
			fmt.Fprintln(w, "Bet on Baccarat's odds follow the cards: valued at the first round's offer, never positive.")
		}
	}
}

func tagColumns(t protect.Tags) string {
	var b strings.Builder
	b.WriteString("     ")
	for _, v := range t {
		fmt.Fprintf(&b, " %+2d", v)
	}
	return strings.ReplaceAll(b.String(), "+0", " 0")
}
