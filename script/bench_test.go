package script

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/tablehouse/baccarat/table"
)

var (
	benchScriptOut    = flag.String("benchscript", "", "TestWriteBenchScript writes a replay script for timing `baccarat replay` to this file")
	benchScriptRounds = flag.Int("rounds", 20000, "rounds of the script -benchscript writes")
)

// benchGame and benchSeed are the table the benchmark script is played at: replay it with
// baccarat replay --game mbs-tournament --seed 7.
const (
	benchGame = "mbs-tournament"
	benchSeed = 7
)

// benchBets are the wagers each of a round's seven players places, as in the table's own
// benchmark of a 7 × 3 round.
var benchBets = []string{"banker", "tie", "player_pair"}

// writeBenchScript writes a script of rounds rounds at an RNG table shuffled from seed: open,
// each player's wagers, close, a deal line for every card the round takes, and new_shoe
// where the cut card ended the shoe. It plays each line as it writes it, so the script
// deals exactly the cards each round needs and nothing in it is refused. It returns the
// number of lines.
func writeBenchScript(w io.Writer, seed uint64, rounds, players int, bets ...string) (int, error) {
	run, err := start("", Options{Config: table.Config{Game: benchGame}, Seed: &seed}, 0, &writer{bw: bufio.NewWriter(io.Discard)})
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	lines := 0
	emit := func(l lineCmd) {
		b, _ := json.Marshal(&l)
		bw.Write(append(b, '\n'))
		lines++
		run.do(lines, &l)
	}
	names := make([]string, players)
	for i := range names {
		names[i] = "p" + strconv.Itoa(i+1)
	}
	t := run.Table
	for range rounds {
		if t.ShoeNumber() > 0 && !t.ShoeActive() {
			emit(lineCmd{Cmd: "new_shoe"})
		}
		emit(lineCmd{Cmd: "open"})
		for _, p := range names {
			for _, bet := range bets {
				emit(lineCmd{Cmd: "place", Player: p, Bet: bet, Stake: 100})
			}
		}
		emit(lineCmd{Cmd: "close"})
		for t.Phase() == table.PhaseClosed || t.Phase() == table.PhaseDealing {
			emit(lineCmd{Cmd: "deal"})
		}
	}
	return lines, bw.Flush()
}

// benchScript is a script of rounds 7 × 3 rounds, and its lines.
func benchScript(tb testing.TB, rounds int) ([]byte, int) {
	tb.Helper()
	var buf bytes.Buffer
	lines, err := writeBenchScript(&buf, benchSeed, rounds, 7, benchBets...)
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes(), lines
}

func benchOptions() Options {
	seed := uint64(benchSeed)
	return Options{Config: table.Config{Game: benchGame}, Seed: &seed}
}

// TestBenchScriptIsRefusedNothing: the benchmark's script plays cleanly, so the benchmark
// measures rounds, not refusals.
func TestBenchScriptIsRefusedNothing(t *testing.T) {
	in, _ := benchScript(t, 200)
	var out bytes.Buffer
	res, err := Run(bytes.NewReader(in), &out, benchOptions())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Bytes(), []byte(`"refused"`)) {
		i := bytes.Index(out.Bytes(), []byte(`"refused"`))
		t.Fatalf("the benchmark script has a refusal: %s", out.Bytes()[max(0, i-40):min(out.Len(), i+200)])
	}
	if got := res.Table.Round(); got != 200 {
		t.Errorf("played %d rounds, want 200", got)
	}
	if err := res.Conserved(); err != nil {
		t.Error(err)
	}
}

// TestWriteBenchScript writes the benchmark's script to a file, for timing the command:
//
//	go test ./script -run WriteBenchScript -benchscript /tmp/big.jsonl -rounds 20000
//	go build -o /tmp/baccarat ./cmd/baccarat
//	time /tmp/baccarat replay --seed 7 /tmp/big.jsonl > /tmp/big.out
func TestWriteBenchScript(t *testing.T) {
	if *benchScriptOut == "" {
		t.Skip("no -benchscript file")
	}
	f, err := os.Create(*benchScriptOut)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := writeBenchScript(f, benchSeed, *benchScriptRounds, 7, benchBets...)
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d rounds, %d lines", *benchScriptOut, *benchScriptRounds, lines)
}

// BenchmarkReplayScript: baccarat replay of a script of 7 seats × 3 wagers a round, from
// the script's bytes to the JSON lines of its events (target: the table's order of speed,
// at least 50,000 rounds/s).
func BenchmarkReplayScript(b *testing.B) {
	const rounds = 2000
	in, lines := benchScript(b, rounds)
	opt := benchOptions()
	var out countWriter
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(bytes.NewReader(in), &out, opt); err != nil {
			b.Fatal(err)
		}
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(rounds*b.N)/s, "rounds/s")
	b.ReportMetric(float64(lines*b.N)/s, "lines/s")
	b.ReportMetric(float64(out.n)/float64(b.N*rounds), "out-B/round")
}

// countWriter counts what is written to it.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}
