package live_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// crashSchedule runs rounds in tens of milliseconds, so kills land in every phase.
var crashSchedule = live.Schedule{Betting: 40 * time.Millisecond, BoBRound: 10 * time.Millisecond,
	Card: 3 * time.Millisecond, Result: 5 * time.Millisecond, Window: 10 * time.Millisecond}

// TestCrashChild is the process the crash test kills. It runs only when asked to.
func TestCrashChild(t *testing.T) {
	path := os.Getenv("BACCARAT_CRASH_DB")
	if path == "" {
		t.Skip("run by TestCrashRecovery")
	}
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(3)
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	h := live.New(live.Options{Store: db, Owner: "child", LeaseTTL: 2 * time.Second})
	if err := h.Open(ctx); err != nil {
		say("ERR open %v", err)
		os.Exit(3)
	}
	if len(h.Tables(ctx)) == 0 {
		if err := h.Create(ctx, live.Spec{ID: "crash", Config: table.Config{Game: "mbs-tiger"}, Schedule: crashSchedule}); err != nil {
			say("ERR create %v", err)
			os.Exit(3)
		}
	}
	for i := 0; i < 4; i++ {
		_ = h.Credit(ctx, fmt.Sprintf("credit-p%d", i), fmt.Sprintf("p%d", i), live.PlayMoney, 1_000_000_000)
	}
	sub, err := h.Subscribe("crash", "", 0, false)
	if err != nil {
		say("ERR subscribe %v", err)
		os.Exit(3)
	}
	go func() {
		for d := range sub.C {
			var m struct {
				Event *table.Event `json:"event"`
			}
			if json.Unmarshal(d.Data, &m) == nil && m.Event != nil {
				say("E %s", m.Event.Type)
			}
		}
	}()
	run := os.Getenv("BACCARAT_CRASH_RUN")
	bets := []string{"player", "banker", "tie", "tiger", "small_tiger", "big_tiger", "tiger_tie", "tiger_pair"}
	for n := 0; ; n++ {
		rid := fmt.Sprintf("r%s-%d", run, n)
		player := fmt.Sprintf("p%d", n%4)
		c := &table.Place{Player: player, Bet: bets[n%len(bets)], Stake: baccarat.Money(100 + n%7*100), RequestID: rid}
		res, err := h.Submit(ctx, "crash", c)
		if err == nil && res.Wager != nil {
			say("ACK %s %s %d", rid, player, res.Wager.ID)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestCrashRecovery kills a table host with SIGKILL at random points (≥ 200 by default;
// BACCARAT_CRASH_KILLS sets how many), restarting it each time, then checks that no
// acknowledged wager was lost, none was settled twice, the books sum to zero and verify is
// clean.
func TestCrashRecovery(t *testing.T) {
	if os.Getenv("BACCARAT_CRASH_DB") != "" {
		t.Skip("this is the child")
	}
	kills := 200
	if s := os.Getenv("BACCARAT_CRASH_KILLS"); s != "" {
		kills, _ = strconv.Atoi(s)
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(7, 11))
	acked := map[string]uint64{}
	phases := map[string]int{}
	start := time.Now()
	for i := 0; i < kills; i++ {
		cmd, lines := startChild(t, "TestCrashChild", "BACCARAT_CRASH_DB="+path, "BACCARAT_CRASH_RUN="+strconv.Itoa(i))
		// Wait until the child is serving, then kill it at a random moment.
		ready := false
		timeout := time.After(20 * time.Second)
		last := ""
		for !ready {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("run %d: the child exited before serving", i)
				}
				if strings.HasPrefix(l, "ERR") {
					t.Fatalf("run %d: %s", i, l)
				}
				ready = strings.HasPrefix(l, "E ") || strings.HasPrefix(l, "ACK ")
				last = record(l, acked, last)
			case <-timeout:
				t.Fatalf("run %d: the child never served", i)
			}
		}
		time.Sleep(time.Duration(rng.IntN(60)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		for l := range lines {
			last = record(l, acked, last)
		}
		_ = cmd.Wait()
		phases[phaseOf(last)]++
	}
	t.Logf("%d kills in %s; killed after: %v; %d wagers acknowledged", kills, time.Since(start).Round(time.Millisecond), phases, len(acked))
	checkCrashDB(t, path, acked)
}

func record(l string, acked map[string]uint64, last string) string {
	f := strings.Fields(l)
	switch {
	case len(f) == 4 && f[0] == "ACK":
		id, _ := strconv.ParseUint(f[3], 10, 64)
		acked[f[1]] = id
	case len(f) == 2 && f[0] == "E":
		return f[1]
	}
	return last
}

// phaseOf names the part of a round the last event seen belongs to.
func phaseOf(ev string) string {
	var typ table.EventType
	_ = typ.UnmarshalText([]byte(ev))
	switch typ {
	case table.EvBettingOpened, table.EvWagerPlaced, table.EvWagerRaised, table.EvShoeStarted, table.EvResumed, table.EvInterrupted:
		return "betting"
	case table.EvBettingClosed, table.EvCardDealt, table.EvCutCard:
		return "dealing"
	default:
		return "settlement"
	}
}

func checkCrashDB(t *testing.T, path string, acked map[string]uint64) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rep, err := verify.Database(ctx, db, time.Now())
	if err != nil || !rep.OK() {
		t.Fatalf("verify after the crashes: %+v %v", rep, err)
	}
	recs, err := db.Load(ctx, "crash", 2)
	if err != nil {
		t.Fatal(err)
	}
	placed := map[string][]uint64{}
	ended := map[uint64]int{}
	for _, r := range recs {
		var e table.Event
		if err := json.Unmarshal(r.Data, &e); err != nil {
			t.Fatal(err)
		}
		switch e.Type {
		case table.EvWagerPlaced, table.EvWagerRaised: // a chip on a spot held raises its wager, under its own request id
			placed[e.Wager.RequestID] = append(placed[e.Wager.RequestID], e.Wager.ID)
		case table.EvWagerWithdrawn:
			for _, w := range e.Withdrawn() {
				ended[w.ID]++
			}
		case table.EvRoundSettled, table.EvRoundVoided:
			for _, s := range e.Settlements {
				ended[s.Wager]++
			}
		}
	}
	for rid, id := range acked {
		if got := placed[rid]; len(got) != 1 || got[0] != id {
			t.Fatalf("acknowledged wager %s (id %d) is in the journal as %v", rid, id, got)
		}
	}
	for id, n := range ended {
		if n > 1 {
			t.Fatalf("wager %d was settled %d times", id, n)
		}
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("verify: %d records, %d rounds, %d voids, %d settlements recomputed; %d acknowledged wagers all present once",
		rep.Records, rep.Rounds, rep.Voids, rep.Wagers, len(acked))
	_ = baccarat.NumCards
}

// startChild runs one test of this binary in a process of its own, with env added, and
// returns it and its output's lines (closed when it exits): the crash tests kill it.
func startChild(t *testing.T, test string, env ...string) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 4096)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return cmd, lines
}
