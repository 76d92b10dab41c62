package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestSecurityPagesRenewTheirToken: tokens expire (a player's after 12 hours), and a page
// in use keeps its player signed in: a player whose token is seven hours old opens the
// lobby, and the page keeps the token the server renews it with (X-Token-Refresh) in
// localStorage["baccarat.token"], in place of the old one.
func TestSecurityPagesRenewTheirToken(t *testing.T) {
	ctx := browser(t)
	dir := t.TempDir()
	cfg := serveConfig{Tables: []live.Spec{{ID: "live", Name: "Live Tiger", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}}}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	key := []byte("the pages test's token secret 32")
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "p.db"), Config: path, Secret: hex.EncodeToString(key), Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	old := access.NewTokens(key).IssueAt(access.Account{ID: "demo", Role: access.RolePlayer}, time.Now().Add(-7*time.Hour))
	renewed := `((v) => v.startsWith('v3.player.demo.0.') && v !== ` + strconv.Quote(old) + `)(localStorage.getItem('baccarat.token') || '')`
	if err := chromedp.Do(ctx, chromedp.Navigate(s.web.URL()+"/?token="+old), waitJS(renewed, 20*time.Second)); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`localStorage.getItem('baccarat.token') || ''`))
		t.Fatalf("the page kept %q, want a renewed token in place of %q: %v", got, old, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`localStorage.getItem('baccarat.token')`))
	if err != nil {
		t.Fatal(err)
	}
	var me struct{ ID string }
	apiGet(t, s, got, "/api/me", &me)
	if me.ID != "demo" || !strings.HasPrefix(got, "v3.") {
		t.Fatalf("the renewed token %q reads as %+v", got, me)
	}
}
