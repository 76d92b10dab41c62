package web_test

import (
	"fmt"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/web"
)

// statement reads every line of who's statement, page by page (limit lines a page).
func (f *fixture) statement(who string, limit int) []web.StatementLine {
	f.t.Helper()
	var all []web.StatementLine
	for before, pages := int64(0), 0; ; pages++ {
		var pg web.StatementPage
		if code := f.do(who, "GET", fmt.Sprintf("/api/me/rounds?limit=%d&before=%d", limit, before), nil, &pg); code != 200 {
			f.t.Fatalf("statement: %d", code)
		}
		all = append(all, pg.Lines...)
		if pg.Next == 0 || pages > 100 {
			return all
		}
		before = pg.Next
	}
}

func lineOf(lines []web.StatementLine, key string) *web.StatementLine {
	for i := range lines {
		if lines[i].Key == key {
			return &lines[i]
		}
	}
	return nil
}

// TestStatementOneLinePerRoundPerTable plays rounds at two tables whose wager numbers are
// the same, a lost one, a push that rides on and is withdrawn, and checks each rule of the
// statement against them; read in pages of every size, the lines are the same.
func TestStatementOneLinePerRoundPerTable(t *testing.T) {
	f := newFixture(t)
	for _, tb := range []string{"tiger", "rws"} {
		f.dealer(tb, map[string]any{"cmd": "new_shoe"})
	}
	// Ann bets first at each table: her wager is number 1 at both.
	round := func(tb string, ann, bob baccarat.Money, cards ...string) {
		f.dealer(tb, map[string]any{"cmd": "open"})
		for _, w := range []struct {
			who, bet string
			stake    baccarat.Money
		}{{"ann", "banker", ann}, {"bob", "player", bob}} {
			var e apiError
			if code := f.do(w.who, "POST", "/api/tables/"+tb+"/wagers", map[string]any{"bet": w.bet, "stake": w.stake}, &e); code != 200 {
				t.Fatalf("%s wagers: %d %+v", w.who, code, e)
			}
		}
		f.dealer(tb, map[string]any{"cmd": "close"})
		f.cards(tb, cards...)
	}
	// tiger round 1: ann's banker 1000 loses to a Player natural 9; bob's player 500 wins.
	round("tiger", 1000, 500, "9h", "2c", "Kd", "Qs")
	// rws round 1: a tie; ann's banker 800 rides on (RWS 3.9), bob's player 200 too.
	round("rws", 800, 200, "Kh", "Kd", "9h", "9d")
	// rws round 2: ann withdraws the riding wager and bets 300 on banker; the Player wins.
	f.dealer("rws", map[string]any{"cmd": "open"})
	var e apiError
	if code := f.do("ann", "POST", "/api/tables/rws/withdraw", map[string]any{"wager": 1}, &e); code != 200 {
		t.Fatalf("RWS 3.9 a riding wager is withdrawn in the next betting: %d %+v", code, e)
	}
	if code := f.do("ann", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "banker", "stake": 300}, &e); code != 200 {
		t.Fatalf("wager: %d %+v", code, e)
	}
	f.dealer("rws", map[string]any{"cmd": "close"})
	f.cards("rws", "9c", "Kc", "Kd", "Qd")

	lines := f.statement("ann", 25)
	type want struct {
		staked, returned, net baccarat.Money
		status                string
		wagers                int
		result                string
	}
	for _, c := range []struct {
		rule, key string
		want      want
	}{
		{"a lost round has its line: the stake out, nothing back", "tiger/1", want{1000, 0, -1000, "settled", 1, "lose"}},
		{"RWS 3.9 a push that rides on is back on the layout: net zero", "rws/1", want{800, 800, 0, "settled", 1, "rides"}},
		{"a withdrawn wager is not counted, nor listed", "rws/2", want{300, 0, -300, "settled", 1, "lose"}},
	} {
		l := lineOf(lines, c.key)
		if l == nil {
			t.Fatalf("%s: no line %s in %+v", c.rule, c.key, lines)
		}
		got := want{l.Staked, l.Returned, l.Net, l.Status, len(l.Wagers), ""}
		if len(l.Wagers) > 0 {
			got.result = l.Wagers[0].Result
		}
		if got != c.want || l.Kind != "round" {
			t.Errorf("%s: %s = %+v (%+v), want %+v", c.rule, c.key, got, l, c.want)
		}
	}
	// Wager 1 is a wager at both tables: two lines, keyed by table and round, named.
	t1, r1 := lineOf(lines, "tiger/1"), lineOf(lines, "rws/1")
	if t1.Wagers[0].ID != 1 || r1.Wagers[0].ID != 1 || t1.TableName != "Tiger" || r1.TableName != "RWS" {
		t.Errorf("the same wager number at two tables: %+v / %+v", t1, r1)
	}
	// The newest first; the credit is a line of its own; the last line's balance is the wallet's.
	if len(lines) != 4 || lines[0].Key != "rws/2" || lines[3].Kind != "credit" || lines[3].Net != 100_000 {
		t.Fatalf("lines: %+v", lines)
	}
	if lines[0].Balance != f.balance("ann") || lines[0].Balance != 100_000-1000-300 {
		t.Errorf("balance after the newest line %d, wallet %d", lines[0].Balance, f.balance("ann"))
	}
	for _, size := range []int{1, 2, 3} {
		paged := f.statement("ann", size)
		if len(paged) != len(lines) {
			t.Fatalf("pages of %d: %d lines, want %d", size, len(paged), len(lines))
		}
		for i := range paged {
			if paged[i].Key != lines[i].Key || paged[i].Net != lines[i].Net {
				t.Errorf("pages of %d: line %d = %s %d, want %s %d", size, i, paged[i].Key, paged[i].Net, lines[i].Key, lines[i].Net)
			}
		}
	}
}

// TestStatementTournamentFeeNamesTheTournament: an entry fee is a line of its own, with its
// kind for the page to translate and the tournament's name.
func TestStatementTournamentFeeNamesTheTournament(t *testing.T) {
	f := newFixture(t)
	if code := f.do("admin", "POST", "/api/admin/tournaments", cupSpec(), nil); code != 201 {
		t.Fatalf("create: %d", code)
	}
	waitPhase(t, f, "registering")
	if code := f.do("ann", "POST", "/api/tournaments/cup/register", nil, nil); code != 200 {
		t.Fatalf("register: %d", code)
	}
	lines := f.statement("ann", 25)
	if len(lines) != 2 {
		t.Fatalf("lines: %+v", lines)
	}
	fee := lines[0]
	if fee.Kind != "entry_fee" || fee.Tournament != "cup" || fee.TournamentName != "Cup" || fee.Net != -2500 || fee.Balance != 100_000-2500 {
		t.Errorf("SPEC 5 the entry fee's line: %+v", fee)
	}
}

// TestStatementRefusesBadCursors: a refused read has a stable code.
func TestStatementRefusesBadCursors(t *testing.T) {
	f := newFixture(t)
	for _, q := range []string{"before=-1", "before=x", "limit=0", "limit=x", "currency=EURO"} {
		var e apiError
		if code := f.do("ann", "GET", "/api/me/rounds?"+q, nil, &e); code != 400 || e.Code != "bad_request" {
			t.Errorf("%s: %d %+v", q, code, e)
		}
	}
	var pg web.StatementPage
	if code := f.do("bob", "GET", "/api/me/rounds?currency=JPY", nil, &pg); code != 200 || len(pg.Lines) != 0 || pg.Next != 0 {
		t.Errorf("a wallet never opened: %d %+v", code, pg)
	}
}

// TestStatementRaisedWagerCountsAtItsFinalStake: a chip added to a spot raises its wager; the
// round's line stakes the total once, and lists one wager at that stake.
func TestStatementRaisedWagerCountsAtItsFinalStake(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	for range 2 {
		var e apiError
		if code := f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 500}, &e); code != 200 {
			t.Fatalf("wager: %d %+v", code, e)
		}
	}
	f.dealer("tiger", map[string]any{"cmd": "close"})
	f.cards("tiger", "9h", "2c", "Kd", "Qs") // a Player natural 9: the Banker wager is lost
	l := lineOf(f.statement("ann", 25), "tiger/1")
	if l == nil || l.Staked != 1000 || l.Net != -1000 || len(l.Wagers) != 1 || l.Wagers[0].Stake != 1000 || l.Entries != 2 {
		t.Fatalf("a raised wager's round: %+v", l)
	}
}

// TestStatementRoundsPlayedAtOnce: rounds of two tables played at the same time interleave
// their postings; each is still one line, whatever the page size.
func TestStatementRoundsPlayedAtOnce(t *testing.T) {
	f := newFixture(t)
	for _, tb := range []string{"tiger", "rws"} {
		f.dealer(tb, map[string]any{"cmd": "new_shoe"})
		f.dealer(tb, map[string]any{"cmd": "open"})
	}
	for _, tb := range []string{"tiger", "rws", "tiger"} {
		var e apiError
		if code := f.do("ann", "POST", "/api/tables/"+tb+"/wagers", map[string]any{"bet": "banker", "stake": 400}, &e); code != 200 {
			t.Fatalf("wager at %s: %d %+v", tb, code, e)
		}
	}
	f.dealer("tiger", map[string]any{"cmd": "close"})
	f.dealer("rws", map[string]any{"cmd": "close"})
	f.cards("rws", "2h", "3d", "3c", "3s", "9d") // Banker 6 over Player 5: the no-commission Banker's six pays 1:2
	f.cards("tiger", "9h", "2c", "Kd", "Qs")     // a Player natural 9: ann's Banker wager (raised to 800) is lost
	// A line's place is its last posting: the lost round's is its raise, before rws's settlement.
	for _, size := range []int{1, 2, 25} {
		lines := f.statement("ann", size)
		if len(lines) != 3 || lines[0].Key != "rws/1" || lines[1].Key != "tiger/1" || lines[2].Kind != "credit" {
			t.Fatalf("pages of %d: %+v", size, lines)
		}
		if rw, tg := lines[0], lines[1]; tg.Staked != 800 || tg.Net != -800 || rw.Staked != 400 || rw.Returned != 600 || rw.Net != 200 {
			t.Errorf("pages of %d: tiger %+v, rws %+v", size, tg, rw)
		}
	}
}
