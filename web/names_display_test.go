package web_test

import (
	"testing"
)

// TestTableNamesInOtherLanguages: a table created with names in the pages' languages serves
// them in the lobby and its snapshot; a name under a tag the pages do not speak, or longer
// than 40 characters, is refused with bad_request and makes no table.
func TestTableNamesInOtherLanguages(t *testing.T) {
	f := newFixture(t)
	spec := func(id string, names map[string]string) map[string]any {
		return map[string]any{"id": id, "name": "Tiger VIP", "names": names, "mode": "dealer", "config": map[string]any{"game": "mbs-tiger"}}
	}
	for _, c := range []struct {
		name  string
		names map[string]string
	}{
		{"a language the pages do not speak", map[string]string{"ja": "タイガー"}},
		{"a name of 41 characters", map[string]string{"zh-CN": "老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老虎老"}},
		{"an empty name", map[string]string{"ko": ""}},
	} {
		var e refusalBody
		if code := f.do("admin", "POST", "/api/admin/tables", spec("bad", c.names), &e); code != 400 || e.Code != "bad_request" {
			t.Errorf("%s: %d %+v, want 400 bad_request", c.name, code, e)
		}
	}
	var snap struct {
		Table struct{ Names map[string]string }
	}
	if f.do("ann", "GET", "/api/tables/bad", nil, &snap) != 404 {
		t.Error("a refused spec made a table")
	}
	names := map[string]string{"zh-CN": "老虎贵宾桌", "ko": "타이거 VIP", "th": "ไทเกอร์ วีไอพี", "vi": "Bàn Hổ VIP"}
	if code := f.do("admin", "POST", "/api/admin/tables", spec("vip", names), nil); code != 201 {
		t.Fatalf("create: %d", code)
	}
	var lobby []struct {
		ID    string
		Names map[string]string
	}
	f.do("ann", "GET", "/api/tables", nil, &lobby)
	found := false
	for _, tv := range lobby {
		if tv.ID == "vip" {
			found = true
			if tv.Names["zh-CN"] != "老虎贵宾桌" || tv.Names["vi"] != "Bàn Hổ VIP" || len(tv.Names) != 4 {
				t.Errorf("the lobby's names %v, want %v", tv.Names, names)
			}
		}
	}
	if !found {
		t.Fatal("the table is not in the lobby")
	}
	if f.do("ann", "GET", "/api/tables/vip", nil, &snap); snap.Table.Names["ko"] != "타이거 VIP" {
		t.Errorf("the snapshot's names %v", snap.Table.Names)
	}
}
