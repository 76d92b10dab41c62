package cluster

import (
	"bytes"
	"testing"
	"time"
)

func pair(t testing.TB) (a, b *sealer) {
	t.Helper()
	a, err := newSealer([]byte("a shared secret of the cluster"), "alpha")
	if err != nil {
		t.Fatal(err)
	}
	b, err = newSealer([]byte("a shared secret of the cluster"), "beta")
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

// TestSealedMessagesOpenOnlyAsSent: a message opens on the subject it was sealed for, once,
// from its sender, unchanged, near the time it was sent; anything else is refused.
func TestSealedMessagesOpenOnlyAsSent(t *testing.T) {
	a, b := pair(t)
	body := []byte(`{"from":"alpha","wallets":["wallet/ann/EUR"]}`)
	msg := a.seal("p.wallets", body)
	if bytes.Contains(msg, []byte("wallet/ann")) {
		t.Fatal("a sealed message shows its body")
	}
	sender, got, err := b.open("p.wallets", msg)
	if err != nil || sender != "alpha" || !bytes.Equal(got, body) {
		t.Fatalf("open: %q %q %v", sender, got, err)
	}
	if _, _, err := b.open("p.wallets", msg); err != errReplayed {
		t.Fatalf("the same message again: %v, want replayed", err)
	}
	other, _ := newSealer([]byte("another cluster's secret, not ours"), "alpha")
	flipped := append([]byte(nil), a.seal("p.wallets", body)...)
	flipped[len(flipped)-20] ^= 1
	renamed := a.seal("p.wallets", body)
	renamed[2] = 'x' // the sender's name: "xlpha"
	for _, c := range []struct {
		name, subject string
		msg           []byte
	}{
		{"moved to another subject", "p.accounts", a.seal("p.wallets", body)},
		{"sealed under another secret", "p.wallets", other.seal("p.wallets", body)},
		{"a bit of the body changed", "p.wallets", flipped},
		{"another sender named", "p.wallets", renamed},
		{"not sealed at all", "p.wallets", body},
		{"empty", "p.wallets", nil},
		{"cut short", "p.wallets", a.seal("p.wallets", body)[:30]},
	} {
		if _, _, err := b.open(c.subject, c.msg); err == nil {
			t.Errorf("%s: opened", c.name)
		}
	}
	old := a.now
	a.now = func() time.Time { return time.Now().Add(-2 * maxSkew) }
	stale := a.seal("p.wallets", body)
	a.now = old
	if _, _, err := b.open("p.wallets", stale); err != errStale {
		t.Errorf("sealed a minute ago: %v, want stale", err)
	}
}

// TestReplayWindowTakesOutOfOrderOnce: messages of one run handled out of order (several
// subscriptions) are each taken once; one older than the window is refused.
func TestReplayWindowTakesOutOfOrderOnce(t *testing.T) {
	a, b := pair(t)
	msgs := make([][]byte, 10)
	for i := range msgs {
		msgs[i] = a.seal("p.s", []byte{byte(i)})
	}
	for _, i := range []int{3, 1, 9, 0, 2, 8, 4, 7, 5, 6} {
		if _, _, err := b.open("p.s", msgs[i]); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	for i := range msgs {
		if _, _, err := b.open("p.s", msgs[i]); err != errReplayed {
			t.Fatalf("message %d again: %v", i, err)
		}
	}
	first := a.seal("p.s", []byte("first"))
	for range replayWindow {
		if _, _, err := b.open("p.s", a.seal("p.s", nil)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := b.open("p.s", first); err != errReplayed {
		t.Fatalf("a message older than the window: %v", err)
	}
}

func BenchmarkSealOpen(b *testing.B) {
	x, y := pair(b)
	body := bytes.Repeat([]byte("x"), 64<<10)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, _, err := y.open("p.table.t1.msg", x.seal("p.table.t1.msg", body)); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzOpen: whatever comes off the bus, open refuses it without a panic, and nothing opens
// that was not sealed under the secret.
func FuzzOpen(f *testing.F) {
	a, b := pair(f)
	f.Add([]byte(nil))
	f.Add(a.seal("p.s", []byte("hello")))
	f.Add([]byte{1, 5, 'a', 'l', 'p', 'h', 'a'})
	f.Fuzz(func(t *testing.T, msg []byte) {
		if _, _, err := b.open("p.s", msg); err == nil && !bytes.HasPrefix(msg, []byte{1, 5, 'a', 'l', 'p', 'h', 'a'}) {
			t.Fatalf("opened a message not sealed by alpha: %x", msg)
		}
	})
}
