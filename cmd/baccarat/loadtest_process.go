package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"
)

// The load tool's process: the server it starts beside its players, its CPU profile and its
// limit of open files.

// serverCommand makes the command that runs 'baccarat serve' with args: this program again
// (tests run the test binary, see TestServeChild).
var serverCommand = func(ctx context.Context, args ...string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return exec.CommandContext(ctx, exe, args...)
}

// startChildServer runs a server in a process of its own, as it runs in production: the load
// tool's thousands of clients then share the machine's cores with it, but not its
// scheduler and garbage collector. It returns the server's URL and admin token (read off
// what it prints when it is ready) and a function that stops it.
func startChildServer(ctx context.Context, args ...string) (base, admin string, stop func(), err error) {
	cmd := serverCommand(ctx, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", "", nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", "", nil, err
	}
	stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "baccarat is serving at "); ok {
				base, _, _ = strings.Cut(rest, " ")
			}
			if f := strings.Fields(line); len(f) == 3 && f[0] == "Admin" && f[1] == "token:" {
				admin = f[2]
				close(ready)
				break
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case <-ready:
		return base, admin, stop, nil
	case <-ctx.Done():
		stop()
		return "", "", nil, ctx.Err()
	case <-time.After(60 * time.Second):
		stop()
		return "", "", nil, fmt.Errorf("the server did not start: %s", strings.TrimSpace(stderr.String()))
	}
}

// startCPUProfile writes a CPU profile to path until the returned function is called (no
// profile when path is "").
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func raiseFileLimit(n int) {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) == nil && l.Cur < uint64(n) {
		l.Cur = min(uint64(n), l.Max)
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	}
}
