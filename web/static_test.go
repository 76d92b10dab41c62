package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/web"
)

// rawClient sees the bytes as sent: it neither asks for gzip nor undoes it by itself.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// fetch GETs (or HEADs) path with headers ("Name: value") and reads the body as sent.
func (f *fixture) fetch(method, path string, headers ...string) (*http.Response, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.srv.URL()+path, nil)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := rawClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp, b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// header checks the answer's headers against want ("" for absent).
func header(t *testing.T, what string, resp *http.Response, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s: %s %q, want %q", what, k, got, v)
		}
	}
}

const gz = "Accept-Encoding: gzip, deflate, br"

func TestStaticPageIsCompressedAndRevalidated(t *testing.T) {
	f := newFixture(t)
	resp, zipped := f.fetch("GET", "/table/tiger", gz)
	if resp.StatusCode != 200 {
		t.Fatalf("the table page: %d", resp.StatusCode)
	}
	header(t, "the page, gzipped", resp, map[string]string{"Content-Encoding": "gzip", "Vary": "Accept-Encoding",
		"Cache-Control": "no-cache", "Content-Type": "text/html; charset=utf-8"})
	etag := resp.Header.Get("ETag")
	resp, plain := f.fetch("GET", "/table/tiger")
	header(t, "the page to a client without gzip", resp, map[string]string{"Content-Encoding": "", "Vary": "Accept-Encoding", "Cache-Control": "no-cache"})
	if !bytes.Equal(gunzip(t, zipped), plain) || !bytes.Contains(plain, []byte(`id="layout"`)) {
		t.Fatal("the gzipped page is not the page")
	}
	if etag == "" || etag == resp.Header.Get("ETag") {
		t.Fatalf("ETags: gzipped %q, identity %q: each encoding has its own", etag, resp.Header.Get("ETag"))
	}
	resp, body := f.fetch("GET", "/table/tiger", gz, "If-None-Match: "+etag)
	if resp.StatusCode != http.StatusNotModified || len(body) != 0 {
		t.Fatalf("If-None-Match the page's ETag: %d with %d bytes", resp.StatusCode, len(body))
	}
	header(t, "304", resp, map[string]string{"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding", "Content-Encoding": ""})
	if resp, _ := f.fetch("GET", "/table/tiger", "Accept-Encoding: gzip;q=0, br"); resp.Header.Get("Content-Encoding") != "" {
		t.Error("gzip sent to a client that refused it (q=0)")
	}
}

// TestStaticEveryHashedURLResolves: every URL a page names answers 200, compressed, cached
// for a year; the files' own names still answer (old pages, URLs scripts build), revalidated.
func TestStaticEveryHashedURLResolves(t *testing.T) {
	f := newFixture(t)
	refs := regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`)
	seen := map[string]bool{}
	for _, page := range []string{"/", "/table/tiger", "/dealer/tiger", "/account", "/launch", "/tournaments", "/tournament/cup"} {
		_, html := f.fetch("GET", page)
		urls := refs.FindAllSubmatch(html, -1)
		if len(urls) != 2 {
			t.Errorf("%s names %d /static/ URLs, want a stylesheet and a script", page, len(urls))
		}
		for _, m := range urls {
			seen[string(m[1])] = true
		}
	}
	for url := range seen {
		resp, body := f.fetch("GET", url, gz)
		if resp.StatusCode != 200 || len(gunzip(t, body)) == 0 {
			t.Errorf("%s: %d", url, resp.StatusCode)
			continue
		}
		header(t, url, resp, map[string]string{"Cache-Control": "public, max-age=31536000, immutable", "Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
		if ct := resp.Header.Get("Content-Type"); ct != "text/javascript; charset=utf-8" && ct != "text/css; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", url, ct)
		}
	}
	for path, ct := range map[string]string{"/static/app.js": "text/javascript; charset=utf-8", "/static/style.css": "text/css; charset=utf-8",
		"/static/i18n/zh-CN.json": "application/json"} {
		resp, body := f.fetch("GET", path, gz)
		header(t, path, resp, map[string]string{"Cache-Control": "no-cache", "Content-Type": ct, "Content-Encoding": "gzip"})
		want, _ := os.ReadFile("static/" + strings.TrimPrefix(path, "/static/"))
		if !bytes.Equal(gunzip(t, body), want) {
			t.Errorf("%s is not the file", path)
		}
		if resp, _ := f.fetch("GET", path, gz, "If-None-Match: "+resp.Header.Get("ETag")); resp.StatusCode != http.StatusNotModified {
			t.Errorf("%s If-None-Match: %d", path, resp.StatusCode)
		}
	}
	resp, body := f.fetch("HEAD", "/static/app.js")
	if app, _ := os.ReadFile("static/app.js"); resp.StatusCode != 200 || len(body) != 0 || resp.ContentLength != int64(len(app)) {
		t.Errorf("HEAD /static/app.js: %d, %d bytes, Content-Length %d", resp.StatusCode, len(body), resp.ContentLength)
	}
	for _, path := range []string{"/static/", "/static/i18n/", "/static/app.000000000000.js", "/static/nope.js"} {
		if resp, _ := f.fetch("GET", path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
	}
}

// weight is what a first view of a page costs: requests and bytes of bodies.
type weight struct {
	requests int
	bytes    int
}

// TestStaticPageWeight measures a first view of each page before (each file its own
// request, uncompressed: the page as embedded, what it names, the English translations and
// a stylesheet a script adds) and now (the page, its two bundles and the translations,
// gzipped), and a second view now (the page and the translations revalidated, 304; the
// bundles from the cache without a request). Run with -v for the figures in the README.
func TestStaticPageWeight(t *testing.T) {
	f := newFixture(t)
	refs := regexp.MustCompile(`(?:src|href)="/static/([^"]+)"`)
	size := func(name string) int {
		b, err := os.ReadFile("static/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	for _, p := range []struct {
		path, file string
		added      string // a stylesheet a script of the page adds
	}{
		{"/table/tiger", "table.html", ""}, {"/", "lobby.html", "tournament.css"}, {"/dealer/tiger", "dealer.html", ""},
		{"/account", "account.html", ""}, {"/tournament/cup", "tournament.html", ""},
	} {
		page, _ := os.ReadFile("static/" + p.file)
		before := weight{2, len(page) + size("i18n/en.json")}
		for _, m := range refs.FindAllSubmatch(page, -1) {
			before = weight{before.requests + 1, before.bytes + size(string(m[1]))}
		}
		resp, html := f.fetch("GET", p.path, gz)
		etag := resp.Header.Get("ETag")
		after := weight{1, len(html)}
		var js []byte
		for _, m := range refs.FindAllSubmatch(gunzip(t, html), -1) {
			_, b := f.fetch("GET", "/static/"+string(m[1]), gz)
			after = weight{after.requests + 1, after.bytes + len(b)}
			if strings.HasSuffix(string(m[1]), ".js") {
				js = gunzip(t, b)
			}
		}
		resp, en := f.fetch("GET", "/static/i18n/en.json", gz)
		after = weight{after.requests + 1, after.bytes + len(en)}
		if p.added != "" {
			before = weight{before.requests + 1, before.bytes + size(p.added)}
			url := regexp.MustCompile(`/static/tournament\.[0-9a-f]{12}\.css`).Find(js)
			if url == nil {
				t.Fatalf("%s: the bundle does not name tournament.css by its hashed URL", p.path)
			}
			_, b := f.fetch("GET", string(url), gz)
			after = weight{after.requests + 1, after.bytes + len(b)}
		}
		again := weight{2, 0}
		for _, v := range []struct{ path, etag string }{{p.path, etag}, {"/static/i18n/en.json", resp.Header.Get("ETag")}} {
			if r, b := f.fetch("GET", v.path, gz, "If-None-Match: "+v.etag); r.StatusCode != http.StatusNotModified {
				t.Errorf("%s on a second view: %d", v.path, r.StatusCode)
			} else {
				again.bytes += len(b)
			}
		}
		t.Logf("%-16s before %3d KB in %2d requests → now %2d KB in %d; a second view %d KB in %d (304s)",
			p.path, before.bytes/1000, before.requests, after.bytes/1000, after.requests, again.bytes/1000, again.requests)
		if want := 4 + min(len(p.added), 1); after.requests != want || after.bytes*3 > before.bytes {
			t.Errorf("%s: %d requests and %d bytes, want %d requests and under a third of %d bytes", p.path, after.requests, after.bytes, want, before.bytes)
		}
	}
}

// logRecords is a log kept for a test to read.
type logRecords struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logRecords) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// records are the log's JSON lines, decoded.
func (l *logRecords) records(t *testing.T) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(l.buf.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// TestLongPollIsNotAWarning: a tournament page's long poll waits because it asked to; the
// request log writes it at debug, never WARN, however long it waited.
func TestLongPollIsNotAWarning(t *testing.T) {
	var log logRecords
	f := newFixture(t, func(o *web.Options) {
		o.Logger = slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	if code := f.do("admin", "POST", "/api/admin/tournaments", cupSpec(), nil); code != 201 {
		t.Fatalf("creating the tournament: %d", code)
	}
	waitPhase(t, f, "registering")
	var v tournamentView
	f.do("", "GET", "/api/tournaments/cup", nil, &v)
	done := make(chan int, 1)
	go func() { done <- f.do("", "GET", "/api/tournaments/cup?after="+itoa(v.Seq), nil, nil) }()
	time.Sleep(1500 * time.Millisecond) // past the second after which a request is slow
	f.do("bob", "POST", "/api/tournaments/cup/register", nil, nil)
	select {
	case code := <-done:
		if code != 200 {
			t.Fatalf("the long poll: %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the long poll did not answer")
	}
	var polls int
	for _, rec := range log.records(t) {
		if rec["msg"] == "request" && rec["level"] == "WARN" {
			t.Errorf("a warning: %v", rec)
		}
		if rec["msg"] == "request" && rec["level"] == "DEBUG" && rec["waiting"] == "long poll" {
			polls++
		}
	}
	if polls != 1 {
		t.Errorf("%d debug lines for the long poll, want 1", polls)
	}
}
