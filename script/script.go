// Package script runs replay scripts against a table: one JSON command a line, every event
// and every refusal written back as a JSON line. It is how a disputed round is reproduced
// and how the rule scenarios are written down (testdata/scenarios). A script has no
// wallet to draw on, so the runner keeps a simple one per player and passes each wager
// what its player has left, as the live host passes a wallet's balance.
package script

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
)

// Options set up the table a script runs against. A script's first line may also be a
// config command: {"cmd":"config","game":"mbs-tiger","seed":7,...}.
type Options struct {
	Config table.Config
	// Seed, when set, makes new shoes seeded RNG shoes dealt with "deal"; without it shoes
	// are live and take "card" commands.
	Seed *uint64
	// AutoFund credits a player the first time they appear, unless a fund command for them
	// came first. 0 turns it off.
	AutoFund baccarat.Money
}

// DefaultAutoFund is what a script's players start with unless funded explicitly.
const DefaultAutoFund = 1_000_000_000

type config struct {
	table.Config
	Cmd      string          `json:"cmd"`
	Seed     *uint64         `json:"seed,omitempty"`
	AutoFund *baccarat.Money `json:"auto_fund,omitempty"`
}

// Refusal is a script line a table refused, as the replay output shows it.
type Refusal struct {
	Line    int           `json:"line"`
	Refused string        `json:"refused"`
	Code    baccarat.Code `json:"code"`
	Message string        `json:"message"`
}

// String shows a refusal for people.
func (r Refusal) String() string {
	return fmt.Sprintf("line %d: %s refused [%s]: %s", r.Line, r.Refused, r.Code, r.Message)
}

// Funded is the output of a fund line: the runner's wallet, not the table, holds money.
type Funded struct {
	Line    int            `json:"line"`
	Funded  string         `json:"funded"`
	Amount  baccarat.Money `json:"amount"`
	Balance baccarat.Money `json:"balance"`
}

// Run runs a replay script (one JSON command a line; blank lines and lines starting with #
// are skipped) against a fresh table and writes every event and every refusal as a JSON
// line. It returns the run (the table and the wallets), for callers that check its final
// state. A write that fails stops the run with that error.
func Run(r io.Reader, w io.Writer, opt Options) (*Result, error) {
	return run(r, w, opt, false)
}

// run is Run; slow decodes and writes every line with encoding/json, the reference the
// tests hold the fast decoder and writer to, byte for byte.
func run(r io.Reader, w io.Writer, opt Options, slow bool) (*Result, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	out := &writer{bw: bufio.NewWriterSize(w, 64<<10), slow: slow} // one write a block, not a line
	defer out.bw.Flush()
	dec := decoder{slow: slow}
	var run *runner
	var l lineCmd // one for every line: decode clears it
	line := 0
	for sc.Scan() && out.err == nil {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 || text[0] == '#' || bytes.HasPrefix(text, []byte("//")) {
			continue
		}
		if run == nil {
			var err error
			if run, err = start(string(text), opt, line, out); err != nil {
				return nil, err
			}
			if isConfig(string(text)) {
				continue
			}
		}
		if err := dec.decode(text, &l); err != nil {
			code := baccarat.ErrorCode(err)
			if code == baccarat.CodeInternal {
				code = baccarat.CodeBadRequest
			}
			out.refuse(Refusal{Line: line, Refused: l.Cmd, Code: code, Message: "not a command: " + err.Error()})
			continue
		}
		run.do(line, &l)
	}
	return finish(sc, out, run, opt)
}

// finish flushes the output and returns the run, or the first error of reading or writing.
func finish(sc *bufio.Scanner, out *writer, run *runner, opt Options) (*Result, error) {
	if err := out.bw.Flush(); err != nil && out.err == nil {
		out.err = err
	}
	if out.err != nil {
		return nil, out.err
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if run == nil {
		t, err := table.New(opt.Config)
		if err != nil {
			return nil, err
		}
		return &Result{Table: t, Wallets: map[string]baccarat.Money{}}, nil
	}
	return &run.Result, nil
}

func isConfig(text string) bool {
	var probe struct {
		Cmd string `json:"cmd"`
	}
	return json.Unmarshal([]byte(text), &probe) == nil && probe.Cmd == "config"
}

// Result is a finished run: the table, what each player has left, and all ever funded.
type Result struct {
	Table   *table.Table
	Wallets map[string]baccarat.Money
	Funded  baccarat.Money
}

type runner struct {
	Result
	src      baccarat.Source
	autoFund baccarat.Money
	out      *writer
	cmds     commands
	kinds    [256]struct { // the commands last named, by slot
		name string
		kind table.CommandType
	}
}

// kind is the line's command, l.kind() remembered for the name.
func (r *runner) kind(l *lineCmd) table.CommandType {
	if l.Cmd == "" {
		return table.CmdNone
	}
	k := &r.kinds[slot(l.Cmd)]
	if k.name != l.Cmd {
		k.name, k.kind = l.Cmd, l.kind()
	}
	return k.kind
}

func start(first string, opt Options, line int, out *writer) (*runner, error) {
	if opt.AutoFund == 0 {
		opt.AutoFund = DefaultAutoFund
	}
	if isConfig(first) {
		c := config{Config: opt.Config}
		dec := json.NewDecoder(strings.NewReader(first))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "line %d: bad config: %v", line, err)
		}
		opt.Config = c.Config
		if c.Seed != nil {
			opt.Seed = c.Seed
		}
		if c.AutoFund != nil {
			opt.AutoFund = *c.AutoFund
		}
	}
	t, err := table.New(opt.Config)
	if err != nil {
		return nil, err
	}
	r := &runner{Result: Result{Table: t, Wallets: map[string]baccarat.Money{}}, autoFund: opt.AutoFund, out: out}
	if opt.Seed != nil {
		r.src = baccarat.SeededSource(*opt.Seed)
	}
	return r, nil
}

func (r *runner) do(line int, l *lineCmd) {
	kind := r.kind(l)
	if kind == cmdFund {
		if l.Role != table.RoleNone && l.Role != table.RoleSystem {
			r.out.refuse(Refusal{Line: line, Refused: l.Cmd, Code: baccarat.CodeNotAuthorized, Message: "a " + l.Role.String() + " may not fund: only the system funds a script's players"})
			return
		}
		r.fund(line, l.Player, l.Amount)
		return
	}
	c, err := l.command(kind, &r.cmds)
	if err != nil {
		r.out.refuse(Refusal{Line: line, Refused: l.Cmd, Code: baccarat.ErrorCode(err), Message: err.Error()})
		return
	}
	// A negative number of decks makes no shoe to shuffle: the table refuses it as it
	// refuses any number outside the game's range.
	if s, ok := c.(*table.NewShoe); ok && s.Order == nil && r.src != nil && s.Decks >= 0 {
		r.seedShoe(s)
	}
	// The first shoe starts by itself; later ones need new_shoe (the dealer's job).
	if r.Table.ShoeNumber() == 0 && !r.Table.ShoeActive() && needsShoe(kind) {
		auto := &table.NewShoe{Header: table.Header{Reason: "auto"}}
		if r.src != nil {
			r.seedShoe(auto)
		}
		r.apply(line, auto, l.Cmd)
	}
	if p := l.Player; p != "" {
		if _, known := r.Wallets[p]; !known {
			r.fund(0, p, r.autoFund)
		}
	}
	if p, ok := c.(*table.Place); ok {
		r.preparePlace(p)
	}
	r.apply(line, c, l.Cmd)
}

// preparePlace gives a wager its player's money, and a Bet on Baccarat wager without odds
// the current ones: a script cannot know a price before it is shown, so it takes it as a
// player accepting the price on the screen. Odds that are sent are checked.
func (r *runner) preparePlace(p *table.Place) {
	player := p.Player
	if player == "" {
		player = p.Actor
	}
	p.Available = r.Wallets[player]
	if p.Odds == 0 {
		for _, pr := range r.Table.Prices() {
			if pr.Bet == p.Bet && pr.Offered {
				p.Odds = pr.Odds
			}
		}
	}
}

// fund adds to (or, negative, takes from) a player's wallet; line 0 is an automatic credit,
// which writes nothing.
func (r *runner) fund(line int, player string, amount baccarat.Money) {
	if player == "" || r.Wallets[player]+amount < 0 {
		if line > 0 {
			r.out.refuse(Refusal{Line: line, Refused: "fund", Code: baccarat.CodeBadRequest,
				Message: fmt.Sprintf("fund needs a player and cannot take more than they have (%d)", r.Wallets[player])})
		}
		return
	}
	r.Wallets[player] += amount
	r.Funded += amount
	if line > 0 {
		r.out.funded(Funded{Line: line, Funded: player, Amount: amount, Balance: r.Wallets[player]})
	}
}

func needsShoe(ct table.CommandType) bool {
	return ct == table.CmdOpen || ct == table.CmdDeal || ct == table.CmdCard
}

func (r *runner) seedShoe(c *table.NewShoe) {
	decks := c.Decks
	if decks == 0 {
		decks = r.Table.Config().Decks
	}
	if g := r.Table.Game(); decks < g.Decks.Min || decks > g.Decks.Max {
		return // the table refuses it (bad_shoe); shuffling a billion decks first would not end
	}
	s := baccarat.NewShoe(decks)
	s.Shuffle(r.src)
	c.Order = s.Order()
	c.Salt = hex.EncodeToString(baccarat.NewSalt(r.src))
}

func (r *runner) apply(line int, c table.Command, name string) {
	events, err := r.Table.Apply(c)
	if err != nil {
		r.out.refuse(Refusal{Line: line, Refused: name, Code: baccarat.ErrorCode(err), Message: err.Error()})
		return
	}
	if p, ok := c.(*table.Place); ok && len(events) == 0 {
		w, _ := r.Table.WagerByRequest(p.Player, p.RequestID)
		r.out.write(map[string]any{"line": line, "duplicate": p.RequestID, "wager": w.ID})
		return
	}
	for i := range events {
		r.book(&events[i])
		r.out.event(&events[i])
	}
}

// book moves the wallets as the live host's ledger would.
func (r *runner) book(e *table.Event) {
	switch e.Type {
	case table.EvWagerPlaced:
		r.Wallets[e.Wager.Player] -= e.Wager.Stake
	case table.EvWagerRaised: // the chip added, never the total
		r.Wallets[e.Wager.Player] -= e.Amount()
	case table.EvWagerLowered:
		r.Wallets[e.Wager.Player] += e.Amount()
	case table.EvWagerWithdrawn:
		for _, w := range e.Withdrawn() {
			r.Wallets[w.Player] += w.Stake
		}
	case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
		for _, s := range e.Settlements {
			if s.Returned != 0 { // a lost wager's player has a wallet: its wager_placed took the stake
				r.Wallets[s.Player] += s.Returned
			}
		}
	}
}

// Conserved reports whether the run's money adds up: what players hold, what they have in
// play and what the house won is what was funded.
func (res *Result) Conserved() error {
	var sum baccarat.Money
	for p, b := range res.Wallets {
		if b < 0 {
			return fmt.Errorf("%s's wallet is negative: %d", p, b)
		}
		sum += b
	}
	for _, f := range res.Table.State().Funds {
		sum += f.Held
	}
	if sum+res.Table.House() != res.Funded {
		return fmt.Errorf("money not conserved: funded %d, players %d, house %d", res.Funded, sum, res.Table.House())
	}
	return nil
}
