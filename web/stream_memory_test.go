package web_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/web"
)

// TestStreamMemory measures what an idle authenticated table stream costs the server: it
// starts a real server (a SQLite store in a temporary directory, a dealer table), gives
// each stream an account of its own, opens the streams from a child process (this test
// binary again, as TestStreamMemoryClients) so that the clients' memory is not in the
// figure, waits for every snapshot, lets the streams go idle and reports, over the streams,
// the server's resident memory (VmRSS after - before, each read after five collections and
// debug.FreeOSMemory, as a server that has run a few minutes has collected), its live heap,
// its goroutine stacks and its goroutines.
//
//	BACCARAT_STREAM_MEMORY=1 go test ./web -run '^TestStreamMemory$' -v
//
// BACCARAT_STREAM_N sets the streams (default 4,000; several, comma-separated, run one
// after another). 20,000 streams need more than 20,000 open files in this process: the
// run skips, saying so, where the limit cannot be raised that far. BACCARAT_STREAM_PROFILE
// names a file for a heap profile of the idle streams, every allocation sampled (go tool
// pprof -sample_index=inuse_space): what the heap figure is made of.
func TestStreamMemory(t *testing.T) {
	if os.Getenv("BACCARAT_STREAM_MEMORY") == "" {
		t.Skip("set BACCARAT_STREAM_MEMORY=1 to measure what an idle stream costs")
	}
	if _, err := procRSS(); err != nil {
		t.Skipf("no /proc/self/status to read the resident memory from: %v", err)
	}
	counts := []int{4000}
	if s := os.Getenv("BACCARAT_STREAM_N"); s != "" {
		counts = counts[:0]
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				t.Fatalf("BACCARAT_STREAM_N=%q: want counts of streams", s)
			}
			counts = append(counts, n)
		}
	}
	for _, n := range counts {
		t.Run(strconv.Itoa(n)+" idle streams", func(t *testing.T) { measureIdleStreams(t, n) })
	}
}

// openFilesFor raises this process's open-file limit for n streams (and what the server
// holds besides), or says why it cannot.
func openFilesFor(n int) error {
	want := uint64(n + 200)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur >= want {
		return nil
	}
	if lim.Max < want {
		lim.Max = want // allowed only with CAP_SYS_RESOURCE
	}
	lim.Cur = want
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return fmt.Errorf("%d streams need %d open files, and the limit cannot be raised: %v", n, want, err)
	}
	return nil
}

// idleFigures is the server's state at one moment, read after collecting.
type idleFigures struct {
	rss, heap, stacks uint64
	goroutines        int
}

func settleAndRead(t *testing.T) idleFigures {
	t.Helper()
	for range 5 { // a goroutine's stack halves at most once a collection
		runtime.GC()
	}
	debug.FreeOSMemory()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	rss, err := procRSS()
	if err != nil {
		t.Fatal(err)
	}
	return idleFigures{rss: rss, heap: s[0].Value.Uint64(), stacks: s[1].Value.Uint64(), goroutines: runtime.NumGoroutine()}
}

// procRSS is VmRSS of /proc/self/status, in bytes.
func procRSS() (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS line")
}

func measureIdleStreams(t *testing.T, n int) {
	if err := openFilesFor(n); err != nil {
		t.Skip(err)
	}
	f := newFixture(t, func(o *web.Options) {
		o.Streams = web.StreamLimits{PerToken: 8, PerAddress: n + 8, Total: n + 8}
		o.RatePerAddress, o.AddressBurst = -1, 0 // every stream comes from 127.0.0.1
	})
	tokens := make([]string, n)
	for i := range tokens {
		id := "p" + strconv.Itoa(i)
		f.account(access.Account{ID: id, Role: web.RolePlayer})
		tokens[i] = f.tokens[id]
	}
	file := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(file, []byte(strings.Join(tokens, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	url := strings.Replace(f.srv.URL(), "http", "ws", 1) + "/api/tables/tiger/stream"
	// A few streams opened and closed first: the server's pools and code are warm when the
	// first figures are read.
	runClients(t, url, file, 16).close(t, func() int { return streamsOpen(t, f) })
	profile := os.Getenv("BACCARAT_STREAM_PROFILE")
	if profile != "" {
		defer func(r int) { runtime.MemProfileRate = r }(runtime.MemProfileRate)
		runtime.MemProfileRate = 1
	}
	before := settleAndRead(t)
	start := time.Now()
	cl := runClients(t, url, file, n)
	opened := time.Since(start)
	defer cl.close(t, func() int { return streamsOpen(t, f) })
	for deadline := time.Now().Add(30 * time.Second); streamsOpen(t, f) != n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams open, want %d", streamsOpen(t, f), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // the handshakes' goroutines have finished
	after := settleAndRead(t)
	if profile != "" {
		writeHeapProfile(t, profile)
	}
	per := func(a, b uint64) float64 { return (float64(a) - float64(b)) / float64(n) / 1024 }
	t.Logf("%d idle streams, opened in %v: %.1f KB of RSS a stream (%.0f MB in all, %.0f MB before); "+
		"heap %.1f KB, stacks %.1f KB, %.2f goroutines a stream",
		n, opened.Round(time.Millisecond), per(after.rss, before.rss), float64(after.rss)/(1<<20), float64(before.rss)/(1<<20),
		per(after.heap, before.heap), per(after.stacks, before.stacks), float64(after.goroutines-before.goroutines)/float64(n))
}

func writeHeapProfile(t *testing.T, name string) {
	out, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if err := pprof.WriteHeapProfile(out); err != nil {
		t.Fatal(err)
	}
}

// streamsOpen is the server's baccarat_websockets gauge.
func streamsOpen(t *testing.T, f *fixture) int {
	for _, line := range strings.Split(scrape(t, f), "\n") {
		if v, ok := strings.CutPrefix(line, "baccarat_websockets "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int(n)
		}
	}
	t.Fatal("no baccarat_websockets in /metrics")
	return 0
}

// clients is the child process holding the streams open.
type clients struct {
	cmd   *exec.Cmd
	stdin interface{ Close() error }
}

// runClients starts a child process that opens n streams (the first n tokens of file) and
// returns once each has received its first message.
func runClients(t *testing.T, url, file string, n int) *clients {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStreamMemoryClients$")
	cmd.Env = append(os.Environ(), "BACCARAT_STREAM_CLIENTS="+strconv.Itoa(n), "BACCARAT_STREAM_URL="+url, "BACCARAT_STREAM_TOKENS="+file)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if line := sc.Text(); line == "ready" {
			go func() {
				for sc.Scan() {
				}
			}()
			return &clients{cmd: cmd, stdin: in}
		} else if strings.HasPrefix(line, "failed") {
			in.Close()
			cmd.Wait()
			t.Fatalf("the clients: %s", line)
		}
	}
	in.Close()
	cmd.Wait()
	t.Fatal("the clients' process ended before its streams were open")
	return nil
}

// close ends the child process and waits for the server to see its streams closed.
func (c *clients) close(t *testing.T, open func() int) {
	c.stdin.Close()
	c.cmd.Wait()
	for deadline := time.Now().Add(30 * time.Second); open() != 0 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
}

// TestStreamMemoryClients is the child process of TestStreamMemory: it opens the streams,
// reads each one's first message, prints "ready" and holds them until its stdin closes. It
// reads nothing more: an idle table sends nothing.
func TestStreamMemoryClients(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("BACCARAT_STREAM_CLIENTS"))
	if n == 0 {
		t.Skip("the child process of TestStreamMemory")
	}
	b, err := os.ReadFile(os.Getenv("BACCARAT_STREAM_TOKENS"))
	if err != nil {
		fmt.Println("failed:", err)
		return
	}
	tokens := strings.Split(string(b), "\n")[:n]
	if err := openFilesFor(n); err != nil {
		fmt.Println("failed:", err)
		return
	}
	conns := make([]*websocket.Conn, n)
	var next atomic.Int64
	var failed atomic.Pointer[error]
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n && failed.Load() == nil; i = int(next.Add(1)) - 1 {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				c, _, err := websocket.Dial(ctx, os.Getenv("BACCARAT_STREAM_URL")+"?token="+tokens[i], nil)
				if err == nil {
					c.SetReadLimit(1 << 20)
					_, _, err = c.Read(ctx)
				}
				cancel()
				if err != nil {
					failed.Store(&err)
					return
				}
				conns[i] = c
			}
		}()
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		fmt.Println("failed:", *err)
		return
	}
	fmt.Println("ready")
	_, _ = bufio.NewReader(os.Stdin).ReadString(0) // until the parent closes it
	for _, c := range conns {
		c.CloseNow()
	}
}
