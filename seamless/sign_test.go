package seamless

import (
	"strings"
	"testing"
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
