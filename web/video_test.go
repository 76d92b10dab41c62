package web_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/web"
)

// TestTableVideoInTheAPI: a table made with a video carries it in the lobby, in its snapshot
// and in its rules; a table without one carries none; a video out of range, or with a key
// spelt otherwise, is refused and no table is made.
func TestTableVideoInTheAPI(t *testing.T) {
	f := newFixture(t)
	want := live.Video{URL: "https://studio.example/t1/live.m3u8", WHEP: "https://studio.example/t1/whep", DelayMS: 3000}
	spec := map[string]any{"id": "studio", "name": "Studio", "mode": "dealer", "config": map[string]any{"game": "mbs-tiger"},
		"video": map[string]any{"url": want.URL, "whep": want.WHEP, "delay_ms": want.DelayMS}}
	var created web.TableView
	if code := f.do("admin", "POST", "/api/admin/tables", spec, &created); code != 201 || created.Video == nil || *created.Video != want {
		t.Fatalf("creating a table with video: %d %+v", code, created.Video)
	}

	var lobby []web.TableView
	f.do("", "GET", "/api/tables", nil, &lobby)
	got := map[string]*live.Video{}
	for _, v := range lobby {
		got[v.ID] = v.Video
	}
	if v := got["studio"]; v == nil || *v != want {
		t.Errorf("the lobby's studio video: %+v, want %+v", v, want)
	}
	if v, ok := got["tiger"]; !ok || v != nil {
		t.Errorf("the lobby's tiger (no video): %+v", v)
	}
	var snap web.SnapshotView
	if f.do("", "GET", "/api/tables/studio", nil, &snap); snap.Table.Video == nil || *snap.Table.Video != want {
		t.Errorf("the snapshot's video: %+v", snap.Table.Video)
	}
	if r := f.rules("studio"); r.Video == nil || *r.Video != want {
		t.Errorf("the rules' video: %+v", r.Video)
	}
	if r := f.rules("tiger"); r.Video != nil {
		t.Errorf("the rules of a table without video: %+v", r.Video)
	}

	for _, c := range []struct{ name, body, says string }{
		{"a delay over 30 s", `{"id":"v1","config":{"game":"mbs-tiger"},"video":{"url":"https://s.example/a.m3u8","delay_ms":30001}}`, "video.delay_ms"},
		{"a relative playlist", `{"id":"v2","config":{"game":"mbs-tiger"},"video":{"url":"/a.m3u8"}}`, "video.url"},
		{"no playlist", `{"id":"v3","config":{"game":"mbs-tiger"},"video":{"delay_ms":100}}`, "video.url"},
		{"the key Url", `{"id":"v4","config":{"game":"mbs-tiger"},"video":{"Url":"https://s.example/a.m3u8"}}`, `"Url"`},
		{"the delay twice", `{"id":"v5","config":{"game":"mbs-tiger"},"video":{"url":"https://s.example/a.m3u8","delay_ms":1,"delay_ms":2}}`, `"delay_ms"`},
	} {
		t.Run(c.name+" is refused and makes no table", func(t *testing.T) {
			status, b := f.raw("admin", "POST", "/api/admin/tables", nil, []byte(c.body))
			if e := decodeError(t, b); status != 400 || !strings.Contains(e.Message, c.says) {
				t.Errorf("%d %s, want 400 naming %s", status, b, c.says)
			}
			id := c.body[7:9]
			if code := f.do("", "GET", "/api/tables/"+id, nil, nil); code != 404 {
				t.Errorf("table %s after the refusal: %d, want 404", id, code)
			}
		})
	}
}

// hlsJS is the vendored player and the SHA-256 of hls.js 1.7.4's dist/hls.light.min.js as
// published on npm (PAGES.md names both): the file is served as it was published.
const (
	hlsJS       = "hls/hls.light.min.js"
	hlsJSSHA256 = "482cccb3a224554f64d8c2cf0d335dba4a3819bdb726afbfddfe15de4c277d82"
)

// TestVideoPlayerIsFetchedOnlyByAPageThatPlaysAStream: hls.js is in no page's bundle; the
// table page's bundle names it by its content-hashed URL (cached for a year), which serves
// the published file unchanged, and only the table page names it.
func TestVideoPlayerIsFetchedOnlyByAPageThatPlaysAStream(t *testing.T) {
	b, err := os.ReadFile("static/" + hlsJS)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != hlsJSSHA256 {
		t.Fatalf("%s is not hls.js 1.7.4's published file", hlsJS)
	}
	f := newFixture(t)
	script := regexp.MustCompile(`<script src="(/static/bundle\.[0-9a-f]{12}\.js)">`)
	hashed := regexp.MustCompile(`'/static/hls/hls\.light\.min\.[0-9a-f]{12}\.js'`)
	for _, page := range []string{"/table/tiger", "/", "/dealer/tiger", "/account", "/tournaments"} {
		_, html := f.fetch("GET", page)
		m := script.FindSubmatch(html)
		if m == nil {
			t.Fatalf("%s has no bundle", page)
		}
		_, js := f.fetch("GET", string(m[1]))
		if bytes.Contains(js, b[:200]) {
			t.Errorf("%s's bundle holds hls.js: it is for the pages that play a stream", page)
		}
		url := hashed.Find(js)
		if (url != nil) != (page == "/table/tiger") {
			t.Errorf("%s's bundle names hls.js: %q", page, url)
		}
		if url == nil {
			continue
		}
		resp, body := f.fetch("GET", strings.Trim(string(url), "'"))
		if resp.StatusCode != 200 || !bytes.Equal(body, b) || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d, %d bytes, Cache-Control %q", url, resp.StatusCode, len(body), resp.Header.Get("Cache-Control"))
		}
	}
}
