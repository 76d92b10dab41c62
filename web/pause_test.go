package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/web"
)

// TestThePitPausesAndClosesATableThroughTheCommandsRoute: pause, reopen and close_table go
// through POST /api/tables/{id}/commands, for the pit and an admin (who acts as the pit),
// never a dealer (README, "Decisions where the documents are silent") or a player. A paused
// table stays in the lobby, marked; a closed one leaves the players' lobby but not the
// staff's list, and its snapshot says so. The trail copies each from the journal.
func TestThePitPausesAndClosesATableThroughTheCommandsRoute(t *testing.T) {
	f := newFixture(t)
	send := func(who, tableID string, body map[string]any, wantStatus int, wantCode baccarat.Code) {
		t.Helper()
		var e apiError
		if code := f.do(who, "POST", "/api/tables/"+tableID+"/commands", body, &e); code != wantStatus || e.Code != wantCode {
			t.Fatalf("%s %v: %d %+v, want %d %s", who, body, code, e, wantStatus, wantCode)
		}
	}
	pause := map[string]any{"cmd": "pause", "reason": "staff break"}
	send("dealer", "tiger", pause, 403, "not_authorized")
	send("ann", "tiger", pause, 403, "not_authorized")
	send("pit", "tiger", map[string]any{"cmd": "pause"}, 400, "bad_request") // a pause says why
	send("pit", "tiger", pause, 200, "")
	lobby := func(who string) map[string]web.TableView {
		var list []web.TableView
		f.do(who, "GET", "/api/tables", nil, &list)
		out := map[string]web.TableView{}
		for _, v := range list {
			out[v.ID] = v
		}
		return out
	}
	if v, ok := lobby("")["tiger"]; !ok || !v.Paused || v.Closed {
		t.Fatalf("the lobby's paused table: %+v (listed %v)", v, ok)
	}
	var e apiError
	if code := f.do("dealer", "POST", "/api/tables/tiger/commands", map[string]any{"cmd": "open"}, &e); code != 409 || e.Code != "bad_state" ||
		!strings.Contains(e.Message, "paused by the pit") {
		t.Fatalf("a round opened at a paused table: %d %+v", code, e)
	}
	send("dealer", "tiger", map[string]any{"cmd": "close_table", "reason": "night"}, 403, "not_authorized")
	send("pit", "tiger", map[string]any{"cmd": "close_table", "reason": "end of the night"}, 200, "")
	for _, who := range []string{"", "ann", "admin"} {
		if _, ok := lobby(who)["tiger"]; ok {
			t.Fatalf("the closed table is in %q's lobby", who)
		}
	}
	var staff []web.AdminTable
	f.do("pit", "GET", "/api/admin/tables", nil, &staff)
	found := false
	for _, v := range staff {
		if v.ID == "tiger" {
			found = v.Closed && v.Health.Status == web.HealthStopped
		}
	}
	if !found {
		t.Fatalf("the staff's list has no closed tiger table, stopped: %+v", staff)
	}
	var snap struct {
		State struct{ Paused, Closed bool }
	}
	f.do("ann", "GET", "/api/tables/tiger", nil, &snap)
	if !snap.State.Paused || !snap.State.Closed {
		t.Fatalf("the closed table's snapshot: %+v", snap.State)
	}
	send("pit", "tiger", map[string]any{"cmd": "reopen"}, 409, "bad_state")
	// An admin acts as the pit, at any table.
	send("admin", "rws", pause, 200, "")
	send("admin", "rws", map[string]any{"cmd": "reopen"}, 200, "")
	f.dealer("rws", map[string]any{"cmd": "new_shoe"})
	f.dealer("rws", map[string]any{"cmd": "open"}) // reopened, the dealer deals again
	if _, err := backoffice.CatchUp(context.Background(), f.db); err != nil {
		t.Fatal(err)
	}
	events := map[string]int{}
	for _, en := range f.audit("?action=table.command") {
		var d struct{ Event string }
		_ = json.Unmarshal(en.Detail, &d)
		events[d.Event]++
	}
	if events["table_paused"] != 2 || events["table_reopened"] != 1 || events["table_closed"] != 1 {
		t.Fatalf("the trail's pauses, reopenings and closings: %v", events)
	}
}
