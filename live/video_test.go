package live_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestVideoCheck: a table's video takes an http or https playlist, an optional WHEP endpoint
// of the same kind and a delay of 0 to 30 s; anything else is refused naming the field.
func TestVideoCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		video *live.Video
		field string // in the refusal; "" passes
	}{
		{"no video passes", nil, ""},
		{"an https playlist passes", &live.Video{URL: "https://studio.example/t1/live.m3u8"}, ""},
		{"an http playlist with a port, WHEP and the longest delay passes",
			&live.Video{URL: "http://10.0.0.5:8080/t1.m3u8?k=a%20b", WHEP: "https://studio.example/whep/t1", DelayMS: live.MaxVideoDelayMS}, ""},
		{"a video without a playlist is refused", &live.Video{WHEP: "https://studio.example/whep"}, "video.url"},
		{"a relative URL is refused", &live.Video{URL: "/t1/live.m3u8"}, "video.url"},
		{"another scheme is refused", &live.Video{URL: "rtmp://studio.example/live"}, "video.url"},
		{"javascript is refused", &live.Video{URL: "javascript:alert(1)"}, "video.url"},
		{"a URL with a password is refused: every viewer reads it", &live.Video{URL: "https://u:p@studio.example/x.m3u8"}, "video.url"},
		{"a space is refused: percent-encode it", &live.Video{URL: "https://studio.example/a b.m3u8"}, "video.url"},
		{"a control character is refused", &live.Video{URL: "https://studio.example/a\x00.m3u8"}, "video.url"},
		{"non-ASCII is refused: percent-encode it", &live.Video{URL: "https://studio.example/桌.m3u8"}, "video.url"},
		{"a URL over 2048 bytes is refused", &live.Video{URL: "https://studio.example/" + strings.Repeat("a", 2048)}, "video.url"},
		{"a WHEP endpoint of another scheme is refused", &live.Video{URL: "https://s.example/x.m3u8", WHEP: "wss://s.example/whep"}, "video.whep"},
		{"a negative delay is refused", &live.Video{URL: "https://s.example/x.m3u8", DelayMS: -1}, "video.delay_ms"},
		{"a delay over 30 s is refused", &live.Video{URL: "https://s.example/x.m3u8", DelayMS: live.MaxVideoDelayMS + 1}, "video.delay_ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.video.Check()
			switch {
			case c.field == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.field != "" && err == nil:
				t.Errorf("taken; want a refusal naming %s", c.field)
			case c.field != "" && (baccarat.ErrorCode(err) != baccarat.CodeBadRequest || !strings.HasPrefix(err.Error(), c.field)):
				t.Errorf("refusal %v (code %s); want bad_request naming %s", err, baccarat.ErrorCode(err), c.field)
			}
		})
	}
}

// TestCreateTableWithVideo: the video is part of the table's spec, journalled with it and
// read back after a restart; a table whose video is out of range is not made at all.
func TestCreateTableWithVideo(t *testing.T) {
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	ctx := context.Background()
	bad := live.Spec{ID: "bad", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"},
		Video: &live.Video{URL: "https://s.example/x.m3u8", DelayMS: 60_000}}
	if err := h.Create(ctx, bad); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Fatalf("a delay of 60 s: %v, want bad_request", err)
	}
	if _, err := h.Snapshot("bad", ""); err == nil {
		t.Fatal("the refused table exists")
	}
	want := live.Video{URL: "https://s.example/t1.m3u8", WHEP: "https://s.example/whep", DelayMS: 2500}
	v := want
	if err := h.Create(ctx, live.Spec{ID: "studio", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}, Video: &v}); err != nil {
		t.Fatal(err)
	}
	h.Close()
	again := newHost(t, db, live.NewFakeClock(epoch))
	snap, err := again.Snapshot("studio", "")
	if err != nil {
		t.Fatal(err)
	}
	if snap.Spec.Video == nil || *snap.Spec.Video != want {
		t.Errorf("the video after a restart: %+v, want %+v", snap.Spec.Video, want)
	}
}
