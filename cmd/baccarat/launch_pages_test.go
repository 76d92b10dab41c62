package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBrowserLaunchPageSpeaksThePlayersLanguage: the page an operator's launch link opens says
// what went wrong, and what to do, in the player's language: a link without its code, one
// whose code the server refuses (used, old or made up).
func TestBrowserLaunchPageSpeaksThePlayersLanguage(t *testing.T) {
	s := startRefusalServer(t)
	p := &pagesCase{t: t, ctx: browser(t), s: s}
	latin := regexp.MustCompile(`[A-Za-z]{3,}`)
	for _, c := range []struct{ name, path, lang, want string }{
		{"no code, in Korean", "/launch", "ko", "코드가 없습니다"},
		{"a made-up code, in 简体中文", "/launch?code=made-up", "zh-CN", "请从娱乐场重新启动游戏"},
		{"a made-up code, in ไทย", "/launch?code=made-up", "th", "โปรดเปิดเกมอีกครั้งจากคาสิโน"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.t = t
			p.open(c.path, c.lang)
			p.do("the refusal", waitJS(`document.querySelector('#launch-status').className === 'alert'`, 10*time.Second))
			var got string
			p.eval(`document.querySelector('#launch-status').textContent`, &got)
			if !strings.Contains(got, c.want) || latin.MatchString(got) {
				t.Errorf("the launch page says %q; want %q and no English", got, c.want)
			}
		})
	}
	p.t = t
	p.screen("launch-refused-th")
}
