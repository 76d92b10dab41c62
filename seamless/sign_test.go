package seamless

import (
	"bytes"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSeamlessSignRFC4231: HMAC-SHA256 test case 2 of RFC 4231, written as the header is.
func TestSeamlessSignRFC4231(t *testing.T) {
	key, data := []byte("Jefe"), []byte("what do ya want for nothing?")
	const want = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
	if got := Sign(key, data); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	for _, c := range []struct {
		name   string
		secret []byte
		body   string
		sig    string
		ok     bool
	}{
		{"the signature", key, string(data), want, true},
		{"in capitals", key, string(data), strings.ToUpper(want), true},
		{"one byte of the body changed", key, "what do ya want for nothing!", want, false},
		{"another secret", []byte("Jeff"), string(data), want, false},
		{"an empty secret", nil, string(data), Sign(nil, data), false},
		{"a truncated signature", key, string(data), want[:62], false},
		{"a signature of the right length that is not hex", key, string(data), strings.Repeat("zz", 32), false},
		{"no signature", key, string(data), "", false},
	} {
		if got := Verify(c.secret, []byte(c.body), c.sig); got != c.ok {
			t.Errorf("Verify with %s = %v, want %v", c.name, got, c.ok)
		}
	}
}

// The worked example of README ("Game launch") and web/API.md (Operators), checked here so
// the documents never drift from the code: one secret, its two keys, a launch and a wallet
// call signed at the same second with the same nonce, and the wallet's answer.
var example = struct {
	secret, launchKey, walletKey       string
	time                               int64
	nonce, launchBody, launchSig       string
	balanceBody, balanceSig, answerSig string
}{
	secret:      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	launchKey:   "1d688382bc84a8999de688957d1c3cf00a8181f401c301d3e813718d514428c4",
	walletKey:   "e447ff49bf1b4df76623f3b79bec6ded632391baad27089da1b39d234cc08453",
	time:        1795000000, // 2026-11-18T11:06:40Z
	nonce:       "3f9c2a7e5b1d4c8f9a0b6e2d7c1f3a5b",
	launchBody:  `{"player":"p-1001","name":"Ann","currency":"EUR","language":"en","table":"tiger-eur"}`,
	launchSig:   "d7ebc7cfe5d4a9c75f6429a81fda3bd74c1e4367707c6684dc6b0a04d9f25d2d",
	balanceBody: `{"player":"p-1001","currency":"EUR"}`,
	balanceSig:  "644434c0a864c19ec24a84d434a8929f502c2a7f6a6282ebf802215024359764",
	answerSig:   "d6de7ba2c7ea535de2116b6be1f9a4d0072b0e5d9c70175bab9905d4bd666170",
}

func TestSeamlessSignTheDocumentedExample(t *testing.T) {
	secret, _ := hex.DecodeString(example.secret)
	launchKey, walletKey := DomainLaunch.Key(secret), DomainWallet.Key(secret)
	if got := hex.EncodeToString(launchKey); got != example.launchKey {
		t.Errorf("launch key %s, want %s", got, example.launchKey)
	}
	if got := hex.EncodeToString(walletKey); got != example.walletKey {
		t.Errorf("wallet key %s, want %s", got, example.walletKey)
	}
	launch := Stamp{Method: "POST", Path: "/api/operator/launch", Time: example.time, Nonce: example.nonce}
	if got := string(launch.Message([]byte(example.launchBody))); got != "POST\n/api/operator/launch\n1795000000\n"+example.nonce+"\n"+example.launchBody {
		t.Errorf("the launch's message %q", got)
	}
	h := http.Header{}
	if got := launch.Sign(h, launchKey, []byte(example.launchBody)); got != example.launchSig ||
		h.Get(TimestampHeader) != "1795000000" || h.Get(NonceHeader) != example.nonce || h.Get(SignatureHeader) != example.launchSig {
		t.Errorf("the launch's signature %s, headers %v; want %s", got, h, example.launchSig)
	}
	balance := Stamp{Method: "POST", Path: PathBalance, Time: example.time, Nonce: example.nonce}
	if got := Sign(walletKey, balance.Message([]byte(example.balanceBody))); got != example.balanceSig {
		t.Errorf("the balance call's signature %s, want %s", got, example.balanceSig)
	}
	if got := Sign(walletKey, AnswerMessage(200, example.balanceSig, []byte(`{"balance":100000}`))); got != example.answerSig {
		t.Errorf("the answer's signature %s, want %s", got, example.answerSig)
	}
}

// TestSeamlessOneSignatureOneProtocol: under one secret, a request signed for the wallet
// never verifies as a launch or the other way round, nor for another method, path, time,
// nonce or body; the keys differ from the secret and from each other.
func TestSeamlessOneSignatureOneProtocol(t *testing.T) {
	secret := []byte("one secret for both, 32 bytes!!!")
	wk, lk := DomainWallet.Key(secret), DomainLaunch.Key(secret)
	if bytes.Equal(wk, lk) || bytes.Equal(wk, secret) || bytes.Equal(lk, secret) {
		t.Fatal("the keys are not distinct")
	}
	now := time.Unix(1795000000, 0)
	body := []byte(`{"player":"p5","currency":"EUR"}`)
	st := Stamp{Method: "POST", Path: PathBalance, Time: now.Unix(), Nonce: "0123456789abcdef"}
	sig := Sign(wk, st.Message(body))
	if err := st.Check(wk, sig, body, now); err != nil {
		t.Fatalf("the request itself: %v", err)
	}
	for name, c := range map[string]struct {
		key  []byte
		st   Stamp
		body []byte
	}{
		"as a launch":                  {lk, Stamp{Method: "POST", Path: "/api/operator/launch", Time: st.Time, Nonce: st.Nonce}, body},
		"under the launch key":         {lk, st, body},
		"under the secret":             {secret, st, body},
		"as a GET":                     {wk, Stamp{Method: "GET", Path: st.Path, Time: st.Time, Nonce: st.Nonce}, body},
		"for /debit":                   {wk, Stamp{Method: "POST", Path: PathDebit, Time: st.Time, Nonce: st.Nonce}, body},
		"a second later":               {wk, Stamp{Method: "POST", Path: st.Path, Time: st.Time + 1, Nonce: st.Nonce}, body},
		"with another nonce":           {wk, Stamp{Method: "POST", Path: st.Path, Time: st.Time, Nonce: "0123456789abcdeF"}, body},
		"with a body one space longer": {wk, st, append(body, ' ')},
	} {
		if err := c.st.Check(c.key, sig, c.body, now); err == nil {
			t.Errorf("the wallet's signature verified %s", name)
		}
	}
}

// TestSeamlessStampWindow: a request is taken within MaxSkew of the reader's clock, either
// way, to the second, and the refusal says how far off it is.
func TestSeamlessStampWindow(t *testing.T) {
	key := DomainLaunch.Key([]byte("0123456789abcdef"))
	now := time.Unix(1795000000, 500_000_000) // half a second into its second
	for _, c := range []struct {
		secs int64 // the timestamp, from now's second
		ok   bool
		says string
	}{
		{0, true, ""},
		{-119, true, ""}, // 119.5 s behind
		{120, true, ""},  // 119.5 s ahead
		{-120, false, "2m0s behind"},
		{121, false, "2m0s ahead of"},
		{-38 * 60, false, "38m0s behind"},
	} {
		st := Stamp{Method: "POST", Path: "/x", Time: now.Unix() + c.secs, Nonce: "0123456789abcdef"}
		err := st.Check(key, Sign(key, st.Message(nil)), nil, now)
		if (err == nil) != c.ok || (err != nil && !strings.Contains(err.Error(), c.says)) {
			t.Errorf("a request stamped %+d s from now: %v, want ok=%v saying %q", c.secs, err, c.ok, c.says)
		}
	}
}

// TestSeamlessReadStamp: the headers' forms, each refused with bad_signature.
func TestSeamlessReadStamp(t *testing.T) {
	good := func() http.Header {
		return http.Header{TimestampHeader: {"1795000000"}, NonceHeader: {"0123456789abcdef"}, SignatureHeader: {strings.Repeat("ab", 32)}}
	}
	if st, sig, err := ReadStamp(good(), "POST", "/debit"); err != nil || st.Time != 1795000000 || st.Nonce != "0123456789abcdef" ||
		sig != strings.Repeat("ab", 32) || st.Method != "POST" || st.Path != "/debit" {
		t.Fatalf("well-formed headers: %+v %s %v", st, sig, err)
	}
	for name, change := range map[string]func(h http.Header){
		"no timestamp":             func(h http.Header) { h.Del(TimestampHeader) },
		"no nonce":                 func(h http.Header) { h.Del(NonceHeader) },
		"no signature":             func(h http.Header) { h.Del(SignatureHeader) },
		"a timestamp with a sign":  func(h http.Header) { h.Set(TimestampHeader, "+1795000000") },
		"a negative timestamp":     func(h http.Header) { h.Set(TimestampHeader, "-1") },
		"a timestamp in ms":        func(h http.Header) { h.Set(TimestampHeader, "1795000000000") },
		"a leading zero":           func(h http.Header) { h.Set(TimestampHeader, "01795000000") },
		"an RFC 3339 timestamp":    func(h http.Header) { h.Set(TimestampHeader, "2026-11-18T11:06:40Z") },
		"a timestamp with a space": func(h http.Header) { h.Set(TimestampHeader, "1795000000 ") },
		"two timestamps":           func(h http.Header) { h.Add(TimestampHeader, "1795000000") },
		"a nonce of 15":            func(h http.Header) { h.Set(NonceHeader, strings.Repeat("a", 15)) },
		"a nonce of 65":            func(h http.Header) { h.Set(NonceHeader, strings.Repeat("a", 65)) },
		"a nonce with a dot":       func(h http.Header) { h.Set(NonceHeader, "0123456789abcde.") },
		"a nonce with a slash":     func(h http.Header) { h.Set(NonceHeader, "0123456789abcde/") },
		"two nonces":               func(h http.Header) { h.Add(NonceHeader, "0123456789abcdef") },
		"a signature of 63 digits": func(h http.Header) { h.Set(SignatureHeader, strings.Repeat("a", 63)) },
		"a signature in base64":    func(h http.Header) { h.Set(SignatureHeader, strings.Repeat("A", 43)+"=") },
		"two signatures":           func(h http.Header) { h.Add(SignatureHeader, strings.Repeat("ab", 32)) },
	} {
		h := good()
		change(h)
		var re *RefusedError
		if _, _, err := ReadStamp(h, "POST", "/debit"); !errors.As(err, &re) || re.Code != CodeBadSignature || re.Message == "" {
			t.Errorf("%s: %v, want bad_signature", name, err)
		}
	}
	for _, n := range []string{strings.Repeat("a", 16), strings.Repeat("Z", 64), "A-z_09" + strings.Repeat("x", 10)} {
		h := good()
		h.Set(NonceHeader, n)
		if _, _, err := ReadStamp(h, "POST", "/debit"); err != nil {
			t.Errorf("nonce %q: %v", n, err)
		}
	}
}

// FuzzSeamlessReadStamp: any headers are read without a panic; what is taken has the
// documented forms, and its timestamp prints back as it came.
func FuzzSeamlessReadStamp(f *testing.F) {
	f.Add("1795000000", "0123456789abcdef", strings.Repeat("ab", 32))
	f.Add("0", strings.Repeat("-", 64), strings.Repeat("AB", 32))
	f.Add("99999999999999999999", "x", "")
	f.Fuzz(func(t *testing.T, ts, nonce, sig string) {
		h := http.Header{TimestampHeader: {ts}, NonceHeader: {nonce}, SignatureHeader: {sig}}
		st, got, err := ReadStamp(h, "POST", "/x")
		if err != nil {
			return
		}
		if strconv.FormatInt(st.Time, 10) != ts || st.Time < 0 || st.Nonce != nonce || got != sig || !validNonce(nonce) || len(sig) != 64 {
			t.Fatalf("took %q %q %q as %+v", ts, nonce, sig, st)
		}
		if err := st.Check([]byte("k"), sig, nil, time.Unix(st.Time, 0)); err == nil && sig != Sign([]byte("k"), st.Message(nil)) {
			t.Fatalf("a signature %s that is not the message's verified", sig)
		}
	})
}
