package tablejson

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/table"
)

// same fails unless AppendEvent writes what json.Marshal writes for e, or fails as it
// fails, leaving what came before untouched.
func same(t *testing.T, e *table.Event) {
	t.Helper()
	want, werr := json.Marshal(e)
	prefix := []byte("before ")
	got, err := AppendEvent(prefix, e)
	if fmt.Sprint(err) != fmt.Sprint(werr) {
		t.Fatalf("error %v, encoding/json %v", err, werr)
	}
	if err != nil {
		if string(got) != "before " {
			t.Fatalf("after an error it left %q", got)
		}
		return
	}
	if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("wrote\n%s\nencoding/json\n%s", got, want)
	}
}

// fuzzSource hands out the fuzz input as the values of an event; zeros once it runs out.
type fuzzSource struct{ b []byte }

func (s *fuzzSource) byte() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *fuzzSource) u64() uint64 {
	var x [8]byte
	n := int(s.byte() % 9) // short numbers are common
	for i := range n {
		x[i] = s.byte()
	}
	return binary.LittleEndian.Uint64(x[:])
}

func (s *fuzzSource) i64() int64 { return int64(s.u64()) }
func (s *fuzzSource) bool() bool { return s.byte()&1 == 1 }

func (s *fuzzSource) str() string {
	n := min(int(s.byte()%24), len(s.b))
	v := string(s.b[:n])
	s.b = s.b[n:]
	return v
}

func (s *fuzzSource) time() time.Time {
	if !s.bool() {
		return time.Time{}
	}
	t := time.Unix(s.i64()%(1<<40), int64(s.u64()%1e9))
	switch s.byte() % 4 {
	case 0:
		return t.UTC()
	case 1:
		return t.In(time.FixedZone("", int(int32(s.u64())%(30*3600))))
	}
	return t.In(time.FixedZone("X", 3600*int(s.byte()%27)-13*3600))
}

func (s *fuzzSource) money() baccarat.Money { return baccarat.Money(s.i64()) }

func (s *fuzzSource) card(invalid bool) baccarat.Card {
	c := s.byte()
	if !invalid {
		c %= baccarat.NumCards
	}
	return baccarat.Card(c)
}

func (s *fuzzSource) cards() []baccarat.Card {
	n := int(s.byte() % 4)
	if n == 0 {
		return nil
	}
	c := make([]baccarat.Card, n)
	invalid := s.byte() == 0xff
	for i := range c {
		c[i] = s.card(invalid)
	}
	return c
}

func (s *fuzzSource) wager() table.Wager {
	return table.Wager{ID: s.u64(), Round: s.u64(), Player: s.str(), Seat: s.str(), Bet: s.str(), Stake: s.money(),
		Odds: baccarat.Odds(s.i64()), Betting: int(s.i64()), RequestID: s.str(), PlacedBy: s.str(), Riding: s.bool(), Session: s.u64()}
}

// dealtCard is a dealt card read from JSON, as a journal's is: the only way to set one
// from outside the table.
func (s *fuzzSource) dealtCard() table.DealtCard {
	var d table.DealtCard
	if !s.bool() {
		return d
	}
	j := map[string]any{"position": baccarat.Position(s.byte() % 7).String(), "left": int(s.i64()),
		"hidden": s.bool(), "for": s.str()}
	if c := s.card(false); s.bool() {
		j["card"] = c.String()
	}
	b, _ := json.Marshal(j)
	if err := json.Unmarshal(b, &d); err != nil {
		panic(err)
	}
	return d
}

// result is a coup read from its notation; the zero RoundResult when the cards make none.
func (s *fuzzSource) result() table.RoundResult {
	var r table.RoundResult
	if !s.bool() {
		return r
	}
	hand := func() string {
		c := make([]string, 2+int(s.byte()%2))
		for i := range c {
			c[i] = s.card(false).String()
		}
		return strings.Join(c, " ")
	}
	b, _ := json.Marshal(map[string]string{"coup": "P " + hand() + " | B " + hand()})
	if json.Unmarshal(b, &r) != nil {
		return table.RoundResult{}
	}
	return r
}

func (s *fuzzSource) settlements() []table.Settlement {
	var st []table.Settlement
	for range s.byte() % 4 {
		st = append(st, table.Settlement{Wager: s.u64(), Player: s.str(), Bet: s.str(), Stake: s.money(),
			Outcome: games.Outcome(s.byte() % 6), Pays: s.str(), Odds: baccarat.Odds(s.i64()), Net: s.money(),
			Returned: s.money(), Rides: s.bool()})
	}
	return st
}

func (s *fuzzSource) detail() *table.Detail {
	if !s.bool() {
		return nil
	}
	d := &table.Detail{}
	for range s.byte() % 3 {
		d.Withdrawn = append(d.Withdrawn, s.wager())
	}
	d.Cards = s.cards()
	for range s.byte() % 3 {
		d.Prices = append(d.Prices, odds.Price{Bet: s.str(), Offered: s.bool(), Odds: baccarat.Odds(s.i64()),
			Win: odds.NewFraction(s.u64(), s.u64()), Refund: odds.NewFraction(s.u64()%10, s.u64()%10), Margin: odds.Margin(s.i64())})
	}
	d.Session = s.u64()
	if s.bool() {
		d.Shoe = &table.ShoeInfo{Number: s.u64(), Decks: int(s.i64()), Cards: int(s.i64()), CutCard: int(s.i64()),
			Order: s.cards(), Salt: s.str(), Live: s.bool()}
		if s.bool() {
			var c baccarat.Commitment
			copy(c[:], s.str())
			d.Shoe.Commitment = &c
		}
		if s.bool() {
			v := s.bool()
			d.Shoe.Verified = &v
		}
	}
	d.Player, d.Amount, d.Bet = s.str(), s.money(), s.str()
	if s.bool() {
		d.Limit = &table.Limit{Min: s.money(), Max: s.money()}
	}
	d.Count, d.Setting, d.Side = int(s.i64()), table.Setting(s.byte()%5), s.str()
	return d
}

// event builds an event from the fuzz input: any field set or not, any string (invalid
// UTF-8, control bytes, HTML characters, U+2028), numbers of every size, times in every
// zone and beyond year 9999, cards that are none of the 52.
func (s *fuzzSource) event() *table.Event {
	e := &table.Event{Seq: s.u64(), Type: table.EventType(s.byte() % 26), // 24 names, and two that are none At: s.time(), Round: s.u64(), Actor: s.str(),
		Role: table.Role(s.byte() % 6), Reason: s.str()}
	if s.bool() {
		w := s.wager()
		e.Wager = &w
	}
	e.Phase, e.Betting, e.Until = table.Phase(s.byte()%7), int(s.i64()), s.time()
	e.Card, e.Window, e.Certain = s.dealtCard(), s.bool(), s.bool()
	e.Result, e.Settlements = s.result(), s.settlements()
	e.Detail = s.detail()
	return e
}

// FuzzAppendEvent holds AppendEvent to json.Marshal on events built from the fuzz input.
func FuzzAppendEvent(f *testing.F) {
	f.Add([]byte("\x01\x05\x01\x00\x03ann"))
	f.Add(bytes.Repeat([]byte{0xff, 0x01, 0x80, 0xe2, 0x80, 0xa8, '<', '&', '"', '\\', 0x07}, 40))
	f.Add(bytes.Repeat([]byte{1}, 400))
	f.Add(bytes.Repeat([]byte{8, 0xff, 0x7f, 0x3c}, 200))
	f.Fuzz(func(t *testing.T, b []byte) {
		same(t, (&fuzzSource{b: b}).event())
	})
}

// TestAppendStringEscapesAsEncodingJSON covers each class of byte and rune encoding/json
// treats apart.
func TestAppendStringEscapesAsEncodingJSON(t *testing.T) {
	var all strings.Builder
	for c := range 0x80 {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "ann", all.String(), "zoë", "\u2028\u2029", "a\xffb", "\xe2\x80", "日本",
		"\U0001F0A1", "<script>&amp;", "\ufffd", "\x7f", "ends in \xc3"} {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("%q: wrote %s, encoding/json %s", s, got, want)
		}
	}
}

// TestAppendEventAllocations: the events a round writes by the dozen allocate nothing; a
// round_settled allocates only its coup's notation.
func TestAppendEventAllocations(t *testing.T) {
	w := table.Wager{ID: 7, Round: 3, Player: "ann", Seat: "ann", Bet: "banker", Stake: 100, Betting: 1}
	var card table.DealtCard
	if err := json.Unmarshal([]byte(`{"card":"9h","position":"P1","left":415}`), &card); err != nil {
		t.Fatal(err)
	}
	var res table.RoundResult
	if err := json.Unmarshal([]byte(`{"coup":"P 9h 9c | B 9d Ks"}`), &res); err != nil {
		t.Fatal(err)
	}
	settle := make([]table.Settlement, 21)
	for i := range settle {
		settle[i] = table.Settlement{Wager: uint64(i), Player: "ann", Bet: "tie", Stake: 100, Outcome: games.Win, Pays: "8:1", Net: 800, Returned: 900}
	}
	for _, tc := range []struct {
		e    table.Event
		want float64
	}{
		{table.Event{Seq: 1, Type: table.EvWagerPlaced, Round: 3, Actor: "ann", Role: table.RolePlayer, Wager: &w}, 0},
		{table.Event{Seq: 2, Type: table.EvCardDealt, Round: 3, Actor: "dealer", Role: table.RoleDealer, Phase: table.PhaseDealing, Card: card}, 0},
		{table.Event{Seq: 3, Type: table.EvBettingOpened, Round: 3, Phase: table.PhaseBetting, Betting: 1}, 0},
		{table.Event{Seq: 4, Type: table.EvRoundSettled, Round: 3, Result: res, Settlements: settle}, 4},
	} {
		buf := make([]byte, 0, 1<<14)
		same(t, &tc.e)
		if n := testing.AllocsPerRun(100, func() { AppendEvent(buf, &tc.e) }); n > tc.want {
			t.Errorf("%s: %v allocations, want at most %v", tc.e.Type, n, tc.want)
		}
	}
}

// fill sets every exported field reachable from v to a value that is not its zero, so that
// encoding/json writes it: a field added to an event, and not to AppendEvent, shows.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2024, 5, 1, 12, 0, 0, 5, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		fill(s.Index(0))
		fill(s.Index(1))
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.String:
		v.SetString("x<&>")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1) // 1 is a name in every enum, and a card
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	}
}

// TestEveryFieldIsWritten: an event with every field set, down to its wagers, settlements,
// shoe and prices, is written as encoding/json writes it.
func TestEveryFieldIsWritten(t *testing.T) {
	var e table.Event
	fill(reflect.ValueOf(&e).Elem())
	if err := json.Unmarshal([]byte(`{"card":"9h","position":"P3","left":5,"hidden":true,"for":"ann"}`), &e.Card); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"coup":"P 9h 9c | B 9d Ks"}`), &e.Result); err != nil {
		t.Fatal(err)
	}
	same(t, &e)
	if b, _ := json.Marshal(&e); !bytes.Contains(b, []byte(`"verified":true`)) || !bytes.Contains(b, []byte(`"margin":1`)) {
		t.Fatalf("the event does not have every field set: %s", b)
	}
}
