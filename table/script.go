package table

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tablehouse/baccarat"
)

// ScriptOptions set up the table a script runs against. A script's first line may also be a
// config command: {"cmd":"config","game":"mbs-tiger","seed":7,...}.
type ScriptOptions struct {
	Config Config
	// Seed, when set, makes new shoes seeded RNG shoes dealt with "deal"; without it shoes
	// are live and take "card" commands.
	Seed *uint64
	// AutoFund credits a player the first time they appear, unless a fund command for them
	// came first. 0 turns it off.
	AutoFund baccarat.Money
}

// DefaultAutoFund is what a script's players start with unless funded explicitly.
const DefaultAutoFund = 1_000_000_000

type scriptConfig struct {
	Config
	Cmd      string          `json:"cmd"`
	Seed     *uint64         `json:"seed,omitempty"`
	AutoFund *baccarat.Money `json:"auto_fund,omitempty"`
}

// Refusal is a script line a table refused, as the replay output shows it.
type Refusal struct {
	Line    int         `json:"line"`
	Refused CommandType `json:"refused"`
	Code    string      `json:"code"`
	Message string      `json:"message"`
}

// RunScript runs a replay script (one JSON command a line; blank lines and lines starting
// with # are skipped) against a fresh table and writes every event and every refusal as a
// JSON line. It returns the table, for callers that check its final state. A line that is
// not a command stops the run with an error naming the line.
func RunScript(r io.Reader, w io.Writer, opt ScriptOptions) (*Table, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	enc := json.NewEncoder(w)
	var run *scriptRun
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "//") {
			continue
		}
		if run == nil {
			var err error
			if run, err = startRun(text, opt, line); err != nil {
				return nil, err
			}
			if strings.Contains(text, `"config"`) && isConfig(text) {
				continue
			}
		}
		var c Command
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		err := dec.Decode(&c)
		if canonical, ok := scriptAliases[c.Type]; ok {
			c.Type = canonical
		}
		if err != nil {
			code := baccarat.ErrorCode(err)
			if code == baccarat.CodeInternal {
				code = baccarat.CodeBadRequest
			}
			_ = enc.Encode(Refusal{Line: line, Refused: c.Type, Code: code, Message: "not a command: " + err.Error()})
			continue
		}
		run.do(line, &c, enc)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if run == nil {
		t, err := New(opt.Config)
		return t, err
	}
	return run.t, nil
}

// scriptAliases are other names people give the commands in a script; they mean the same.
var scriptAliases = map[CommandType]CommandType{
	"open_betting": CmdOpen, "place_your_bets": CmdOpen, "close_betting": CmdClose, "no_more_bets": CmdClose,
	"place_wager": CmdPlace, "wager": CmdPlace, "bet": CmdPlace, "withdraw_wager": CmdWithdraw,
	"deal_card": CmdCard, "scan": CmdCard, "void_round": CmdVoid, "shuffle": CmdNewShoe, "change_shoe": CmdNewShoe,
	"correction": CmdCorrect, "power_failure": CmdInterrupt, "simultaneous": CmdSimultaneous,
}

func isConfig(text string) bool {
	var probe struct {
		Cmd string `json:"cmd"`
	}
	return json.Unmarshal([]byte(text), &probe) == nil && probe.Cmd == "config"
}

type scriptRun struct {
	t        *Table
	src      baccarat.Source
	autoFund baccarat.Money
	known    map[string]bool
}

func startRun(first string, opt ScriptOptions, line int) (*scriptRun, error) {
	if opt.AutoFund == 0 {
		opt.AutoFund = DefaultAutoFund
	}
	if isConfig(first) {
		sc := scriptConfig{Config: opt.Config}
		dec := json.NewDecoder(strings.NewReader(first))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&sc); err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "line %d: bad config: %v", line, err)
		}
		opt.Config = sc.Config
		if sc.Seed != nil {
			opt.Seed = sc.Seed
		}
		if sc.AutoFund != nil {
			opt.AutoFund = *sc.AutoFund
		}
	}
	t, err := New(opt.Config)
	if err != nil {
		return nil, err
	}
	run := &scriptRun{t: t, autoFund: opt.AutoFund, known: map[string]bool{}}
	if opt.Seed != nil {
		run.src = baccarat.SeededSource(*opt.Seed)
	}
	return run, nil
}

func (r *scriptRun) do(line int, c *Command, enc *json.Encoder) {
	if c.Type == CmdNewShoe && c.Order == nil && r.src != nil {
		r.seedShoe(c)
	}
	// The first shoe starts by itself; later ones need new_shoe (the dealer's job).
	if r.t.shoe.number == 0 && !r.t.shoe.active && needsShoe(c.Type) {
		auto := Command{Type: CmdNewShoe, Reason: "auto"}
		if r.src != nil {
			r.seedShoe(&auto)
		}
		r.apply(line, &auto, enc)
	}
	if p := c.Player; p != "" && !r.known[p] {
		r.known[p] = true
		if c.Type != CmdFund && r.autoFund > 0 {
			r.apply(line, &Command{Type: CmdFund, Player: p, Amount: r.autoFund, Reason: "auto"}, enc)
		}
	}
	if c.Type == CmdPlace && c.Odds == 0 {
		// A script cannot know a Bet on Baccarat price before it is shown: a wager without
		// odds takes the current ones, as a player accepting the price on the screen. Odds
		// that are sent are checked (odds_changed when stale).
		for _, p := range r.t.Prices() {
			if p.Bet == c.Bet && p.Offered {
				c.Odds = p.Odds
			}
		}
	}
	r.apply(line, c, enc)
}

func needsShoe(ct CommandType) bool {
	return ct == CmdOpen || ct == CmdDeal || ct == CmdCard
}

func (r *scriptRun) seedShoe(c *Command) {
	decks := c.Decks
	if decks == 0 {
		decks = r.t.cfg.Decks
	}
	s := baccarat.NewShoe(decks)
	s.Shuffle(r.src)
	c.Order = s.Order()
	c.Salt = hex.EncodeToString(baccarat.NewSalt(r.src))
}

func (r *scriptRun) apply(line int, c *Command, enc *json.Encoder) {
	events, err := r.t.Apply(c)
	if err != nil {
		ref := Refusal{Line: line, Refused: c.Type, Code: baccarat.ErrorCode(err), Message: err.Error()}
		_ = enc.Encode(ref)
		return
	}
	if len(events) == 0 && c.Type == CmdPlace {
		w, _ := r.t.WagerByRequest(c.Player, c.RequestID)
		_ = enc.Encode(map[string]any{"line": line, "duplicate": c.RequestID, "wager": w.ID})
		return
	}
	for _, e := range events {
		_ = enc.Encode(e)
	}
}

// String shows a refusal for people.
func (r Refusal) String() string {
	return fmt.Sprintf("line %d: %s refused [%s]: %s", r.Line, r.Refused, r.Code, r.Message)
}
