package main

import (
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
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/sim"
)

func init() {
	register(&command{
		name:    "simulate",
		summary: "Monte Carlo over real shuffled shoes: every bet's return with a 99% interval",
		usage: `Usage: baccarat simulate --game ID [--decks N] [--shoes K] [--cut-card C] [--seed S]
                         [--workers W] [--sessions 10,20,...] [--json]

Shuffles and deals K complete shoes (to the cut card, a new shoe after each), settles every
bet of the game on every coup, and prints each bet's realised return with a 99% confidence
interval (shoes are the batches: coups of one shoe share its cards) beside the exact value
for a fresh shoe. For Dragon games it also gives the distribution of the longest Banker,
Player and either streak over sessions of each length, beside the exact chain's.
Runs on every core; the same seed gives the same report whatever the number of cores.
Bet on Baccarat's decimal bets are paid at the first-round odds of a fresh shoe.

  --decks     decks per shoe, within the game's range (SPEC §2; see 'baccarat games')
  --shoes     1 to 1000000000 (default: 100000)
  --cut-card  cards behind the cut card, 0 to the shoe's cards less 6 (default: 14; Bet on
              Baccarat changes the shoe when fewer than 40 cards remain, BoB 3.4, that is 39)
  --workers   goroutines, 1 to 128 (default: one per core)
  --sessions  Dragon session lengths in hands, up to 20 of them, each 1 to 1000 (the exact
              chain beside each takes time growing with its square); games with Dragon bets
              only

On a terminal a progress bar runs on stderr. Ctrl-C (or SIGTERM) stops a run: it says how
many shoes were dealt, reports nothing from part of a run, and exits 130. Exit status: 0
done; 1 it failed; 2 the command line is wrong; 130 stopped.

  baccarat simulate --game mbs-tiger --shoes 100000
  baccarat simulate --game mbs-dragon --sessions 30,70 --seed 7 --json
`,
		run: runSimulate,
	})
}

type simJSON struct {
	Game        string            `json:"game"`
	Decks       int               `json:"decks"`
	Shoes       int               `json:"shoes"`
	CutCard     int               `json:"cut_card"`
	Seed        uint64            `json:"seed"`
	Hands       uint64            `json:"hands"`
	Voids       uint64            `json:"voids"`
	Cards       uint64            `json:"cards"`
	Seconds     float64           `json:"seconds"`
	HandsPerSec float64           `json:"hands_per_second"`
	Workers     int               `json:"workers"`
	Events      map[string]uint64 `json:"events"`
	Bets        []simBetJSON      `json:"bets"`
	Sessions    []simSessionJSON  `json:"sessions,omitempty"`
}

type simBetJSON struct {
	Bet      string   `json:"bet"`
	Return   float64  `json:"return"`
	CI99     float64  `json:"ci99"`
	Exact    float64  `json:"exact_return"`
	Within   bool     `json:"within_ci"`
	Wins     uint64   `json:"wins"`
	Pushes   uint64   `json:"pushes"`
	Losses   uint64   `json:"losses"`
	TierWins []uint64 `json:"tier_wins"`
}

type simSessionJSON struct {
	Hands    int                   `json:"hands"`
	Sessions uint64                `json:"sessions"`
	Bets     []simDragonJSON       `json:"bets"`
	Longest  map[string][8]float64 `json:"longest"`
	Model    map[string][8]float64 `json:"model"`
	Counts   map[string][8]uint64  `json:"counts"`
}

type simDragonJSON struct {
	Bet    string  `json:"bet"`
	Return float64 `json:"return"`
	CI99   float64 `json:"ci99"`
	Exact  float64 `json:"exact_return"`
}

func runSimulate(ctx context.Context, e *env, args []string) int {
	c := commands["simulate"]
	fs := newFlags(e, c)
	gameID := fs.String("game", "", "game id (see 'baccarat games')")
	decks := fs.Int("decks", 0, "decks per shoe (default: the game's)")
	shoes := fs.Int("shoes", 100000, "shoes to deal")
	cut := fs.Int("cut-card", -1, "cards behind the cut card (default: the game's rule)")
	seed := fs.Uint64("seed", 1, "seed: the same seed gives the same report")
	workers := fs.Int("workers", 0, "goroutines (default: every core)")
	sessions := fs.String("sessions", "", "Dragon session lengths in hands (default 10,20,...,80)")
	asJSON := fs.Bool("json", false, "print JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	cfg := sim.Config{Decks: *decks, Shoes: *shoes, CutCard: *cut, Seed: *seed, Workers: *workers}
	if err := simConfig(fs, *gameID, *sessions, &cfg); err != nil {
		return usageError(e, c.name, err)
	}
	return simulateRun(ctx, e, cfg, *asJSON)
}

// simulateRun deals cfg's shoes and prints what they returned beside the exact values; when
// ctx is done (Ctrl-C, SIGTERM) it says how far it got and prints no report.
func simulateRun(ctx context.Context, e *env, cfg sim.Config, asJSON bool) int {
	name := "simulate"
	a, err := odds.Analyze(ctx, baccarat.NewCounts(cfg.Decks), nil)
	if err != nil {
		return failed(ctx, e, name, err, func() string { return "before the first shoe: nothing printed" })
	}
	sheet := a.Sheet(cfg.Game, nil)
	cfg.Odds = map[string]baccarat.Odds{}
	for _, b := range sheet.Bets {
		if b.Price != nil {
			cfg.Odds[b.Bet.ID] = max(b.Price.Odds, 100)
		}
	}
	prog := startProgress(e, &cfg)
	start := time.Now()
	rep, err := sim.Run(ctx, cfg)
	elapsed := time.Since(start)
	prog.stop()
	if err != nil {
		return failed(ctx, e, name, err, prog.sofar)
	}
	out, err := simOutput(ctx, rep, a, sheet, elapsed, cfg.Workers)
	if err != nil {
		return failed(ctx, e, name, err, func() string { return "while working out the exact Dragon chains: nothing printed" })
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return 0
	}
	printSimulation(e.stdout, out)
	return 0
}

// The ranges of simulate's counts (its help states them). maxSimShoes keeps a run to minutes
// rather than days, and far from the int overflow that made sim panic on the largest counts;
// each session length costs an exact chain whose time grows with its square.
const (
	maxSimShoes       = 1_000_000_000
	maxSessionLengths = 20
)

// simConfig checks the flags and completes cfg: a game that exists, --decks within its range
// (SPEC §2), --shoes 1 to maxSimShoes, --cut-card (when given) from 0 to the shoe's cards less
// the six a round may need, --workers (when given) 1 to maxWorkers, --sessions only for a game
// with Dragon bets, at most maxSessionLengths of 1 to maxSessionHands. A flag that is not
// given takes its default; one that is given is never replaced by it.
func simConfig(fs *flag.FlagSet, gameID, sessions string, cfg *sim.Config) error {
	g, err := gameFlag(gameID)
	if err != nil {
		return err
	}
	cfg.Game = g
	if cfg.Decks, err = gameDecks(fs, g, cfg.Decks); err != nil {
		return err
	}
	if cfg.Shoes < 1 || cfg.Shoes > maxSimShoes {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--shoes %d: simulate 1 shoe or more, at most %d (run several seeds for more)", cfg.Shoes, maxSimShoes)
	}
	if most := cfg.Decks*baccarat.NumCards - 6; given(fs, "cut-card") && (cfg.CutCard < 0 || cfg.CutCard > most) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--cut-card %d: cards behind the cut card are 0 to %d in a shoe of %d decks (a round may need 6 cards)",
			cfg.CutCard, most, cfg.Decks)
	}
	if given(fs, "workers") && (cfg.Workers < 1 || cfg.Workers > maxWorkers) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--workers %d: 1 or more goroutines, at most %d (leave it out for one per core)", cfg.Workers, maxWorkers)
	}
	if given(fs, "sessions") && len(g.DragonBets()) == 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--sessions: %s has no Dragon bets, so no sessions to count (mbs-dragon has)", g.ID)
	}
	cfg.Sessions, err = parseSessions(sessions)
	return err
}

func parseSessions(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	fields := strings.Split(s, ",")
	if len(fields) > maxSessionLengths {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--sessions: %d lengths; give at most %d", len(fields), maxSessionLengths)
	}
	var out []int
	for _, f := range fields {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > maxSessionHands {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--sessions %q: session lengths are whole numbers of hands, 1 to %d", f, maxSessionHands)
		}
		out = append(out, n)
	}
	return out, nil
}

// progress follows a run's shoes: sofar says how far it got when it stopped, and on a
// terminal a bar is drawn on stderr while it lasts.
type progress struct {
	total int
	done  atomic.Int64
	stop  func() // stops the bar and clears its line
}

func (p *progress) sofar() string {
	return fmt.Sprintf("after %d of %d shoes: nothing is reported from part of a run", p.done.Load(), p.total)
}

// startProgress follows cfg's run (it sets cfg.Progress) and draws a progress bar on stderr
// while it lasts, only when stderr is a terminal.
func startProgress(e *env, cfg *sim.Config) *progress {
	p := &progress{total: cfg.Shoes, stop: func() {}}
	cfg.Progress = func(shoes int) { p.done.Store(int64(shoes)) }
	f, ok := e.stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return p
	}
	quit, finished := make(chan struct{}), make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				fmt.Fprint(e.stderr, "\r\033[K")
				return
			case <-tick.C:
				n := p.done.Load()
				frac := float64(n) / float64(cfg.Shoes)
				bar := strings.Repeat("#", int(30*frac)) + strings.Repeat(".", 30-int(30*frac))
				rate := float64(n) / time.Since(start).Seconds()
				fmt.Fprintf(e.stderr, "\r[%s] %5.1f%%  %d/%d shoes  %.0f shoes/s", bar, 100*frac, n, cfg.Shoes, rate)
			}
		}
	}()
	p.stop = func() { close(quit); <-finished }
	return p
}

func simOutput(ctx context.Context, rep *sim.Report, a *odds.Analysis, sheet *odds.Sheet, elapsed time.Duration, workers int) (*simJSON, error) {
	out := &simJSON{Game: rep.Game, Decks: rep.Decks, Shoes: rep.Shoes, CutCard: rep.CutCard, Seed: rep.Seed,
		Hands: rep.Hands, Voids: rep.Voids, Cards: rep.Cards, Seconds: elapsed.Seconds(), Workers: workers,
		Events: map[string]uint64{"player_win": rep.PlayerWins, "banker_win": rep.BankerWins, "tie": rep.Ties,
			"cards_4": rep.Cards4, "cards_5": rep.Cards5, "cards_6": rep.Cards6}}
	if out.Workers <= 0 {
		out.Workers = runtime.GOMAXPROCS(0)
	}
	if elapsed > 0 {
		out.HandsPerSec = float64(rep.Hands) / elapsed.Seconds()
	}
	for _, b := range rep.Bets {
		exact := sheet.Bet(b.Bet).Return
		out.Bets = append(out.Bets, simBetJSON{Bet: b.Bet, Return: b.Return, CI99: b.CI99, Exact: exact,
			Within: math.Abs(b.Return-exact) <= b.CI99, Wins: b.Wins, Pushes: b.Pushes, Losses: b.Losses, TierWins: b.TierWins})
	}
	dragons := sheet.Game.DragonBets()
	for _, sr := range rep.Sessions {
		sj := simSessionJSON{Hands: sr.Hands, Sessions: sr.Sessions, Longest: map[string][8]float64{},
			Model: map[string][8]float64{}, Counts: map[string][8]uint64{}}
		for k, b := range dragons {
			ds, err := a.Dragon(ctx, b, sr.Hands)
			if err != nil {
				return nil, err
			}
			var got, model [8]float64
			for l := range got {
				got[l] = float64(sr.Longest[k][l]) / float64(max(sr.Sessions, 1))
				model[l] = ds.Longest[l].Float64()
			}
			sj.Longest[b.ID], sj.Model[b.ID], sj.Counts[b.ID] = got, model, sr.Longest[k]
			ret, ci := dragonReturn(b, sr.Longest[k], sr.Sessions)
			sj.Bets = append(sj.Bets, simDragonJSON{Bet: b.ID, Return: ret, CI99: ci, Exact: ds.Return})
		}
		out.Sessions = append(out.Sessions, sj)
	}
	return out, nil
}

// dragonReturn is a Dragon bet's mean net result per session from the distribution of the
// longest streak, with a 99% interval (sessions taken as independent).
func dragonReturn(b *games.Bet, longest [8]uint64, sessions uint64) (mean, ci float64) {
	if sessions == 0 {
		return 0, 0
	}
	var s, s2 float64
	for l, n := range longest {
		net := -1.0
		if t := games.TierFor(l); t >= 0 {
			net = float64(b.Tiers[t].Pays.Num) / float64(max(b.Tiers[t].Pays.Den, 1))
		}
		s += float64(n) * net
		s2 += float64(n) * net * net
	}
	k := float64(sessions)
	mean = s / k
	if sessions < 2 {
		return mean, math.Inf(1)
	}
	v := (s2 - k*mean*mean) / (k - 1)
	return mean, sim.Z99 * math.Sqrt(max(v, 0)/k)
}

func printSimulation(w io.Writer, s *simJSON) {
	fmt.Fprintf(w, "%s: %d shoes of %d decks, %d cards behind the cut card, seed %d\n", s.Game, s.Shoes, s.Decks, s.CutCard, s.Seed)
	fmt.Fprintf(w, "%d coups (%d void), %d cards, in %.2f s on %d cores: %.1fM coups/s\n\n",
		s.Hands, s.Voids, s.Cards, s.Seconds, s.Workers, s.HandsPerSec/1e6)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "BET\tREALISED RETURN\t99% CI\tEXACT (fresh shoe)\t\t")
	for _, b := range s.Bets {
		mark := "ok"
		if !b.Within {
			mark = "outside"
		}
		fmt.Fprintf(tw, "%s\t%+.4f%%\t±%.4f%%\t%+.4f%%\t%s\t\n", b.Bet, 100*b.Return, 100*b.CI99, 100*b.Exact, mark)
	}
	_ = tw.Flush()
	for _, sj := range s.Sessions {
		fmt.Fprintf(w, "\nSessions of %d hands (%d sessions): longest streak, realised / exact chain\n", sj.Hands, sj.Sessions)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "BET\t≤4\t5 (Ruby)\t6 (Golden)\t7+ (Royal)\tRETURN\t99% CI\tEXACT\t")
		for i, b := range sj.Bets {
			got, model := sj.Longest[b.Bet], sj.Model[b.Bet]
			cell := func(lo, hi int) string {
				var g, m float64
				for l := lo; l <= hi; l++ {
					g, m = g+got[l], m+model[l]
				}
				return fmt.Sprintf("%.4f / %.4f", g, m)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%+.4f\t±%.4f\t%+.4f\t\n", sj.Bets[i].Bet, cell(0, 4), cell(5, 5), cell(6, 6),
				cell(7, 7), b.Return, b.CI99, b.Exact)
		}
		_ = tw.Flush()
	}
}
