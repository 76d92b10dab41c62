package live_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/tournament"
)

// TestTournamentCrashChild is the process TestTournamentSurvivesKills kills: a host on the
// real clock running (or recovering) one tournament at the crash test's pace.
func TestTournamentCrashChild(t *testing.T) {
	path := os.Getenv("BACCARAT_TCRASH_DB")
	if path == "" {
		t.Skip("run by TestTournamentSurvivesKills")
	}
	ctx := context.Background()
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		say("ERR %v", err)
		os.Exit(3)
	}
	h := live.New(live.Options{Store: db, Owner: "child-" + os.Getenv("BACCARAT_TCRASH_RUN"), LeaseTTL: time.Second})
	if err := h.Open(ctx); err != nil {
		say("ERR open %v", err)
		os.Exit(3)
	}
	if ids, _ := db.Tables(ctx); len(ids) == 0 {
		spec := threeRoundSpec("cup", "rws-no-commission")
		now := time.Now().UTC()
		spec.Config.RegistrationOpens, spec.Config.RegistrationCloses, spec.Config.Start = now, now.Add(300*time.Millisecond), now.Add(300*time.Millisecond)
		spec.Config.Break = 0
		spec.Config.Rounds = []tournament.Round{{Hands: crashHands, Advance: 2}, {Hands: crashHands, Advance: 2}, {Hands: crashHands}}
		spec.Schedule = crashSchedule
		if err := h.CreateTournament(ctx, spec); err != nil {
			say("ERR create %v", err)
			os.Exit(3)
		}
	}
	for {
		if v, err := h.Tournament(ctx, "cup", ""); err == nil {
			say("T %s %d", v.Phase, v.Seq)
			if v.Phase == tournament.PhaseFinished {
				h.Close()
				os.Exit(0)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTournamentSurvivesKills kills the host running a tournament with SIGKILL at random
// moments (BACCARAT_TCRASH_KILLS times, 8 by default), starting it again each time (its
// leases lapse after a second), until the tournament has finished; then every session must
// balance, the prizes be the pool, the books sum to zero and verify be clean.
func TestTournamentSurvivesKills(t *testing.T) {
	if os.Getenv("BACCARAT_TCRASH_DB") != "" {
		t.Skip("this is the child")
	}
	if testing.Short() {
		t.Skip("kills processes for tens of seconds")
	}
	kills := 8
	if s := os.Getenv("BACCARAT_TCRASH_KILLS"); s != "" {
		kills, _ = strconv.Atoi(s)
	}
	path := filepath.Join(t.TempDir(), "tcrash.db")
	rng := rand.New(rand.NewPCG(11, 7))
	finished, killed, lastLine := false, 0, ""
	for run := 0; !finished; run++ {
		if run > kills+40 {
			t.Fatalf("the tournament did not finish after %d runs", run)
		}
		cmd, lines := startChild(t, "TestTournamentCrashChild", "BACCARAT_TCRASH_DB="+path, "BACCARAT_TCRASH_RUN="+strconv.Itoa(run))
		// Kill a random while after the tournament is up again (its tables' leases lapse
		// first), unless enough kills have been made: then let it finish.
		var killAt <-chan time.Time
		stall := time.NewTimer(stallLimit)
	read:
		for {
			select {
			case <-stall.C:
				_ = cmd.Process.Signal(syscall.SIGKILL)
				t.Fatalf("run %d: the tournament made no progress for %s (last: %s)", run, stallLimit, lastLine)
			case l, ok := <-lines:
				if !ok {
					break read
				}
				if strings.HasPrefix(l, "ERR") {
					t.Fatalf("run %d: %s", run, l)
				}
				var phase string
				var seq uint64
				if n, _ := fmt.Sscanf(l, "T %s %d", &phase, &seq); n == 2 {
					if l != lastLine {
						stall.Reset(stallLimit)
						lastLine = l
					}
					finished = finished || phase == string(tournament.PhaseFinished)
					// Killed only once it runs: killed while its house bots register (the
					// window is 300 ms), it may start with too few entrants and be
					// cancelled, as it should be, and never finish.
					if killAt == nil && killed < kills && phase == string(tournament.PhaseRunning) {
						killAt = time.After(time.Duration(200+rng.IntN(700)) * time.Millisecond)
					}
				}
			case <-killAt:
				_ = cmd.Process.Signal(syscall.SIGKILL)
				killed++
				break read
			}
		}
		for range lines {
		}
		_ = cmd.Wait()
	}
	t.Logf("%d kills; the tournament finished", killed)
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := live.NewFakeClock(time.Now().Add(time.Minute))
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "checker"})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	checkTournamentBooks(t, db, h, "cup", clock.Now(), crashHands)
	interrupted := 0
	ids, _ := db.Tables(ctx)
	for _, id := range ids {
		recs, _ := db.Load(ctx, id, 1)
		for _, r := range recs {
			if r.Type == "interrupted" {
				interrupted++
			}
		}
	}
	t.Logf("%d rounds were under way when their host was killed, and resumed", interrupted)
}

// stallLimit is how long the crash test waits for a tournament that shows no progress
// before it fails, rather than waiting for the test binary's timeout.
const stallLimit = 30 * time.Second

// crashHands is the length of the crash test's sessions.
const crashHands = 30
