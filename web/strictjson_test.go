package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
)

// The types the checker is tried on: the bodies of the money routes, the table spec (with
// its schedule, which decodes itself), anything, and one with every feature a body type may
// use (nesting, pointers, slices and maps of structs, embedding, a "-" field, a field of any
// type, a type with its own decoder).
type strictInner struct {
	Min  int64          `json:"min"`
	Note string         `json:"note,omitempty"`
	Deep *strictInner   `json:"deep,omitempty"`
	Odds *baccarat.Odds `json:"odds,omitempty"`
}

type strictEmbedded struct {
	Tag   string `json:"tag"`
	Plain int
}

type strictBody struct {
	strictEmbedded
	Name    string                 `json:"name"`
	Inner   strictInner            `json:"inner"`
	List    []strictInner          `json:"list"`
	ByBet   map[string]strictInner `json:"by_bet"`
	Free    any                    `json:"free"`
	Hidden  int                    `json:"-"`
	Dash    int                    `json:"-,"`
	Untaged bool
}

var strictTypes = []reflect.Type{
	reflect.TypeFor[*wagerRequest](), reflect.TypeFor[*dealerCommand](), reflect.TypeFor[*live.Spec](),
	reflect.TypeFor[*strictBody](), reflect.TypeFor[*map[string]any](), reflect.TypeFor[*[]strictInner](),
}

// verdict is what a checker said: "" for nothing wrong, "malformed", or the fault and key.
type verdict struct{ fault, key string }

// fastVerdict runs strictKeys and reads its answer as a verdict.
func fastVerdict(t *testing.T, data []byte, typ reflect.Type) verdict {
	err := strictKeys(data, typ)
	var be *baccarat.Error
	switch {
	case err == nil:
		return verdict{}
	case errors.Is(err, errMalformed):
		return verdict{fault: "malformed"}
	case !errors.As(err, &be) || be.Code != baccarat.CodeBadRequest:
		t.Fatalf("%q as %v: %v is neither malformed nor a bad_request", data, typ, err)
	}
	for _, f := range []struct{ fault, says string }{
		{"twice", "is given twice"}, {"case", "names are exact"}, {"unknown", "is not a field this endpoint takes"},
	} {
		if strings.Contains(be.Message, f.says) {
			return verdict{f.fault, be.Message}
		}
	}
	t.Fatalf("%q as %v: a message that names no fault: %s", data, typ, be.Message)
	return verdict{}
}

// slowKeys is the checker written the obvious way, apart from strictKeys: encoding/json's
// own tokenizer, a map of the keys of each object, and the fields reflect.VisibleFields
// lists. It judges valid JSON only, and says what strictKeys's messages say.
func slowKeys(data []byte, typ reflect.Type) verdict {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return slowValue(dec, typ)
}

func slowValue(dec *json.Decoder, typ reflect.Type) verdict {
	tok, err := dec.Token()
	if err != nil {
		return verdict{fault: "malformed"}
	}
	typ = slowDeref(typ)
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, _ := dec.Token()
			key := k.(string)
			inner, v := slowField(typ, key)
			if v.fault != "" {
				return v
			}
			if seen[key] {
				return verdict{"twice", slowMessage("the key %s is given twice: send each key once", key)}
			}
			seen[key] = true
			if v := slowValue(dec, inner); v.fault != "" {
				return v
			}
		}
		_, _ = dec.Token()
	case json.Delim('['):
		var elem reflect.Type
		if typ != nil && (typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array) {
			elem = typ.Elem()
		}
		for dec.More() {
			if v := slowValue(dec, elem); v.fault != "" {
				return v
			}
		}
		_, _ = dec.Token()
	}
	return verdict{}
}

func slowMessage(format, key string) string {
	return baccarat.Errorf(baccarat.CodeBadRequest, format, quoteKey([]byte(key))).Message
}

// slowDeref is typ without pointers; nil for a value whose keys are not known.
func slowDeref(typ reflect.Type) reflect.Type {
	for typ != nil && typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ == nil || typ == reflect.TypeFor[live.Schedule]() {
		return typ
	}
	if typ.Kind() == reflect.Interface || reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Unmarshaler]()) ||
		reflect.PointerTo(typ).Implements(reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()) {
		return nil
	}
	return typ
}

// slowField is the type of the value under key in an object of typ, or the fault of key.
func slowField(typ reflect.Type, key string) (reflect.Type, verdict) {
	if typ == reflect.TypeFor[live.Schedule]() {
		for _, name := range []string{"betting", "bob_round", "card", "result", "window"} {
			if key == name {
				return nil, verdict{}
			}
		}
		return slowFault(key, "betting", "bob_round", "card", "result", "window")
	}
	if typ == nil || typ.Kind() != reflect.Struct {
		if typ != nil && typ.Kind() == reflect.Map {
			return typ.Elem(), verdict{}
		}
		return nil, verdict{}
	}
	var names []string
	for _, f := range reflect.VisibleFields(typ) {
		name, ok := slowJSONName(typ, f)
		if !ok {
			continue
		}
		if name == key {
			return f.Type, verdict{}
		}
		names = append(names, name)
	}
	return slowFault(key, names...)
}

func slowFault(key string, names ...string) (reflect.Type, verdict) {
	var folded []string
	for _, n := range names {
		if strings.EqualFold(n, key) {
			folded = append(folded, n)
		}
	}
	if len(folded) > 0 {
		slices.Sort(folded)
		return nil, verdict{"case", baccarat.Errorf(baccarat.CodeBadRequest, "the key %s is not a field of this body: names are exact, write %q", quoteKey([]byte(key)), folded[0]).Message}
	}
	return nil, verdict{"unknown", slowMessage("the key %s is not a field this endpoint takes (web/API.md lists each body's fields)", key)}
}

// slowJSONName is the name encoding/json gives f, a field VisibleFields found in typ: none
// for an unexported field, a "-" one, an embedded struct lending its fields, or a field
// reached through an embedded field that does not lend them.
func slowJSONName(typ reflect.Type, f reflect.StructField) (string, bool) {
	for i := 1; i < len(f.Index); i++ {
		via := typ.FieldByIndex(f.Index[:i])
		name, _, _ := strings.Cut(via.Tag.Get("json"), ",")
		if !via.Anonymous || name != "" || via.Tag.Get("json") == "-" {
			return "", false
		}
	}
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	ft := f.Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	switch {
	case tag == "-", !f.IsExported(), f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
		return "", false
	case name == "":
		return f.Name, true
	}
	return name, true
}

var strictSeeds = []string{
	`{"bet":"banker","stake":1000,"odds":"1.95","request_id":"b7f"}`,
	`{"bet":"banker","stake":100,"stake":100000}`,
	`{"bet":"banker","Stake":100000}`,
	`{"bet":"banker","ſtake":100000}`,
	`{"bet":"banker","st\u0061ke":1,"stake":2}`,
	`{"bet":"banker","stake":1,"request_id":"a","REQUEST_ID":"b"}`,
	`{"cmd":"correct","cards":["7h","Kd"],"reason":"x"}`,
	`{"cmd":"set_limit","bet":"tie","min":1,"max":2,"max":3}`,
	`{"id":"t","config":{"game":"mbs-tiger","Game":"x"},"schedule":{"betting":"15s"}}`,
	`{"id":"t","schedule":{"betting":"15s","Betting":"1s"}}`,
	`{"id":"t","schedule":{"betting":"15s","betting":"1s"}}`,
	`{"id":"t","config":{"limits":{"tie":{"min":1,"max":2},"Tie":{"min":1,"max":2}}}}`,
	`{"tag":"a","Plain":1,"name":"n","inner":{"min":1,"deep":{"min":2,"MIN":3}},"list":[{"min":1},{"note":"a","note":"b"}]}`,
	`{"by_bet":{"tie":{"min":1},"tie":{"min":2}},"free":{"a":{"b":1,"b":2}}}`,
	`{"free":[{"x":1},{"x":1,"X":2}],"-":1,"Untaged":true,"Hidden":1}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}`,
	`[{"min":1,"min":2}]`, `{"x":"\ud800","x":"\udfff"}`, "{\"\xff\":1,\"\xfe\":2}", `{"a":-0.5e+3,"b":[true,false,null]}`,
	`{"a":01}`, `{"a":1.}`, `{"a":"\x"}`, `{"a":1}{"b":2}`, `{"a" 1}`, `{,}`, `[1,]`, ` {"a":tru} `, "",
}

// TestStrictKeysRefusesRepeatedAndInexactKeys: a key given twice in one object, or spelt other
// than its field (in any case, or by Unicode folding), is refused with the key named, in
// nested objects too; map keys are free but not repeated; the fast checker and its slow twin
// agree on every seed, and the twin catches a planted repeat on its own.
func TestStrictKeysRefusesRepeatedAndInexactKeys(t *testing.T) {
	cases := []struct {
		name, body string
		typ        reflect.Type
		fault      string
	}{
		{"an exact wager passes", strictSeeds[0], strictTypes[0], ""},
		{"a stake given twice", strictSeeds[1], strictTypes[0], "twice"},
		{"Stake for stake", strictSeeds[2], strictTypes[0], "case"},
		{"a long s folds to s in encoding/json, not here", strictSeeds[3], strictTypes[0], "case"},
		{"an escaped key is the key it spells", strictSeeds[4], strictTypes[0], "twice"},
		{"a nested case variant", strictSeeds[8], strictTypes[2], "case"},
		{"a schedule's case variant", strictSeeds[9], strictTypes[2], "case"},
		{"a schedule's repeated key", strictSeeds[10], strictTypes[2], "twice"},
		{"map keys differing in case are two keys", strictSeeds[11], strictTypes[2], ""},
		{"a case variant two levels down", strictSeeds[12], strictTypes[3], "case"},
		{"a repeated map key", strictSeeds[13], strictTypes[3], "twice"},
		{"a \"-\" field is no key, a \"-,\" one is", strictSeeds[14], strictTypes[3], "unknown"},
		{"a repeat after 16 keys", strictSeeds[15], strictTypes[4], "twice"},
		{"two invalid bytes are one key to encoding/json", strictSeeds[18], strictTypes[4], "twice"},
		{"a leading zero", strictSeeds[20], strictTypes[4], "malformed"},
		{"two objects", strictSeeds[23], strictTypes[4], "malformed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := fastVerdict(t, []byte(c.body), c.typ)
			if got.fault != c.fault {
				t.Fatalf("%s as %v: %+v, want %s", c.body, c.typ, got, c.fault)
			}
			if c.fault != "malformed" {
				if slow := slowKeys([]byte(c.body), c.typ); slow != got {
					t.Fatalf("%s as %v: fast %+v, slow %+v", c.body, c.typ, got, slow)
				}
			}
		})
	}
	t.Run("the slow twin catches a planted repeat", func(t *testing.T) {
		if v := slowKeys([]byte(`{"amount":1,"key":"k","amount":2}`), reflect.TypeFor[map[string]any]()); v.fault != "twice" {
			t.Fatalf("slow twin: %+v", v)
		}
	})
}

// TestScheduleKeysAreEveryField: a schedule's keys come from what DefaultSchedule writes, so
// every field of Schedule must be set in it.
func TestScheduleKeysAreEveryField(t *testing.T) {
	sh := shapeOf(reflect.TypeFor[live.Schedule]())
	if n := reflect.TypeFor[live.Schedule]().NumField(); len(sh.names) != n {
		t.Fatalf("schedule keys %v, want %d: set every field in live.DefaultSchedule", sh.names, n)
	}
}

// TestStrictKeysAllocatesNothing: a wager's body is checked without allocating (as the
// decoder that follows does not need to be).
func TestStrictKeysAllocatesNothing(t *testing.T) {
	body := []byte(`{"bet":"banker","stake":1000,"odds":"1.95","seat":"ann","request_id":"b7f-0001"}`)
	typ := reflect.TypeFor[*wagerRequest]()
	if err := strictKeys(body, typ); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = strictKeys(body, typ) }); n != 0 {
		t.Fatalf("%v allocations a check, want 0", n)
	}
}

// FuzzStrictJSON: on any input strictKeys does not panic; on valid JSON it says what its
// slow twin says; on anything json.Valid refuses it does not say yes.
func FuzzStrictJSON(f *testing.F) {
	for _, s := range strictSeeds {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		typ := strictTypes[int(which)%len(strictTypes)]
		got := fastVerdict(t, data, typ)
		if !json.Valid(data) {
			if got == (verdict{}) {
				t.Fatalf("%q as %v: passed, and it is not JSON", data, typ)
			}
			return
		}
		if want := slowKeys(data, typ); got != want {
			t.Fatalf("%q as %v: fast %+v, slow %+v", data, typ, got, want)
		}
	})
}
