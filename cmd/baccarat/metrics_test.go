package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestServeMetricsBusiness: serve wires the metrics into the host and the web server. After
// two wagers and a settled round at a EUR table, the real server's /metrics has the table's
// figures exactly, the lease it took and the log records it wrote.
func TestServeMetricsBusiness(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := json.Marshal(serveConfig{Tables: []live.Spec{
		{ID: "eur", Name: "Tiger €", Mode: live.ModeDealer, Currency: "EUR", Config: table.Config{Game: "mbs-tiger"}},
	}})
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "m.db"), Config: path, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	admin := s.links["admin"]
	var ann struct{ Token string }
	if code := postFor(t, s, admin, "/api/admin/accounts", map[string]any{"id": "ann", "name": "Ann", "role": "player"}, &ann); code != 201 {
		t.Fatalf("creating ann: %d", code)
	}
	if code := postFor(t, s, admin, "/api/admin/accounts/ann/credit", map[string]any{"amount": 50_000, "currency": "EUR"}, nil); code != 200 {
		t.Fatalf("crediting ann: %d", code)
	}
	command := func(cmd map[string]any) {
		t.Helper()
		if code := postFor(t, s, admin, "/api/tables/eur/commands", cmd, nil); code != 200 {
			t.Fatalf("%v: %d", cmd, code)
		}
	}
	command(map[string]any{"cmd": "new_shoe"})
	command(map[string]any{"cmd": "open"})
	for i, w := range []struct {
		bet   string
		stake int64
	}{{"banker", 1000}, {"tie", 300}} {
		if code := postFor(t, s, ann.Token, "/api/tables/eur/wagers", map[string]any{"bet": w.bet, "stake": w.stake, "request_id": fmt.Sprint("m", i)}, nil); code != 200 {
			t.Fatalf("ann's %s wager: %d", w.bet, code)
		}
	}
	command(map[string]any{"cmd": "close"})
	for _, c := range []string{"2h", "9c", "3d", "Kd"} { // Player 5, Banker a natural 9: banker 1:1, tie loses
		command(map[string]any{"cmd": "card", "card": c})
	}

	resp, err := http.Get(s.web.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(b)
	eur := `{currency="EUR",game="mbs-tiger",table="eur"} `
	for _, want := range []string{
		"baccarat_wagers_placed_total" + eur + "2",
		"baccarat_stakes_placed_minor_total" + eur + "1300",
		"baccarat_rounds_settled_total" + eur + "1",
		"baccarat_stakes_settled_minor_total" + eur + "1300",
		"baccarat_returned_minor_total" + eur + "2000", // takings: 1300 − 2000, the house lost 700
		`baccarat_lease_changes_total{lease="held"} 1`,
		`baccarat_operator_outbox_calls 0`,
		`baccarat_ready 1`,
	} {
		if !strings.Contains(text, "\n"+want) {
			t.Errorf("/metrics has no line starting %q", want)
		}
	}
	if strings.Contains(text, "baccarat_table_stalled{") {
		t.Error("a dealer's table is judged stalled or not: a dealer sets its pace")
	}
	if !strings.Contains(text, `baccarat_log_messages_total{level="INFO"} `) {
		t.Error("/metrics does not count the server's log records")
	}
	if t.Failed() {
		t.Log(text)
	}
}
