package live

import (
	"net/url"

	"github.com/tablehouse/baccarat"
)

// Video is a table's live video: the studio's stream the player's page plays above the bet
// spots. Video runs behind the table (capture, encoding, the player's buffer), so the page
// holds the cards, the result and the roads until the video shows them; betting is the
// server's and never waits for the video (web/static/PAGES.md, "Live video"). Every viewer
// of the table is given these URLs.
type Video struct {
	// URL is the HLS playlist (.m3u8), http or https: what every browser plays. A playlist
	// whose segments carry EXT-X-PROGRAM-DATE-TIME lets the page measure the video's delay.
	URL string `json:"url"`
	// WHEP is a WebRTC (WHEP) endpoint of the same picture, optional: played first where the
	// browser has WebRTC, HLS taking over if it fails.
	WHEP string `json:"whep,omitempty"`
	// DelayMS is how far the picture runs behind the table, in milliseconds, 0 to
	// MaxVideoDelayMS: the delay the page uses when the stream carries no timestamps (WHEP,
	// or a playlist without EXT-X-PROGRAM-DATE-TIME).
	DelayMS int `json:"delay_ms,omitempty"`
}

// MaxVideoDelayMS is the longest delay a table's video may be configured with: 30 s, beyond
// any live stream's (a few seconds for HLS, under one for WebRTC). A slip such as "5000"
// seconds for milliseconds is caught.
const MaxVideoDelayMS = 30_000

// maxVideoURL is the longest stream URL taken, in bytes.
const maxVideoURL = 2048

// Check refuses a video out of its ranges, naming the field: an absent video (nil) passes.
func (v *Video) Check() error {
	if v == nil {
		return nil
	}
	if v.URL == "" {
		return baccarat.Errorf(baccarat.CodeBadRequest, "video.url: give the stream's HLS playlist (an http or https URL)")
	}
	if err := checkStreamURL("video.url", v.URL); err != nil {
		return err
	}
	if v.WHEP != "" {
		if err := checkStreamURL("video.whep", v.WHEP); err != nil {
			return err
		}
	}
	if v.DelayMS < 0 || v.DelayMS > MaxVideoDelayMS {
		return baccarat.Errorf(baccarat.CodeBadRequest, "video.delay_ms is %d: give 0 to %d (milliseconds)", v.DelayMS, MaxVideoDelayMS)
	}
	return nil
}

// checkStreamURL takes an absolute http or https URL with a host, written in printable ASCII
// (anything else percent-encoded), and no user name or password: every viewer reads it.
func checkStreamURL(field, s string) error {
	bad := len(s) > maxVideoURL
	for i := 0; i < len(s) && !bad; i++ {
		bad = s[i] <= ' ' || s[i] >= 0x7f
	}
	if !bad {
		u, err := url.Parse(s)
		bad = err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil
	}
	if bad {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s: give an http or https URL with a host, at most %d bytes of printable ASCII, without a user name or password",
			field, maxVideoURL)
	}
	return nil
}
