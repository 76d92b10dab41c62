package main

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// imageBuildFlags are how the container image's binary is built (deploy/Containerfile,
// README "Deploying"): static, without cgo (the SQLite driver is pure Go), trimmed paths.
var imageBuildFlags = []string{"build", "-trimpath", "-ldflags=-s -w"}

// TestStaticBinaryAsTheImageRunsIt runs the binary the container image holds, as the image
// runs it: built with CGO_ENABLED=0 (CI builds it once for the image and names it in
// BACCARAT_IMAGE_BINARY; without that the test builds it), started with nothing of the
// host's environment but TMPDIR, in its data directory, as the image's ENTRYPOINT and CMD
// do on an empty base. It must be static (no ELF interpreter: there is no libc in the
// image), print its help, serve on 127.0.0.1:0, let 'backup' copy its database from another
// process while it serves, stop cleanly on SIGTERM, and leave a database and a copy that
// 'verify' finds clean.
func TestStaticBinaryAsTheImageRunsIt(t *testing.T) {
	bin := staticBinary(t)
	if runtime.GOOS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s has an ELF interpreter: it needs a libc the image does not have (build with CGO_ENABLED=0)", bin)
			}
		}
		f.Close()
	}
	data := t.TempDir() // the image's /data: its working directory and TMPDIR
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = data, []string{"TMPDIR=" + data}
		out, err := cmd.CombinedOutput()
		code := 0
		if err != nil {
			code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
		}
		return string(out), code
	}
	if out, code := run("--help"); code != 0 || !strings.Contains(out, "serve") || !strings.Contains(out, "backup") {
		t.Fatalf("%s --help: exit %d\n%s", bin, code, out)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", "127.0.0.1:0", "--db", "baccarat.db", "--no-tournaments")
	srv.Dir, srv.Env = data, []string{"TMPDIR=" + data}
	var logs bytes.Buffer
	srv.Stderr = &logs
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	first, err := bufio.NewReader(stdout).ReadString('\n')
	url, _, ok := strings.Cut(strings.TrimPrefix(first, "baccarat is serving at "), " ")
	if err != nil || !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("serve's first line %q (%v); logs:\n%s", first, err, logs.String())
	}
	go func() { _, _ = bufio.NewReader(stdout).WriteTo(new(bytes.Buffer)) }()
	resp, err := http.Get(url + "/api/tables")
	if err != nil {
		t.Fatal(err)
	}
	var tables []json.RawMessage
	err = json.NewDecoder(resp.Body).Decode(&tables)
	resp.Body.Close()
	if resp.StatusCode != 200 || err != nil || len(tables) == 0 {
		t.Fatalf("GET /api/tables: %d, %d tables, %v", resp.StatusCode, len(tables), err)
	}

	if out, code := run("backup", "--db", "baccarat.db", "--to", "copy.db"); code != 0 || !strings.Contains(out, "wrote copy.db") {
		t.Errorf("backup from another process while the static binary serves: exit %d\n%s", code, out)
	}
	_ = srv.Process.Signal(syscall.SIGTERM)
	if err := srv.Wait(); err != nil {
		t.Errorf("serve after SIGTERM: %v (want exit 0); logs:\n%s", err, logs.String())
	}
	for _, db := range []string{"baccarat.db", "copy.db"} {
		if out, code := run("verify", "--db", db); code != 0 {
			t.Errorf("verify %s: exit %d\n%s", db, code, out)
		}
	}
}

// staticBinary is the image's binary: BACCARAT_IMAGE_BINARY (CI's, the one it put in the
// image), else one built here as the image's is.
func staticBinary(t *testing.T) string {
	if bin := os.Getenv("BACCARAT_IMAGE_BINARY"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			t.Fatalf("BACCARAT_IMAGE_BINARY: %v", err)
		}
		return bin
	}
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gocmd); err != nil {
		if gocmd, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to build the image's static binary with (set BACCARAT_IMAGE_BINARY to test one built elsewhere)")
		}
	}
	bin := filepath.Join(t.TempDir(), "baccarat")
	cmd := exec.Command(gocmd, append(imageBuildFlags, "-o", bin, ".")...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	return bin
}
