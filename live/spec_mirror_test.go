package live_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestModeAndCurrencyHaveOneValue: a table's mode and currency live in its spec and, for the
// table to enforce them, in its configuration. Mirror is the one place that sets the two;
// they never disagree in a table that is made or loaded.
func TestModeAndCurrencyHaveOneValue(t *testing.T) {
	for _, c := range []struct {
		name string
		in   live.Spec
		want live.Spec // after Mirror; zero when it refuses
	}{
		{"the spec's mode and currency go into a configuration without them",
			live.Spec{Mode: live.ModeDealer, Currency: "EUR"},
			live.Spec{Mode: live.ModeDealer, Currency: "EUR", Config: table.Config{Mode: table.ModeDealer, Currency: "EUR"}}},
		{"a configuration's mode and currency go into a spec without them",
			live.Spec{Config: table.Config{Mode: table.ModeAuto, Currency: "JPY"}},
			live.Spec{Mode: live.ModeAuto, Currency: "JPY", Config: table.Config{Mode: table.ModeAuto, Currency: "JPY"}}},
		{"the same on both sides is taken",
			live.Spec{Mode: live.ModeAuto, Currency: "XXX", Config: table.Config{Mode: table.ModeAuto, Currency: "XXX"}},
			live.Spec{Mode: live.ModeAuto, Currency: "XXX", Config: table.Config{Mode: table.ModeAuto, Currency: "XXX"}}},
		{"neither side set stays unset", live.Spec{}, live.Spec{}},
		{"two modes are refused",
			live.Spec{Mode: live.ModeAuto, Currency: "EUR", Config: table.Config{Mode: table.ModeDealer}}, live.Spec{}},
		{"two currencies are refused",
			live.Spec{Mode: live.ModeAuto, Currency: "EUR", Config: table.Config{Currency: "USD"}}, live.Spec{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.in
			err := s.Mirror()
			refused := reflect.DeepEqual(c.want, live.Spec{}) && !reflect.DeepEqual(c.in, live.Spec{})
			if (err != nil) != refused {
				t.Fatalf("Mirror: %v", err)
			}
			if !refused && !reflect.DeepEqual(s, c.want) {
				t.Errorf("Mirror made %+v, want %+v", s, c.want)
			}
		})
	}
}

// TestSpecJSONKeepsModeAndCurrencyInBothPlaces: the spec record of a journal carries mode and
// currency at the top and in the configuration, as every release has written them; a spec
// of the first release (no mode or currency in its configuration) loads with both filled.
func TestSpecJSONKeepsModeAndCurrencyInBothPlaces(t *testing.T) {
	s := live.Spec{ID: "t1", Name: "T", Mode: live.ModeDealer, Currency: "EUR", Config: table.Config{Game: "mbs-tiger"}}
	if err := s.Mirror(); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	var top struct {
		Mode     string `json:"mode"`
		Currency string `json:"currency"`
		Config   struct {
			Mode     string `json:"mode"`
			Currency string `json:"currency"`
		} `json:"config"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	if top.Mode != "dealer" || top.Currency != "EUR" || top.Config.Mode != "dealer" || top.Config.Currency != "EUR" {
		t.Errorf("written as %s", b)
	}
	var old live.Spec
	v1 := `{"id":"t1","name":"T","config":{"game":"mbs-tiger","default_limit":{"min":0,"max":0}},"mode":"auto","currency":"XXX","schedule":{}}`
	if err := json.Unmarshal([]byte(v1), &old); err != nil {
		t.Fatal(err)
	}
	if err := old.Mirror(); err != nil || old.Config.Mode != table.ModeAuto || old.Config.Currency != "XXX" {
		t.Errorf("a first-release spec: %+v, %v", old.Config, err)
	}
}

// TestCreateRefusesTwoCurrencies: a table whose spec and configuration name different
// currencies is refused, and nothing is made; a mode and currency given on either side are
// taken, and the tables come back from their journals with the two agreeing.
func TestCreateRefusesTwoCurrencies(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	bad := live.Spec{ID: "two", Currency: "EUR", Config: table.Config{Game: "mbs-tiger", Currency: "USD"}}
	if err := h.Create(ctx, bad); err == nil {
		t.Fatal("a table with two currencies was made")
	}
	if head, err := db.Head(ctx, "two"); err != nil || head.Seq != 0 {
		t.Fatalf("the refused table was journalled: %+v, %v", head, err)
	}
	for _, s := range []live.Spec{
		{ID: "spec-side", Currency: "EUR", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}},
		{ID: "config-side", Config: table.Config{Game: "mbs-tiger", Mode: table.ModeDealer, Currency: "JPY"}},
	} {
		if err := h.Create(ctx, s); err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
	}
	h.Close()
	h2 := newHost(t, db, live.NewFakeClock(epoch))
	tables := h2.Tables(ctx)
	if len(tables) != 2 {
		t.Fatalf("%d tables", len(tables))
	}
	for _, ti := range tables {
		if s := ti.Spec; s.ID == "config-side" && (s.Mode != live.ModeDealer || s.Currency != "JPY") {
			t.Errorf("%s: the configuration's mode and currency were not taken: %q %q", s.ID, s.Mode, s.Currency)
		}
		if s := ti.Spec; s.Mode != s.Config.Mode || string(s.Currency) != s.Config.Currency || s.Mode == "" || s.Currency == "" {
			t.Errorf("%s: mode %q/%q, currency %q/%q", s.ID, s.Mode, s.Config.Mode, s.Currency, s.Config.Currency)
		}
	}
}
