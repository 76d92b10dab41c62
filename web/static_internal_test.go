package web

import (
	"strings"
	"testing"
)

func TestAcceptsGzip(t *testing.T) {
	for _, c := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"gzip, deflate, br, zstd", true},
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", true},
		{"GZIP", true},
		{"x-gzip", true},
		{"identity", false},
		{"br", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"*", true},
		{"*;q=0", false},
		{"*, gzip;q=0", false},
		{"gzip;q=0, *", false},
		{"gzip;q=2", false},
		{"gzip;q=abc", false},
		{"deflate, gzip;q=0.5", true},
	} {
		if got := acceptsGzip([]string{c.header}); got != c.want {
			t.Errorf("Accept-Encoding: %q takes gzip: %v, want %v", c.header, got, c.want)
		}
	}
	if !acceptsGzip([]string{"br", "gzip"}) {
		t.Error("gzip in a second Accept-Encoding header")
	}
}

// FuzzAcceptsGzip: any header is read without a panic, and a gzip;q=0 added to it always
// refuses gzip.
func FuzzAcceptsGzip(f *testing.F) {
	for _, s := range []string{"gzip", "br;q=1.0, gzip;q=0.8", "*;q=0", "gzip;q=", ";;,,=", "gzip;q=NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		acceptsGzip([]string{h})
		if !strings.Contains(strings.ToLower(h), "gzip") && acceptsGzip([]string{h + ", gzip;q=0"}) {
			t.Fatalf("%q + gzip;q=0 takes gzip", h)
		}
	})
}

func TestETagMatches(t *testing.T) {
	for _, c := range []struct {
		header string
		want   bool
	}{
		{`"abc"`, true},
		{`W/"abc"`, true},
		{`"x", "abc"`, true},
		{`*`, true},
		{`"abc-gz"`, false},
		{`"ab"`, false},
		{``, false},
	} {
		if got := etagMatches([]string{c.header}, `"abc"`); got != c.want {
			t.Errorf("If-None-Match: %s matches \"abc\": %v, want %v", c.header, got, c.want)
		}
	}
}
