package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
)

// runBoth runs a script twice, with the fast decoder and writer and with encoding/json for
// every line, and fails unless the two write the same bytes and end the same way.
func runBoth(t *testing.T, in []byte, opt Options) []byte {
	t.Helper()
	var fast, slow bytes.Buffer
	fres, ferr := run(bytes.NewReader(in), &fast, opt, false)
	sres, serr := run(bytes.NewReader(in), &slow, opt, true)
	if fmt.Sprint(ferr) != fmt.Sprint(serr) {
		t.Fatalf("fast: error %v, encoding/json: error %v", ferr, serr)
	}
	if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
		t.Fatalf("fast and encoding/json outputs differ at %s", diffLines(slow.String(), fast.String()))
	}
	if ferr == nil && (!reflect.DeepEqual(fres.Wallets, sres.Wallets) || fres.Funded != sres.Funded) {
		t.Fatalf("wallets differ: fast %v (funded %d), encoding/json %v (funded %d)", fres.Wallets, fres.Funded, sres.Wallets, sres.Funded)
	}
	if ferr == nil {
		if err := fres.Conserved(); err != nil {
			t.Fatal(err)
		}
	}
	return fast.Bytes()
}

// TestFastPathsWriteWhatEncodingJSONWrites: every scenario, the benchmark's script and long
// random scripts (every command, alias and game, and lines broken in every way the
// generator knows) give the same bytes, line for line, with the fast decoder and writer as
// with encoding/json alone.
func TestFastPathsWriteWhatEncodingJSONWrites(t *testing.T) {
	seen := map[string]int{} // lines by event type and refusal code
	count := func(out []byte) {
		for _, l := range bytes.Split(out, []byte("\n")) {
			var probe struct{ Type, Code string }
			if json.Unmarshal(l, &probe) == nil {
				seen[probe.Type+probe.Code]++
			}
		}
	}
	scripts, _ := filepath.Glob("testdata/scenarios/*.jsonl")
	for _, s := range scripts {
		t.Run(filepath.Base(s), func(t *testing.T) {
			in, err := os.ReadFile(s)
			if err != nil {
				t.Fatal(err)
			}
			count(runBoth(t, in, Options{Config: table.Config{Game: "mbs-tournament"}}))
		})
	}
	t.Run("benchmark script", func(t *testing.T) {
		in, _ := benchScript(t, 300)
		runBoth(t, in, benchOptions())
	})
	for seed := range uint64(24) {
		t.Run("random script "+strconv.FormatUint(seed, 10), func(t *testing.T) {
			in, opt := randomScript(seed, 150)
			count(runBoth(t, in, opt))
		})
	}
	for _, want := range []string{"wager_placed", "wager_withdrawn", "round_settled", "round_voided", "cards_corrected",
		"simultaneous_draw", "limit_changed", "shoe_started", "shoe_ended", "session_settled", "squeeze_started",
		"interrupted", "resumed", "betting_opened", "cut_card", "squeeze_ended", "bad_request"} {
		if seen[want] == 0 {
			t.Errorf("the random scripts wrote no %s: the comparison does not cover it", want)
		}
	}
	t.Logf("lines by type and code: %v", seen)
}

// randomScript is a script of rounds rounds at a random game: the usual lines, and among
// them every other command, aliases, and lines broken in the ways encoding/json reads
// differently from the fast decoder's usual line (escapes, letter case, repeated keys,
// null, floats, strings for numbers, unknown keys, invalid UTF-8, trailing bytes).
func randomScript(seed uint64, rounds int) ([]byte, Options) {
	g := &scriptGen{rng: rand.New(rand.NewPCG(seed, 99))}
	opt := Options{Config: table.Config{Game: pick(g.rng, "mbs-tournament", "rws-no-commission", "mbs-tiger",
		"mbs-dragon", "bet-on-baccarat", "punto-banco")}}
	g.live = g.rng.IntN(3) == 0
	if !g.live {
		s := g.rng.Uint64N(1000)
		opt.Seed = &s
	}
	if g.rng.IntN(2) == 0 {
		g.config(opt)
	}
	for range rounds {
		g.round()
	}
	return g.buf.Bytes(), opt
}

type scriptGen struct {
	rng  *rand.Rand
	buf  bytes.Buffer
	live bool
	reqs []string
}

type kv struct{ k, v string }

var (
	genPlayers = []string{"ann", "bob", "cat", "zoë", "a<b>&c", "tab\there", "", "p1", "line\u2028sep"}
	genBets    = []string{"player", "banker", "tie", "player_pair", "banker_pair", "tiger", "small_tiger",
		"big_tiger", "tiger_tie", "tiger_pair", "banker_dragon", "player_dragon", "any_dragon", "nope", ""}
	genRoles   = []string{"player", "dealer", "pit", "system", "", "boss"}
	genTimes   = []string{"2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123456789+02:00", "2024-13-01T00:00:00Z", "0001-01-01T00:00:00Z", "yesterday"}
	genCards   = []string{"Ah", "9c", "Td", "10s", "kh", "Qs", "5d", "2c", "Zz", "", "7h", "8s", "3d"}
	genReasons = append([]string{"", "because", "x\"y"}, table.VoidReasons...)
)

func pick(r *rand.Rand, s ...string) string { return s[r.IntN(len(s))] }

func str(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (g *scriptGen) config(opt Options) {
	f := []kv{{"cmd", `"config"`}, {"game", str(opt.Config.Game)}}
	switch opt.Config.Game {
	case "mbs-tiger":
		f = append(f, kv{"squeeze", "true"})
	case "mbs-dragon":
		f = append(f, kv{"session_hands", "3"})
	}
	g.line(f, false)
}

// round writes a round: open, wagers, close, the cards, with other lines among them.
func (g *scriptGen) round() {
	if g.live && g.rng.IntN(20) == 0 {
		g.line([]kv{{"cmd", `"new_shoe"`}}, true)
	}
	g.line(g.header("open", kv{"until", str(pick(g.rng, genTimes...))}), true)
	for range g.rng.IntN(12) {
		g.line(g.place(), true)
		g.noise()
	}
	g.line(g.header("close"), true)
	for range 6 {
		if g.live {
			g.line(g.header("card", kv{"card", str(pick(g.rng, genCards...))}, kv{"cut", "true"}), true)
		} else {
			g.line(g.header("deal"), true)
		}
		g.noise()
	}
}

// header is a command line with, now and then, an actor, a role, a time and a reason, and
// now and then one of its extra fields.
func (g *scriptGen) header(cmd string, extra ...kv) []kv {
	f := []kv{{"cmd", str(cmd)}}
	if g.rng.IntN(4) == 0 {
		f = append(f, kv{"actor", str(pick(g.rng, "dealer-1", "pit-boss", "ann", "system"))})
	}
	if g.rng.IntN(5) == 0 {
		f = append(f, kv{"role", str(pick(g.rng, genRoles...))})
	}
	if g.rng.IntN(8) == 0 {
		f = append(f, kv{"at", str(pick(g.rng, genTimes...))})
	}
	if g.rng.IntN(8) == 0 {
		f = append(f, kv{"reason", str(pick(g.rng, genReasons...))})
	}
	for _, e := range extra {
		if g.rng.IntN(6) == 0 || e.k == "card" {
			f = append(f, e)
		}
	}
	return f
}

func (g *scriptGen) place() []kv {
	f := g.header(pick(g.rng, "place", "place", "place", "bet", "wager"),
		kv{"seat", str(pick(g.rng, genPlayers...))}, kv{"odds", str(pick(g.rng, "2.50", "1.01", "3", "x"))})
	f = append(f, kv{"player", str(pick(g.rng, genPlayers...))}, kv{"bet", str(pick(g.rng, genBets...))},
		kv{"stake", pick(g.rng, "100", "1000", "500", "0", "-5", "1099511627776", strconv.Itoa(g.rng.IntN(5000)))})
	if g.rng.IntN(6) == 0 {
		if len(g.reqs) > 0 && g.rng.IntN(2) == 0 {
			f = append(f, kv{"request_id", str(g.reqs[g.rng.IntN(len(g.reqs))])})
		} else {
			id := "r" + strconv.Itoa(g.rng.IntN(1000))
			g.reqs = append(g.reqs, id)
			f = append(f, kv{"request_id", str(id)})
		}
	}
	return f
}

// noise writes, now and then, one of the commands a round seldom sees.
func (g *scriptGen) noise() {
	if g.rng.IntN(3) != 0 {
		return
	}
	cards := func() string {
		c := make([]string, 1+g.rng.IntN(5))
		for i := range c {
			c[i] = str(baccarat.Card(g.rng.IntN(baccarat.NumCards)).String())
			if g.rng.IntN(10) == 0 {
				c[i] = str(pick(g.rng, genCards...))
			}
		}
		return "[" + strings.Join(c, ",") + "]"
	}
	var f []kv
	switch g.rng.IntN(17) {
	case 0:
		f = g.header("withdraw", kv{"wager", strconv.Itoa(g.rng.IntN(40))})
		f = append(f, kv{"player", str(pick(g.rng, genPlayers...))})
	case 1:
		f = append(g.header(pick(g.rng, "void", "void_round")), kv{"reason", str(pick(g.rng, table.VoidReasons...))})
	case 2:
		f = append(g.header("correct"), kv{"cards", cards()})
	case 3:
		f = append(g.header(pick(g.rng, "simultaneous_draw", "simultaneous")), kv{"cards", cards()}, kv{"known", pick(g.rng, "true", "false")})
	case 4:
		f = g.header("resume", kv{"cards", cards()})
	case 5:
		f = g.header(pick(g.rng, "interrupt", "power_failure", "device_reset"))
	case 6:
		f = append(g.header("set_limit"), kv{"role", `"pit"`}, kv{"bet", str(pick(g.rng, genBets...))}, kv{"min", "10"}, kv{"max", strconv.Itoa(g.rng.IntN(100000))})
	case 7:
		f = append(g.header("set_area_limit"), kv{"role", `"pit"`}, kv{"limit", strconv.Itoa(g.rng.IntN(4))})
	case 8:
		f = append(g.header("set_differential"), kv{"role", `"pit"`}, kv{"amount", strconv.Itoa(g.rng.IntN(5000))})
	case 9:
		f = g.header(pick(g.rng, "end_shoe", "end_session", "reveal", "peel", "frobnicate", "fund"))
		f = append(f, kv{"player", str(pick(g.rng, genPlayers...))}, kv{"amount", pick(g.rng, "100", "-100", "0")})
	case 10:
		f = g.header("new_shoe", kv{"decks", strconv.Itoa(g.rng.IntN(10))}, kv{"cut_card", strconv.Itoa(g.rng.IntN(80))},
			kv{"salt", `"00ff"`}, kv{"commitment", `"abc"`})
	case 11:
		f = append(g.header("fund"), kv{"player", str(pick(g.rng, genPlayers...))}, kv{"amount", pick(g.rng, "100", "-100000", "5")})
	default:
		f = g.place()
		g.line(f, true)
		return
	}
	g.line(f, true)
}

// line writes a line of fields, in a random order and spacing, and, when mangle allows,
// now and then broken in one way.
func (g *scriptGen) line(f []kv, mangle bool) {
	g.rng.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
	trail := ""
	if mangle && g.rng.IntN(6) == 0 {
		f, trail = g.mangle(f)
	}
	sp := func() string { return pick(g.rng, "", "", "", " ", "\t", "  ") }
	var b strings.Builder
	b.WriteString(sp() + "{" + sp())
	for i, e := range f {
		if i > 0 {
			b.WriteString(sp() + "," + sp())
		}
		b.WriteString(str(e.k) + sp() + ":" + sp() + e.v)
	}
	b.WriteString(sp() + "}" + trail + "\n")
	if g.rng.IntN(40) == 0 {
		b.WriteString(pick(g.rng, "\n", "# a comment\n", "// another\n", "   \n", "\r\n"))
	}
	g.buf.WriteString(b.String())
}

// mangle breaks a line in one of the ways the fast decoder must leave to encoding/json.
func (g *scriptGen) mangle(f []kv) ([]kv, string) {
	i := g.rng.IntN(len(f))
	switch g.rng.IntN(14) {
	case 0:
		f[i].k = strings.ToUpper(f[i].k)
	case 1:
		f = append(f, kv{f[i].k, f[g.rng.IntN(len(f))].v})
	case 2:
		if v := f[i].v; len(v) > 2 && v[0] == '"' {
			f[i].v = `"\u00` + strconv.FormatInt(int64(v[1]), 16) + v[2:]
		}
	case 3:
		f[i].v = "null"
	case 4:
		f[i].v = pick(g.rng, "100.0", "1e2", "-0", "01", `"100"`, "true", "[]", "{}", "9223372036854775808", "-9223372036854775808")
	case 5:
		f = append(f, kv{pick(g.rng, "colour", "Cmd", "request_ID", "cards", "order", "commitment"), pick(g.rng, `"x"`, `["Ah"]`, "1")})
	case 6:
		f[i].v = "\"\xff\xfe\""
	case 7:
		return f, pick(g.rng, " x", `{"cmd":"open"}`, ",", "}")
	case 8:
		f[i].v = `"` + strings.Repeat("é", g.rng.IntN(4)) + "\x01\""
	case 9:
		f[i].v = f[i].v[:len(f[i].v)/2]
	case 10:
		f[i].v = pick(g.rng, "tru", "fals", "-", "--1", "1-", "0x10", "+1")
	case 11:
		f[i].k = f[i].k + "\\u0000"
	case 12:
		f[i].v = " " + f[i].v + "\n"
	default:
		f = nil
	}
	return f, ""
}

// FuzzRun holds whole scripts to the reference: the fast decoder and writer write what
// encoding/json writes, byte for byte, and a run ends with the same error.
func FuzzRun(f *testing.F) {
	scripts, _ := filepath.Glob("testdata/scenarios/*.jsonl")
	for _, s := range scripts {
		if in, err := os.ReadFile(s); err == nil {
			f.Add(in, true)
		}
	}
	for seed := range uint64(4) {
		in, _ := randomScript(seed, 5)
		f.Add(in, seed%2 == 0)
	}
	f.Fuzz(func(t *testing.T, in []byte, seeded bool) {
		if manyDecks(in) {
			t.Skip("a seeded new_shoe shuffles every deck it names before the table refuses them: too slow to fuzz")
		}
		opt := Options{Config: table.Config{Game: "mbs-tiger"}}
		if seeded {
			s := uint64(len(in))
			opt.Seed = &s
		}
		runBoth(t, in, opt)
	})
}

// manyDecks reports whether a line of the script names more than a hundred decks, as
// encoding/json reads it.
func manyDecks(in []byte) bool {
	for _, line := range bytes.Split(in, []byte("\n")) {
		var probe struct{ Decks int64 }
		json.NewDecoder(bytes.NewReader(line)).Decode(&probe)
		if probe.Decks > 100 {
			return true
		}
	}
	return false
}

// FuzzDecodeLine holds the fast decoder to encoding/json: a line it reads, encoding/json
// reads to the same command, with DisallowUnknownFields as the runner asks.
func FuzzDecodeLine(f *testing.F) {
	for _, l := range []string{`{"cmd":"place","player":"ann","bet":"player","stake":1000}`, `{"cmd":"deal"}`,
		`{"cmd":"card","card":"10h","cut":true,"until":"2024-05-01T12:00:00Z"}`, ` { "cmd" : "open" , "actor":"dealer-1","role":"dealer"}`,
		`{"cmd":"withdraw","player":"bob","wager":4}`, `{"cmd":"set_limit","bet":"tie","min":-0,"max":9223372036854775807}`,
		`{"cmd":"place","odds":"2.5","request_id":"r1","seat":"zoë"}`, `{"cmd":"place","stake":1e3}`, `{"CMD":"open"}`,
		`{"cmd":"open","cmd":"close"}`, `{"cmd":"open"} x`, `{"cmd":"\u006fpen"}`, `{}`, `{"cut":false,"known":true}`} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var d decoder
		var fast, ref lineCmd
		if !d.fast(line, &fast) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ref); err != nil {
			t.Fatalf("%q: the fast decoder read %+v, encoding/json refuses it: %v", line, fast, err)
		}
		if !reflect.DeepEqual(fast, ref) {
			t.Fatalf("%q: the fast decoder read\n%+v\nencoding/json\n%+v", line, fast, ref)
		}
	})
}

// TestDecodeUsualLinesAllocatesNothing: a wager, an open, a close, a deal read into the
// runner's one lineCmd allocate nothing once their names are known.
func TestDecodeUsualLinesAllocatesNothing(t *testing.T) {
	var d decoder
	var l lineCmd
	lines := [][]byte{[]byte(`{"cmd":"place","player":"p1","bet":"banker","stake":100}`), []byte(`{"cmd":"open"}`),
		[]byte(`{"cmd":"close","actor":"dealer-1","role":"dealer"}`), []byte(`{"cmd":"deal"}`)}
	for _, line := range lines {
		if err := d.decode(line, &l); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { d.decode(line, &l) }); n != 0 {
			t.Errorf("%s: %v allocations, want 0", line, n)
		}
	}
}

// TestNewShoeOfDecksOutsideTheGameIsRefused: with a seed, new_shoe of -1 or a billion decks
// is refused as without one, at once, rather than shuffling a shoe that cannot exist.
func TestNewShoeOfDecksOutsideTheGameIsRefused(t *testing.T) {
	for _, decks := range []string{"-1", "11", "1000000000"} {
		var out bytes.Buffer
		seed := uint64(1)
		if _, err := Run(strings.NewReader(`{"cmd":"new_shoe","decks":`+decks+`}`), &out, Options{Config: table.Config{Game: "mbs-tournament"}, Seed: &seed}); err != nil {
			t.Fatal(err)
		}
		want := `{"line":1,"refused":"new_shoe","code":"bad_shoe","message":"Baccarat Tournament (MBS) is played with 4 to 10 decks, not ` + decks + `"}` + "\n"
		if out.String() != want {
			t.Errorf("got %s want %s", out.String(), want)
		}
	}
}

// failingWriter takes n bytes, then fails every write.
type failingWriter struct {
	got bytes.Buffer
	n   int
}

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.got.Len()+len(p) > w.n {
		k := w.n - w.got.Len()
		w.got.Write(p[:k])
		return k, errDiskFull
	}
	return w.got.Write(p)
}

// TestAWriteThatFailsStopsTheRun: the run ends with the writer's error, having written a
// prefix of what it would have written, and writes nothing once Run has returned.
func TestAWriteThatFailsStopsTheRun(t *testing.T) {
	in, _ := benchScript(t, 300)
	var full bytes.Buffer
	if _, err := Run(bytes.NewReader(in), &full, benchOptions()); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 10, 64<<10 - 1, 64<<10 + 1, 3*64<<10 + 7} {
		w := &failingWriter{n: n}
		res, err := Run(bytes.NewReader(in), w, benchOptions())
		if err != errDiskFull || res != nil {
			t.Fatalf("after %d bytes: got %v, %v; want no result and %v", n, res, err, errDiskFull)
		}
		got := w.got.Len()
		if got != n || !bytes.HasPrefix(full.Bytes(), w.got.Bytes()) {
			t.Fatalf("after %d bytes: wrote %d bytes, not a prefix of the output", n, got)
		}
	}
}
