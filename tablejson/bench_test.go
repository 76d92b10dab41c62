package tablejson

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
)

// roundEvents plays rounds of 7 seats × 3 wagers at an RNG table and keeps their events.
func roundEvents(tb testing.TB, rounds int) []table.Event {
	t, err := table.New(table.Config{Game: "mbs-tournament"})
	if err != nil {
		tb.Fatal(err)
	}
	var events []table.Event
	apply := func(c table.Command) {
		ev, err := t.Apply(c)
		if err != nil {
			tb.Fatal(err)
		}
		for i := range ev {
			events = append(events, ev[i].Clone())
		}
	}
	src := baccarat.SeededSource(1)
	for range rounds {
		if !t.ShoeActive() {
			s := baccarat.NewShoe(8)
			s.Shuffle(src)
			apply(&table.NewShoe{Order: s.Order(), Salt: "00"})
		}
		apply(&table.Open{})
		for p := range 7 {
			for _, bet := range []string{"banker", "tie", "player_pair"} {
				apply(&table.Place{Player: "p" + strconv.Itoa(p+1), Bet: bet, Stake: 100, Available: 1 << 40})
			}
		}
		apply(&table.Close{})
		for t.Phase() == table.PhaseClosed || t.Phase() == table.PhaseDealing {
			apply(&table.Deal{})
		}
	}
	return events
}

// BenchmarkAppendEvent: the events of 7 × 3 rounds, by tablejson and by encoding/json.
func BenchmarkAppendEvent(b *testing.B) {
	const rounds = 100
	events := roundEvents(b, rounds)
	run := func(b *testing.B, enc func([]byte, *table.Event) []byte) {
		buf := make([]byte, 0, 1<<16)
		n := 0
		for b.Loop() {
			for i := range events {
				buf = enc(buf[:0], &events[i])
				n += len(buf)
			}
		}
		b.SetBytes(int64(n / b.N))
		b.ReportMetric(float64(rounds*b.N)/b.Elapsed().Seconds(), "rounds/s")
	}
	b.Run("tablejson", func(b *testing.B) {
		run(b, func(buf []byte, e *table.Event) []byte { buf, _ = AppendEvent(buf, e); return buf })
	})
	b.Run("encoding-json", func(b *testing.B) {
		run(b, func(buf []byte, e *table.Event) []byte { j, _ := json.Marshal(e); return append(buf, j...) })
	})
}

// TestRoundEventsAsEncodingJSON holds AppendEvent to json.Marshal on every event of real
// rounds, shoe changes included.
func TestRoundEventsAsEncodingJSON(t *testing.T) {
	for _, e := range roundEvents(t, 300) {
		same(t, &e)
	}
}

// TestSettlementsAsEncodingJSON holds AppendSettlements to json.Marshal on the settlements
// of real rounds, one player's and all of them, and on none.
func TestSettlementsAsEncodingJSON(t *testing.T) {
	n := 0
	for _, e := range roundEvents(t, 300) {
		for _, ss := range [][]table.Settlement{e.Settlements, e.Settlements[:min(1, len(e.Settlements))]} {
			want, err := json.Marshal(ss)
			if err != nil {
				t.Fatal(err)
			}
			if got := AppendSettlements(nil, ss); string(got) != string(want) {
				t.Fatalf("AppendSettlements wrote\n%s\nencoding/json\n%s", got, want)
			}
			n += len(ss)
		}
	}
	if n == 0 {
		t.Fatal("no settlement among the rounds' events")
	}
}

// TestPauseAndCloseAsEncodingJSON holds AppendEvent to json.Marshal on the pit's pause,
// reopening and closing of a real table (the close ends its RNG shoe, revealing it), and
// reads each back as a journal does: the same event, written the same again.
func TestPauseAndCloseAsEncodingJSON(t *testing.T) {
	tab, err := table.New(table.Config{Game: "mbs-tournament"})
	if err != nil {
		t.Fatal(err)
	}
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(3))
	pit := table.Header{Role: table.RolePit, Actor: "pit <1>", Reason: "staff break \u2028 \"now\""}
	var events []table.Event
	for _, c := range []table.Command{&table.NewShoe{Order: s.Order(), Salt: "00"}, &table.Pause{Header: pit},
		&table.Reopen{Header: table.Header{Role: table.RolePit, Actor: "pit"}}, &table.Pause{Header: pit}, &table.CloseTable{Header: pit}} {
		ev, err := tab.Apply(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
		for i := range ev {
			events = append(events, ev[i].Clone())
		}
	}
	seen := map[table.EventType]bool{}
	for i := range events {
		e := &events[i]
		seen[e.Type] = true
		same(t, e)
		b, _ := AppendEvent(nil, e)
		var back table.Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if again, _ := AppendEvent(nil, &back); string(again) != string(b) {
			t.Fatalf("%s read back writes\n%s\nnot\n%s", e.Type, again, b)
		}
	}
	for _, typ := range []table.EventType{table.EvTablePaused, table.EvTableReopened, table.EvTableClosed, table.EvShoeEnded} {
		if !seen[typ] {
			t.Errorf("no %s among %d events", typ, len(events))
		}
	}
}
