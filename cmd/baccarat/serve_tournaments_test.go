package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

func TestServeCashTableOfATournamentGameNeedsCashAndLogsItsEdge(t *testing.T) {
	for _, c := range []struct {
		name string
		cash bool
		want string
	}{
		{"SPEC 5 without \"cash\": true the server refuses to start", false, `needs "cash": true`},
		{"SPEC 5 with it, the server logs the exact player edge of each bet", true, `"banker":"+1.2351%"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := serveConfig{Tables: []live.Spec{{ID: "mbs-cash", Name: "MBS for cash", Mode: live.ModeAuto,
				Config: table.Config{Game: "mbs-tournament", Cash: c.cash}}}}
			b, _ := json.Marshal(cfg)
			path := filepath.Join(dir, "tables.json")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			var logs lockedBuffer
			s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "c.db"), Config: path, Demo: demoTournaments{Off: true},
				Log: slog.New(slog.NewJSONHandler(&logs, nil))}
			err := s.Start(context.Background())
			t.Cleanup(s.Close)
			if c.cash {
				if err != nil || !strings.Contains(logs.String(), c.want) {
					t.Fatalf("start: %v; logs:\n%s", err, logs.String())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("start: %v", err)
			}
		})
	}
}

func TestServeDefaultsRunADemoTournamentOfEachGameAndNoCashTableOfThem(t *testing.T) {
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(t.TempDir(), "d.db"), Demo: demoTournaments{Bots: 3}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	games := map[string]bool{}
	for _, v := range s.host.Tournaments() {
		games[v.Game] = v.Phase == "registering" && len(v.Config.Prizes) > 0 && v.Config.Guarantee > 0
	}
	for _, g := range []string{"mbs-tournament", "rws-no-commission", "mbs-dragon"} {
		if !games[g] {
			t.Errorf("SPEC 5 no demo tournament of %s open for registration: %v", g, games)
		}
	}
	for _, tb := range s.host.Tables(context.Background()) {
		if tb.Spec.Tournament == nil && (tb.Spec.Config.Game == "mbs-tournament" || tb.Spec.Config.Game == "rws-no-commission" || tb.Spec.Config.Game == "mbs-dragon") {
			t.Errorf("SPEC 5 a default cash table of %s", tb.Spec.Config.Game)
		}
	}
}
