package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/seamless/refwallet"
)

const walletSecretHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

// lockedBuffer is a buffer a running command writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startOperatorWallet runs the command in-process until the test ends and returns its URL
// and its output.
func startOperatorWallet(t *testing.T, args ...string) (string, *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb lockedBuffer
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, &env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")},
			append([]string{"operator-wallet", "--addr", "127.0.0.1:0"}, args...))
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-exit; code != 0 {
			t.Errorf("operator-wallet exited %d: %s", code, errb.String())
		}
	})
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if u := url.FindString(out.String()); u != "" {
			return u, &out
		}
		select {
		case code := <-exit:
			exit <- code
			t.Fatalf("operator-wallet exited %d: %s%s", code, out.String(), errb.String())
		default:
		}
	}
	t.Fatalf("operator-wallet did not start: %s%s", out.String(), errb.String())
	return "", nil
}

// TestOperatorWalletCommand: the command serves the protocol on the database it is given,
// creates --player players once (a restart keeps their balances) and applies its fault
// switches.
func TestOperatorWalletCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "wallet.db")
	secret, _ := hex.DecodeString(walletSecretHex)
	ctx := context.Background()
	d := seamless.DebitRequest{Tx: "d-1", Player: "ann", Currency: "EUR", Amount: 400, Table: "tiger", Round: 1, Wager: 1}
	t.Run("first start", func(t *testing.T) {
		url, _ := startOperatorWallet(t, "--db", db, "--secret", walletSecretHex, "--player", "ann:EUR:1000")
		c := &seamless.Client{BaseURL: url, Secret: secret}
		if a, err := c.Debit(ctx, d); err != nil || a.Balance != 600 {
			t.Fatalf("debit: %+v, %v", a, err)
		}
	})
	t.Run("restart with a fault switch", func(t *testing.T) {
		t.Setenv("BACCARAT_WALLET_SECRET", walletSecretHex)
		url, out := startOperatorWallet(t, "--db", db, "--player", "ann:EUR:1000", "--fail-p", "1")
		if !strings.Contains(out.String(), "player ann EUR exists") {
			t.Errorf("the restart did not say it kept ann's balance: %s", out)
		}
		c := &seamless.Client{BaseURL: url, Secret: secret}
		var ue *seamless.OutcomeUnknownError
		if _, err := c.Balance(ctx, seamless.BalanceRequest{Player: "ann", Currency: "EUR"}); !errors.As(err, &ue) {
			t.Errorf("with --fail-p 1: %v, want no answer", err)
		}
		admin := &refwallet.Admin{BaseURL: url, Secret: secret}
		if err := admin.SetFaults(ctx, refwallet.Faults{}); err != nil {
			t.Fatal(err)
		}
		if a, err := c.Debit(ctx, d); err != nil || a.Balance != 600 {
			t.Errorf("the debit's repeat after a restart: %+v, %v; want its first answer", a, err)
		}
		rep, err := admin.Report(ctx)
		if err != nil || len(rep.Txs) != 1 || rep.Players[0].Balance != 600 || rep.Players[0].Opening != 1000 {
			t.Fatalf("report: %+v, %v", rep, err)
		}
	})
}

// TestOperatorWalletUsage: usage errors exit 2 and say what is wanted; --help exits 0.
func TestOperatorWalletUsage(t *testing.T) {
	t.Setenv("BACCARAT_WALLET_SECRET", "")
	for _, c := range []struct {
		args []string
		says string
	}{
		{nil, "--secret is required"},
		{[]string{"--secret", "xyz"}, "not hex"},
		{[]string{"--secret", "00112233"}, "at least 16"},
		{[]string{"--secret", walletSecretHex, "--fail-p", "2"}, "--fail-p 2: a probability is 0 to 1"},
		{[]string{"--secret", walletSecretHex, "--lose-p", "-0.5"}, "--lose-p"},
		{[]string{"--secret", walletSecretHex, "--slow-p", "0.5"}, "--slow-p without --slow"},
		{[]string{"--secret", walletSecretHex, "--slow", "-1s"}, "--slow -1s"},
		{[]string{"--secret", walletSecretHex, "--slow", "11m"}, "want 0 to 10m0s"},
		{[]string{"--secret", walletSecretHex, "--player", "ann:EUR"}, "ID:CURRENCY:BALANCE"},
		{[]string{"--secret", walletSecretHex, "--player", "ann:eur:5"}, "three capital letters"},
		{[]string{"--secret", walletSecretHex, "--player", "ann:EUR:-5"}, "balance -5"},
		{[]string{"--secret", walletSecretHex, "stray"}, "unexpected argument"},
	} {
		_, stderr, code := runCmd(t, append([]string{"operator-wallet"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.says) {
			t.Errorf("operator-wallet %v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.says)
		}
	}
	_, stderr, code := runCmd(t, "operator-wallet", "--help")
	if code != 0 || !strings.Contains(stderr, "rollback before debit") || !strings.Contains(stderr, "--lose-p") {
		t.Errorf("--help: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runCmd(t, "operator-wallet", "--secret", walletSecretHex, "--addr", "256.0.0.1:1"); code != 1 {
		t.Errorf("an address that cannot be bound: exit %d, %s", code, stderr)
	}
}
