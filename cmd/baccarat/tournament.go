package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

func init() {
	register(&command{
		name:    "tournament",
		summary: "play a whole chip tournament with bots on a virtual clock (tournament run)",
		usage: `Usage: baccarat tournament run --config T.json [--bots N] [--seed S] [--json]

Plays a whole tournament (SPEC §5) as fast as the engine deals: N house bots register (bot1,
bot2, …, taking the strategies flat, martingale, random and dragon in turn; N is 1 to the
config's max_entrants, default 8), the schedule runs on a virtual clock, every session is
dealt at a table of its own from seeded shoes, and each hand's chip changes are reported to
the tournament. No server and no database: the same tournament and table engines the live
host runs. After each session it prints the table's standings and its chip account, which
balances:

  chips at the start + chips rebought = chips at the end + the house's net

and at the end the prizes, which add up to the pool. The same --seed plays the same
tournament. --json prints one object:

  {"tournament":"spring","game":"mbs-dragon","entrants":8,"pool":8000,
   "sessions":[{"round":1,"table":"t1","session":1,"hands":10,"chips_start":40000,"rebuys":0,
                "chips_end":41200,"house_net":-1200,
                "standings":[{"player":"bot3","chips":12400,"rank":1,"advances":true}, …]}, …],
   "prizes":[{"player":"bot3","rank":1,"amount":4800}, …]}

(money in minor units of the currency, chips in chips; "advances": went on to the next round).

The config is a tournament's (JSON). The times may be left out: registration then opens at
2026-01-01T00:00:00Z and the tournament starts an hour later. Durations are written "90s".
An example, three rounds of MBS Dragon:

  {"id":"spring","name":"Spring Cup","game":"mbs-dragon","currency":"EUR",
   "entry_fee":1000,"starting_chips":10000,"max_entrants":8,"table_size":4,"break":"1m",
   "stakes":{"min":100,"max":2000,"required":true},"dragon":true,
   "rounds":[{"hands":10,"advance":2},{"hands":10,"advance":2},{"hands":10}],
   "prizes":[6000,4000]}

  baccarat tournament run --config spring.json --bots 8 --seed 7
  baccarat tournament run --config spring.json --json | jq '.prizes'

Fields: id, name, game (mbs-tournament, rws-no-commission, mbs-dragon), currency, entry_fee,
guarantee, starting_chips, registration_opens, registration_closes, start, min_entrants,
max_entrants, table_size, break, stakes {min, max, required}, rounds [{hands | duration |
sessions [{hands | duration}], advance, advance_overall, carry_chips, stakes}], rebuy {max,
price, chips, until {round, session, hand}}, prizes (basis points, summing to 10000),
dragon. The final round must be one table whatever the entries. Bets follow the stakes:
every wager at least the minimum, a player's stakes on one hand at most the maximum (Dragon
bets apart), and with "required" a player without a wager has the minimum placed on Banker.
A bad config is refused with the field at fault (exit 2).

A tournament of thousands of entrants takes a while. Ctrl-C (or SIGTERM) stops it: the
sessions already printed stay, it says how far it got (with --json nothing is printed: the
object is written at the end) and exits 130. With --json on a terminal, stderr shows how
many sessions have been played.
`,
		run: runTournament,
	})
}

// tournamentEpoch is when registration opens in a config that gives no times.
var tournamentEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func runTournament(ctx context.Context, e *env, args []string) int {
	c := commands["tournament"]
	if len(args) == 0 || args[0] != "run" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprint(e.stdout, c.usage)
			return 0
		}
		fmt.Fprint(e.stderr, "baccarat tournament: say what to do: baccarat tournament run --config T.json (--help for more)\n")
		return 2
	}
	fs := newFlags(e, c)
	path := fs.String("config", "", "the tournament's configuration (JSON, see above)")
	bots := fs.Int("bots", 8, "house bots that register (the entrants): 1 to the config's max_entrants")
	seed := fs.Uint64("seed", 1, "seed of the seating, the shoes and the bots")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if code, ok := parseFlags(fs, args[1:]); !ok {
		return code
	}
	cfg, err := readTournamentConfig(*path)
	if err == nil && (*bots < 1 || *bots > cfg.MaxEntrants) {
		err = baccarat.Errorf(baccarat.CodeBadRequest, "--bots %d: give 1 to max_entrants (%d)", *bots, cfg.MaxEntrants)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "baccarat tournament: %s [%s]\n", err, baccarat.ErrorCode(err))
		return 2
	}
	return playTournament(ctx, e, cfg, tabletop.Options{Bots: tabletop.Bots("bot", *bots), Seed: *seed}, *asJSON)
}

// playTournament plays it and prints it: as text, each session as it ends, or as one JSON
// object at the end. When ctx is done (Ctrl-C, SIGTERM) it says how far it got.
func playTournament(ctx context.Context, e *env, cfg tournament.Config, opt tabletop.Options, asJSON bool) int {
	played := &sessionCount{}
	var text *textReport
	if !asJSON {
		text = &textReport{w: e.stdout, cfg: cfg}
		text.header(len(opt.Bots))
		opt.OnSession = played.then(text.session)
	} else {
		opt.OnSession = played.then(played.progress(e))
	}
	res, err := tabletop.Run(ctx, cfg, opt)
	played.done()
	if err != nil {
		return failed(ctx, e, "tournament", err, played.sofar(asJSON))
	}
	if asJSON {
		return printJSON(e, tournamentJSON(res))
	}
	text.end(res)
	return 0
}

// sessionCount follows a tournament run's sessions, for the line that says how far a run
// that was stopped got.
type sessionCount struct {
	n, round int
	clear    func() // clears a progress line on stderr
}

// then counts a session, then passes it on to next (when there is one).
func (c *sessionCount) then(next func(tabletop.SessionResult)) func(tabletop.SessionResult) {
	return func(s tabletop.SessionResult) {
		c.n, c.round = c.n+1, s.Round
		if next != nil {
			next(s)
		}
	}
}

func (c *sessionCount) done() {
	if c.clear != nil {
		c.clear()
	}
}

func (c *sessionCount) sofar(asJSON bool) func() string {
	return func() string {
		where := "before any session ended"
		if c.n > 0 {
			where = fmt.Sprintf("after %d sessions (the last in round %d)", c.n, c.round)
		}
		if asJSON {
			return where + ": the tournament did not finish, and --json prints nothing of part of one"
		}
		return where + ": the tournament did not finish (no prizes)"
	}
}

// progress says on stderr, when it is a terminal, how many sessions have been played (with
// --json, which prints nothing until the end; done clears the line); nil otherwise.
func (c *sessionCount) progress(e *env) func(tabletop.SessionResult) {
	f, ok := e.stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	c.clear = func() { fmt.Fprint(f, "\r\033[K") }
	return func(s tabletop.SessionResult) {
		fmt.Fprintf(f, "\r\033[Kround %d: %d sessions played", s.Round, c.n)
	}
}

// readTournamentConfig reads a tournament's configuration strictly (no unknown fields),
// fills the times when none are given, and checks it as the tournament does.
func readTournamentConfig(path string) (tournament.Config, error) {
	var cfg tournament.Config
	if path == "" {
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "--config is required: a tournament's configuration (JSON); see --help for an example")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "--config %s cannot be read: %v", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "%s: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "%s: more than one JSON value: give one object", path)
	}
	if cfg.RegistrationOpens.IsZero() && cfg.RegistrationCloses.IsZero() && cfg.Start.IsZero() {
		cfg.RegistrationOpens = tournamentEpoch
		cfg.RegistrationCloses = tournamentEpoch.Add(time.Hour)
		cfg.Start = cfg.RegistrationCloses
	}
	norm, _, err := cfg.Normalize()
	if err != nil {
		return cfg, baccarat.Errorf(baccarat.ErrorCode(err), "%s: %s", path, strings.TrimPrefix(err.Error(), string(baccarat.ErrorCode(err))+": "))
	}
	return norm, nil
}

// The JSON of tournament run: exactly the fields its help shows.
type runJSON struct {
	Tournament string           `json:"tournament"`
	Game       string           `json:"game"`
	Entrants   int              `json:"entrants"`
	Pool       baccarat.Money   `json:"pool"`
	Cancelled  string           `json:"cancelled,omitempty"`
	Sessions   []runSessionJSON `json:"sessions"`
	Prizes     []tabletop.Prize `json:"prizes"`
}

type runSessionJSON struct {
	Round      int               `json:"round"`
	Table      string            `json:"table"`
	Session    int               `json:"session"`
	Hands      int               `json:"hands"`
	ChipsStart baccarat.Money    `json:"chips_start"`
	Rebuys     baccarat.Money    `json:"rebuys"`
	ChipsEnd   baccarat.Money    `json:"chips_end"`
	HouseNet   baccarat.Money    `json:"house_net"`
	Standings  []runStandingJSON `json:"standings"`
}

type runStandingJSON struct {
	Player   string         `json:"player"`
	Chips    baccarat.Money `json:"chips"`
	Rank     int            `json:"rank"`
	Advances bool           `json:"advances"`
}

func tournamentJSON(res *tabletop.Result) runJSON {
	out := runJSON{Tournament: res.Tournament, Game: res.Game, Entrants: res.Entrants, Pool: res.Pool,
		Cancelled: res.Cancelled, Sessions: []runSessionJSON{}, Prizes: res.Prizes}
	for _, s := range res.Sessions {
		js := runSessionJSON{Round: s.Round, Table: s.Table, Session: s.Session, Hands: s.Hands, ChipsStart: s.ChipsStart,
			Rebuys: s.Rebuys, ChipsEnd: s.ChipsEnd, HouseNet: s.HouseNet, Standings: []runStandingJSON{}}
		for _, st := range s.Standings {
			js.Standings = append(js.Standings, runStandingJSON{Player: st.Player, Chips: st.Chips, Rank: st.Rank, Advances: st.Advances})
		}
		out.Sessions = append(out.Sessions, js)
	}
	return out
}

func printJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	if err := enc.Encode(v); err != nil {
		return fail(e, "tournament", err)
	}
	return 0
}

// textReport prints a tournament as it is played.
type textReport struct {
	w   io.Writer
	cfg tournament.Config
}

func (r *textReport) chips(m baccarat.Money) string {
	return baccarat.FormatMoney(m, string(ledger.Chips(r.cfg.ID)))
}

// count writes chips as a plain number, the sign a true minus.
func (r *textReport) count(m baccarat.Money) string {
	if m < 0 {
		return "−" + baccarat.FormatAmount(-m, 0)
	}
	return baccarat.FormatAmount(m, 0)
}

func (r *textReport) money(m baccarat.Money) string { return baccarat.FormatMoney(m, r.cfg.Currency) }

func (r *textReport) header(bots int) {
	name := r.cfg.Game
	if g, err := games.ByID(r.cfg.Game); err == nil {
		name = g.Name
	}
	fmt.Fprintf(r.w, "%s (%s): %s, %d bots, entry %s, %s each\n", r.cfg.Name, r.cfg.ID, name, bots,
		r.money(r.cfg.EntryFee), r.chips(r.cfg.StartingChips))
	fmt.Fprintln(r.w, "(advances: went on to the next round, or in an advancing place while the round is still being played)")
}

func (r *textReport) session(s tabletop.SessionResult) {
	fmt.Fprintf(r.w, "\nRound %d, table %s, session %d: %d hands", s.Round, s.Table, s.Session, s.Hands)
	if s.Voided > 0 {
		fmt.Fprintf(r.w, " (%d voided)", s.Voided)
	}
	fmt.Fprintf(r.w, "\n  chips: %s at the start + %s rebought = %s at the end + %s the house's net\n",
		r.count(s.ChipsStart), r.count(s.Rebuys), r.count(s.ChipsEnd), r.count(s.HouseNet))
	tw := tabwriter.NewWriter(r.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, st := range s.Standings {
		mark := ""
		switch {
		case st.Eliminated:
			mark = "eliminated"
		case st.Advances:
			mark = "advances"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t %s\n", st.Rank, st.Player, r.count(st.Chips), mark)
	}
	_ = tw.Flush()
}

func (r *textReport) end(res *tabletop.Result) {
	if res.Cancelled != "" {
		fmt.Fprintf(r.w, "\nCancelled: %s; every fee refunded.\n", res.Cancelled)
		return
	}
	fmt.Fprintf(r.w, "\nFinished: %d entrants, pool %s\n", res.Entrants, r.money(res.Pool))
	tw := tabwriter.NewWriter(r.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, p := range res.Prizes {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t\n", p.Rank, p.Player, r.money(p.Amount))
	}
	_ = tw.Flush()
}
