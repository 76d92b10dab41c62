package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// A dealer table's live video in a real browser. Debian's ffmpeg makes an HLS stream of a
// studio clock (the time and a round counter burnt into the picture), the test serves it as
// a live encoder would (a segment is published once its second is over, each stamped with
// EXT-X-PROGRAM-DATE-TIME), Chromium plays it on the table's page at 390×844, and the demo
// dealer deals through the API; the last steps run on a desktop (1280×900). Screenshots:
// testdata/artifacts/pages-video-*.png.

// studio serves a pre-made HLS stream as if it were live: segment i shows the second from
// t0+i and is published at t0+i+1.
type studio struct {
	dir     string
	t0      time.Time
	count   int
	stopped atomic.Bool
	whep    atomic.Int32 // requests to /whep, which has no endpoint
	srv     *httptest.Server
}

const studioWindow = 6 // segments in the live playlist

func ffmpegOrSkip(t *testing.T) string {
	p, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Skip("no ffmpeg: install Debian's ffmpeg package (bash .ci/run does)")
	}
	return p
}

// studioFont is a font file for drawtext, or "" where there is none.
func studioFont() string {
	for _, f := range []string{"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
		"/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf"} {
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	if out, err := exec.Command("fc-match", "-f", "%{file}", "monospace").Output(); err == nil && len(out) > 0 {
		return string(out)
	}
	return ""
}

// startStudio makes seconds of 1-second segments whose first picture is the wall-clock time
// t0, a few seconds ago, so the stream is under way when the page opens.
func startStudio(t *testing.T, seconds int) *studio {
	t.Helper()
	ff := ffmpegOrSkip(t)
	st := &studio{dir: t.TempDir(), t0: time.Now().Truncate(time.Second).Add(-4 * time.Second), count: seconds}
	src := fmt.Sprintf("color=c=0x0b3d2e:size=320x180:rate=25:duration=%d", seconds)
	filter := ""
	if font := studioFont(); font != "" {
		epoch := fmt.Sprint(st.t0.Unix())
		text := func(y, size int, color, txt string) string {
			return fmt.Sprintf("drawtext=fontfile=%s:fontsize=%d:fontcolor=%s:x=(w-text_w)/2:y=%d:text='%s'", font, size, color, y, txt)
		}
		filter = text(40, 44, "white", `%{pts\:localtime\:`+epoch+`\:%H\\\:%M\\\:%S}.%{eif\:mod(trunc(t*10),10)\:d}`) + "," +
			text(110, 26, "0xe0bb62", `round %{eif\:1+trunc(t/6)\:d}`)
	} else {
		src = fmt.Sprintf("testsrc2=size=320x180:rate=25:duration=%d", seconds) // its own frame counter; the time is in the playlist
	}
	args := []string{"-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", src}
	if filter != "" {
		args = append(args, "-vf", filter)
	}
	args = append(args, "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-pix_fmt", "yuv420p",
		"-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
		"-hls_segment_filename", filepath.Join(st.dir, "seg%03d.ts"), filepath.Join(st.dir, "all.m3u8"))
	if out, err := exec.Command(ff, args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	st.srv = httptest.NewServer(st)
	t.Cleanup(st.srv.Close)
	return st
}

func (st *studio) url() string { return st.srv.URL + "/live.m3u8" }

// ServeHTTP answers the live playlist and the segments, to any origin (the page is another
// port); once stopped, nothing: the encoder is gone.
func (st *studio) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	if r.URL.Path == "/whep" {
		st.whep.Add(1)
	}
	if st.stopped.Load() {
		http.NotFound(w, r)
		return
	}
	if r.URL.Path != "/live.m3u8" {
		http.ServeFile(w, r, filepath.Join(st.dir, filepath.Base(r.URL.Path)))
		return
	}
	done := min(int(time.Since(st.t0)/time.Second), st.count)
	first := max(0, done-studioWindow)
	var b strings.Builder
	fmt.Fprintf(&b, "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:%d\n", first)
	for i := first; i < done; i++ {
		fmt.Fprintf(&b, "#EXT-X-PROGRAM-DATE-TIME:%s\n#EXTINF:1.000,\nseg%03d.ts\n",
			st.t0.Add(time.Duration(i)*time.Second).UTC().Format("2006-01-02T15:04:05.000Z"), i)
	}
	w.Header().Set("Content-Type", "application/vnd.apple.mpegurl")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write([]byte(b.String()))
}

// startVideoServer runs a dealer table with the studio's video (the demo dealer deals it) and
// an automatic one with the same video that takes bets for 3 s; the demo player has money. The
// studio has no WHEP endpoint (404): the page tries it, then plays the HLS playlist.
func startVideoServer(t *testing.T, st *studio) *server {
	t.Helper()
	dir := t.TempDir()
	video := &live.Video{URL: st.url(), WHEP: st.srv.URL + "/whep", DelayMS: 2000}
	cfg := serveConfig{DemoCredit: 1_000_000, Tables: []live.Spec{
		{ID: "studio", Name: "Studio Tiger", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}, Video: video},
		{ID: "studio-auto", Name: "Studio Auto", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"}, Video: video,
			Schedule: live.Schedule{Betting: 3 * time.Second, Card: 200 * time.Millisecond, Result: time.Second}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "v.db"), Config: path, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// deal sends a dealer command and returns the server time of its first event.
func deal(t *testing.T, s *server, cmd map[string]any) time.Time {
	t.Helper()
	var out struct{ Events []struct{ At time.Time } }
	if code := postFor(t, s, s.links["dealer_token"], "/api/tables/studio/commands", cmd, &out); code != 200 || len(out.Events) == 0 {
		t.Fatalf("the dealer's %v: %d", cmd, code)
	}
	return out.Events[0].At
}

// watchStage records, in the page, each card as it appears on the stage and the result as it
// is shown, with the video's clock and the server's clock at that moment (ms).
const watchStage = `window.__stage = [];
new MutationObserver(() => {
  const note = (what) => __stage.push({what, video: BacTable.video.clock(), server: Bac.clock.now()});
  for (const c of document.querySelectorAll('#stage-view [data-card]')) if (!c.__noted) { c.__noted = true; note(c.dataset.card); }
  const r = document.querySelector('#result');
  if (r.dataset.winner && !r.__noted) { r.__noted = true; note('result:' + r.dataset.winner); }
}).observe(document.querySelector('#stage-view'), {childList: true, subtree: true, attributes: true});`

type stageNote struct {
	What   string
	Video  *float64
	Server float64
}

func (p *pagesCase) noted(what string) stageNote {
	p.t.Helper()
	var notes []stageNote
	p.eval(`window.__stage`, &notes)
	for _, n := range notes {
		if n.What == what {
			return n
		}
	}
	p.t.Fatalf("the stage never showed %s: %+v", what, notes)
	return stageNote{}
}

// msAt is a time in ms since the epoch, as the page counts.
func msAt(t time.Time) float64 { return float64(t.UnixMicro()) / 1000 }

// TestVideoStageWaitsForTheVideoAndBettingDoesNot: the page plays the dealer table's stream and
// measures its delay from the playlist's timestamps; "Place your bets" and "No more bets" show
// at once, the video lagging; a dealt card, the result and the roads show only when the video's
// clock reaches them; the switch gives the card view; a stream that stops leaves the cards as
// dealt and says the video is unavailable; at an automatic table the viewer's countdown ends a
// wager's round trip before the server closes.
func TestVideoStageWaitsForTheVideoAndBettingDoesNot(t *testing.T) {
	st := startStudio(t, 90)
	s := startVideoServer(t, st)
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("the phone", recordErrors(), phone)
	deal(t, s, map[string]any{"cmd": "new_shoe"})
	p.open("/table/studio", "en")
	step := func(name string, fn func(t *testing.T)) { pageStep(t, name, []*pagesCase{p}, fn) }

	step("the video plays (HLS, the WHEP endpoint refusing), its delay measured from the stream's timestamps", func(t *testing.T) {
		p.do("the video playing", waitJS(`document.querySelector('#conn').dataset.status === 'live' &&
			document.querySelector('#video').dataset.state === 'playing' && document.querySelector('#video').dataset.delaySource === 'stream'`, 30*time.Second),
			js(watchStage))
		var got struct {
			Delay, Shown, Server float64
			Player               string
		}
		p.eval(`({Delay: BacTable.video.delay().ms, Shown: BacTable.video.clock(), Server: Bac.clock.now(),
			Player: document.querySelector('#video').dataset.player})`, &got)
		// hls.js starts three segments behind the playlist's newest: two to five seconds.
		if got.Delay < 1000 || got.Delay > 8000 || got.Player != "hls.js" {
			t.Errorf("the video: %+v, want hls.js two to five seconds behind", got)
		}
		if st.whep.Load() == 0 {
			t.Error("the page never tried the WHEP endpoint")
		}
		p.screen("video-phone-playing")
	})

	var closedAt time.Time
	step("betting opens and closes by the server's clock, not the video's", func(t *testing.T) {
		openAt := deal(t, s, map[string]any{"cmd": "open"})
		p.do("Place your bets", waitJS(`document.querySelector('#phase').dataset.phase === 'betting' &&
			!document.querySelector('[data-bet="banker"]').disabled`, 5*time.Second))
		var video float64
		if p.eval(`BacTable.video.clock()`, &video); video >= msAt(openAt) {
			t.Errorf("the page waited for the video (%.0f) to show betting open (%.0f)", video, msAt(openAt))
		}
		p.do("a wager of 25 on the Banker", chromedp.Click(`[data-chip="2500"]`), chromedp.Click(`[data-bet="banker"]`),
			waitJS(`document.querySelector('[data-bet="banker"]').dataset.mine === '2500'`, 5*time.Second))
		closedAt = deal(t, s, map[string]any{"cmd": "close"})
		p.do("No more bets", waitJS(`document.querySelector('#phase').dataset.phase === 'closed' &&
			document.querySelector('[data-bet="banker"]').disabled`, 3*time.Second))
		if p.eval(`BacTable.video.clock()`, &video); video >= msAt(closedAt) {
			t.Errorf("No more bets showed only once the video (%.0f) reached the close (%.0f)", video, msAt(closedAt))
		}
		if code := postJSON(t, s, p.tok, "/api/tables/studio/wagers", map[string]any{"bet": "tie", "stake": 100}); code == 200 {
			t.Error("a wager after the close was taken")
		}
	})

	step("a dealt card waits on the stage until the video's clock reaches it", func(t *testing.T) {
		dealtAt := deal(t, s, map[string]any{"cmd": "card", "card": "9h"})
		p.do("the card in the server's state", waitJS(`(BacTable.S.state.cards || []).length === 1`, 3*time.Second))
		var held struct {
			Faces        int
			Video, Until float64
		}
		p.eval(`({Faces: document.querySelectorAll('#stage-view [data-card]').length, Video: BacTable.video.clock()})`, &held)
		if held.Faces != 0 || held.Video >= msAt(dealtAt) {
			t.Fatalf("the stage: %d cards with the video at %.0f, the card dealt at %.0f; want none until the video shows it",
				held.Faces, held.Video, msAt(dealtAt))
		}
		p.do("the card on the stage", waitJS(`document.querySelector('#player-cards [data-card="9h"]') !== null`, 12*time.Second))
		n := p.noted("9h")
		if n.Video == nil || *n.Video < msAt(dealtAt) || *n.Video > msAt(dealtAt)+600 {
			t.Errorf("9h showed with the video's clock at %v, dealt at %.0f: want from the deal to 0.6 s after", n.Video, msAt(dealtAt))
		}
		if lag := n.Server - msAt(dealtAt); lag < 1000 {
			t.Errorf("9h showed %.0f ms after it was dealt: the video is seconds behind", lag)
		}
		p.screen("video-phone-card")
	})

	step("the result, the wins and the roads wait for the video too", func(t *testing.T) {
		var settledAt time.Time
		for _, c := range []string{"7d", "kc", "ks"} { // P 9h Kc: a natural 9 beats B 7d Ks
			settledAt = deal(t, s, map[string]any{"cmd": "card", "card": c})
		}
		p.do("the result in the server's state", waitJS(`BacTable.S.state.phase === 'settled'`, 3*time.Second))
		var early struct {
			Winner string
			Beads  int
		}
		p.eval(`({Winner: document.querySelector('#result').dataset.winner || '', Beads: document.querySelectorAll('#road-strip [data-strip="bead_plate"] .bead').length})`, &early)
		if early.Winner != "" || early.Beads != 0 {
			t.Errorf("before the video shows it: result %q and %d bead marks, want none", early.Winner, early.Beads)
		}
		p.do("the result on the stage", waitJS(`document.querySelector('#result').dataset.winner === 'player' &&
			document.querySelector('#road-strip [data-strip="bead_plate"] .bead') !== null`, 12*time.Second))
		if n := p.noted("result:player"); n.Video == nil || *n.Video < msAt(settledAt) {
			t.Errorf("the result showed with the video's clock at %v, settled at %.0f", n.Video, msAt(settledAt))
		}
		p.screen("video-phone-result")
	})

	step("on a phone the video, the bet spots and the chips fit one screen", func(t *testing.T) {
		var box struct{ Video, Spots, Chips, Screen float64 }
		p.eval(`(() => { const b = (s) => document.querySelector(s).getBoundingClientRect();
			return {Video: b('#video-player').top, Spots: b('[data-bet="banker"]').top, Chips: b('#chips').bottom, Screen: innerHeight}; })()`, &box)
		if !(box.Video < box.Spots && box.Chips <= box.Screen) {
			t.Errorf("the phone's first screen: video at %.0f, spots at %.0f, chips end at %.0f of %.0f", box.Video, box.Spots, box.Chips, box.Screen)
		}
	})

	step("the switch shows the card view and back", func(t *testing.T) {
		p.do("the card view", chromedp.Click(`#video-switch`), waitJS(`!document.querySelector('#stage-view').dataset.video &&
			document.querySelector('#video-switch').getAttribute('aria-pressed') === 'true'`, 3*time.Second))
		p.screen("video-phone-cards")
		p.do("the video again", chromedp.Click(`#video-switch`), waitJS(`document.querySelector('#stage-view').dataset.video === 'on'`, 3*time.Second))
		p.do("a desktop from here on", desktop)
		p.shot("video-desktop-result")
	})

	step("a stream that stops: the video is unavailable, the cards show as dealt", func(t *testing.T) {
		st.stopped.Store(true)
		p.do("the fallback", waitJS(`document.querySelector('#video').dataset.state === 'unavailable' &&
			document.querySelector('#video-status').textContent.startsWith('The video is unavailable')`, 20*time.Second))
		deal(t, s, map[string]any{"cmd": "open"})
		deal(t, s, map[string]any{"cmd": "close"})
		dealtAt := deal(t, s, map[string]any{"cmd": "card", "card": "2c"})
		p.do("the card at once", waitJS(`document.querySelector('#player-cards [data-card="2c"]') !== null`, 3*time.Second))
		if n := p.noted("2c"); n.Server-msAt(dealtAt) > 1500 {
			t.Errorf("without video 2c showed %.0f ms after it was dealt", n.Server-msAt(dealtAt))
		}
		p.shot("video-desktop-unavailable")
	})

	step("at an automatic table the viewer's betting ends a wager's round trip before the server's", func(t *testing.T) {
		p.open("/table/studio-auto", "en")
		p.do("betting open", waitJS(`document.querySelector('#conn').dataset.status === 'live' && !!BacTable.S.state && BacTable.S.state.bet_open &&
			document.querySelector('#phase').dataset.phase === 'betting'`, 15*time.Second))
		p.do("watch the close", js(`window.__closed = null; const ph = document.querySelector('#phase');
			new MutationObserver(() => { if (ph.dataset.phase === 'closed' && !__closed) __closed = {server: Bac.clock.now(), until: Date.parse(BacTable.S.state.until),
				open: BacTable.S.state.bet_open, margin: BacTable.video.margin(), countdown: document.querySelector('#countdown').textContent}; })
			.observe(ph, {attributes: true});`),
			waitJS(`window.__closed !== null`, 10*time.Second))
		var c struct {
			Server, Until, Margin float64
			Open                  bool
			Countdown             string
		}
		p.eval(`window.__closed`, &c)
		if !c.Open || c.Countdown != "" || c.Margin < 300 || c.Until-c.Server < c.Margin-150 {
			t.Errorf("No more bets for the viewer: %+v; want it while the server still takes bets, a round trip (%.0f ms) before it closes", c, c.Margin)
		}
	})
}

// TestVideoSyncRulesWithFixedTimes: the page's sync rules as pure functions of fixed times
// (table-video.js, Bac.videoSync), run in the browser.
func TestVideoSyncRulesWithFixedTimes(t *testing.T) {
	s := startServer(t)
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("the table page", recordErrors(), desktop)
	p.open("/table/tiger", "en")
	p.do("loaded", waitJS(`!!(window.Bac && Bac.videoSync && window.BacTable)`, 15*time.Second))
	for _, c := range []struct{ name, expr, want string }{
		{"the stage is the last frame at or before the video's clock", `[0, 1, 2, 4, 9].map((at) => Bac.videoSync.frameAt([{at: 1}, {at: 2}, {at: 2}, {at: 5}], at)).join(' ')`, "-1 0 2 2 3"},
		{"the stream's timestamp gives the delay", `JSON.stringify(Bac.videoSync.delayOf(10000, 7000, 500))`, `{"ms":3000,"source":"stream"}`},
		{"without a timestamp the operator's delay", `JSON.stringify(Bac.videoSync.delayOf(10000, null, 500))`, `{"ms":500,"source":"configured"}`},
		{"a delay over 30 s is not believed", `JSON.stringify(Bac.videoSync.delayOf(100000, 60000, 500))`, `{"ms":500,"source":"configured"}`},
		{"a picture a little ahead of the clock is no delay", `JSON.stringify(Bac.videoSync.delayOf(10000, 10400, 500))`, `{"ms":0,"source":"stream"}`},
		{"the viewer's deadline is the close less a round trip", `String(Bac.videoSync.viewerDeadline(10000, 300))`, "9700"},
		{"betting open at the server: Place your bets", `Bac.videoSync.bannerState({round: 2, phase: 'betting', bet_open: true}, {round: 1, phase: 'settled'}, false).phase`, "betting"},
		{"betting over for the viewer: No more bets", `Bac.videoSync.bannerState({round: 2, phase: 'betting', bet_open: true}, {round: 2, phase: 'betting', bet_open: true}, true).phase`, "closed"},
		{"closed at the server, open on the video: No more bets", `Bac.videoSync.bannerState({round: 2, phase: 'closed'}, {round: 2, phase: 'betting', bet_open: true}, false).phase`, "closed"},
		{"dealing at the server, the video an earlier round: No more bets", `Bac.videoSync.bannerState({round: 3, phase: 'dealing'}, {round: 2, phase: 'settled'}, false).phase`, "closed"},
		{"a result the video has not shown is not told", `Bac.videoSync.bannerState({round: 2, phase: 'settled'}, {round: 2, phase: 'dealing'}, false).phase`, "dealing"},
		{"an interruption is the server's", `Bac.videoSync.bannerState({round: 2, phase: 'dealing', interrupted: true}, {round: 2, phase: 'betting', bet_open: true}, false).interrupted`, "true"},
		{"a result of another round is not the stage's", `String(Bac.videoSync.resultOf({round: 2, phase: 'settled'}, {round: 3}, null, {round: 2, x: 1}).x)`, "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got any
			p.t = t
			p.eval(c.expr, &got)
			if fmt.Sprint(got) != c.want {
				t.Errorf("%s = %v, want %s", c.expr, got, c.want)
			}
		})
	}
	p.t = t
	p.noErrors()
	var state string
	if p.eval(`document.querySelector('#video').hidden + ' ' + BacTable.video.state`, &state); state != "true off" {
		t.Errorf("a table without video: #video hidden and state %q, want \"true off\"", state)
	}
}

// TestVideoServeConfigOutOfRange: a config whose table's video is out of range starts nothing,
// naming the field.
func TestVideoServeConfigOutOfRange(t *testing.T) {
	dir := t.TempDir()
	cfg := serveConfig{Tables: []live.Spec{
		{ID: "fine", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}, Video: &live.Video{URL: "https://s.example/a.m3u8"}},
		{ID: "slow", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}, Video: &live.Video{URL: "https://s.example/b.m3u8", DelayMS: 45_000}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "v.db"), Config: path, Demo: demoTournaments{Off: true}}
	err := s.Start(context.Background())
	t.Cleanup(s.Close)
	if err == nil || !strings.Contains(err.Error(), "table slow: video.delay_ms is 45000") {
		t.Fatalf("start: %v, want the slow table's video.delay_ms refused", err)
	}
}
