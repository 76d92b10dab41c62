package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
	"github.com/tablehouse/baccarat/web"
)

// tableBody is an admin's table spec as JSON, with cfg merged into its config and extra
// into the spec.
func tableBody(id string, cfg, extra map[string]any) map[string]any {
	config := map[string]any{"game": "mbs-tiger"}
	for k, v := range cfg {
		config[k] = v
	}
	body := map[string]any{"id": id, "name": id, "mode": "dealer", "config": config}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

// TestEveryTableSettingOutOfItsRangeIsRefusedByTheAdminAPI: POST /api/admin/tables refuses
// each setting out of its range with 400 bad_request naming it, and makes no table.
func TestEveryTableSettingOutOfItsRangeIsRefusedByTheAdminAPI(t *testing.T) {
	f := newFixture(t)
	dragon := map[string]any{"game": "mbs-dragon", "cash": true}
	with := func(base map[string]any, k string, v any) map[string]any {
		m := map[string]any{k: v}
		for bk, bv := range base {
			m[bk] = bv
		}
		return m
	}
	for _, c := range []struct {
		name       string
		cfg, extra map[string]any
		says       string
	}{
		{"a cash Dragon table of a billion hands a session is refused", with(dragon, "session_hands", 1_000_000_000), nil, "session_hands is 1000000000: give 1 to 1000"},
		{"a Dragon session longer than analyze --hands is refused", with(dragon, "session_hands", 1001), nil, "session_hands is 1001: give 1 to 1000"},
		{"SPEC 2 Tiger with 11 decks is refused", map[string]any{"decks": 11}, nil, "4 to 10 decks"},
		{"a cut card past the shoe is refused", map[string]any{"cut_card": 416}, nil, "cut_card is 416: give 1 to 410"},
		{"a squeeze over a minute is refused", map[string]any{"squeeze": true, "squeeze_seconds": 3600}, nil, "squeeze_seconds is 3600: give 1 to 60"},
		{"Tiger 5.18 a negative differential is refused", map[string]any{"differential": -5}, nil, "differential is -5: give 0"},
		{"Tiger 3.6 four wagers per area are refused", map[string]any{"max_wagers_per_area": 4}, nil, "max_wagers_per_area is 4: give 1 to 3"},
		{"a negative minimum stake is refused", map[string]any{"limits": map[string]any{"tie": map[string]any{"min": -1, "max": 100}}}, nil, "limits.tie"},
		{"BoB 3.5 a margin of 100% is refused", map[string]any{"game": "bet-on-baccarat", "margins": map[string]any{"tie": 10000}}, nil, "0 to 9999 basis points"},
		{"two hours of betting are refused", nil, map[string]any{"mode": "auto", "schedule": map[string]any{"betting": "2h"}}, "schedule: betting is 2h0m0s: give 1ms to 1h0m0s"},
		{"a card every microsecond is refused", nil, map[string]any{"mode": "auto", "schedule": map[string]any{"card": "1µs"}}, "schedule: card is 1µs: give 1ms to 1h0m0s"},
		{"a negative result time is refused", nil, map[string]any{"mode": "auto", "schedule": map[string]any{"result": "-4s"}}, "schedule"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var e apiError
			code := f.do("admin", "POST", "/api/admin/tables", tableBody("out-of-range", c.cfg, c.extra), &e)
			if code != http.StatusBadRequest || e.Code != "bad_request" || !strings.Contains(e.Message, c.says) {
				t.Fatalf("%d %+v, want 400 bad_request saying %q", code, e, c.says)
			}
			if code := f.do("", "GET", "/api/tables/out-of-range", nil, nil); code != http.StatusNotFound {
				t.Fatalf("the refused table exists: GET answers %d", code)
			}
		})
	}
	var lobby []web.TableView
	f.do("", "GET", "/api/tables", nil, &lobby)
	for _, tv := range lobby {
		if tv.ID == "out-of-range" {
			t.Fatal("the lobby lists a refused table")
		}
	}
}

// TestEveryTournamentSettingOutOfItsRangeIsRefusedByTheAdminAPI: POST /api/admin/tournaments
// refuses each setting out of its range with 400 bad_request naming it, and makes nothing.
func TestEveryTournamentSettingOutOfItsRangeIsRefusedByTheAdminAPI(t *testing.T) {
	f := newFixture(t)
	for _, c := range []struct {
		name   string
		change func(s *live.TournamentSpec)
		says   string
	}{
		{"a negative break is refused", func(s *live.TournamentSpec) { s.Config.Break = tournament.Duration(-time.Minute) }, "break is -1m0s: give 0 to 24h0m0s"},
		{"a session longer than the odds engine prices is refused", func(s *live.TournamentSpec) { s.Config.Rounds[0].Hands = 1001 }, "hands is 1001: give 1 to 1000"},
		{"a session of 25 hours is refused", func(s *live.TournamentSpec) {
			s.Config.Rounds[0] = tournament.Round{Duration: tournament.Duration(25 * time.Hour)}
		}, "duration is 25h0m0s: give 1s to 24h0m0s"},
		{"more entrants than the limit are refused", func(s *live.TournamentSpec) { s.Config.MaxEntrants = tournament.MaxEntrantsLimit + 1 }, "max_entrants is 100001"},
		{"registration opening two years ahead is refused", func(s *live.TournamentSpec) {
			s.Config.Start = s.Config.Start.Add(2 * 365 * 24 * time.Hour)
			s.Config.RegistrationCloses = s.Config.Start
		}, "at most 366 days before the start"},
		{"a schedule the journal could not hold is refused", func(s *live.TournamentSpec) {
			s.Config.MaxEntrants, s.Config.TableSize = 100_000, 1000
			s.Config.Rounds = []tournament.Round{{Hands: 1000, Advance: 10, AdvanceOverall: true}, {Hands: 10}}
		}, "the schedule is too long"},
		{"more bots than entrants are refused", func(s *live.TournamentSpec) { s.Bots = tabletop.Bots("house-bot-", 7) }, "7 bots for at most 6 entrants"},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := cupSpec()
			c.change(&spec)
			var e apiError
			code := f.do("admin", "POST", "/api/admin/tournaments", spec, &e)
			if code != http.StatusBadRequest || e.Code != "bad_request" || !strings.Contains(e.Message, c.says) {
				t.Fatalf("%d %+v, want 400 bad_request saying %q", code, e, c.says)
			}
			if code := f.do("", "GET", "/api/tournaments/cup", nil, nil); code != http.StatusNotFound {
				t.Fatalf("the refused tournament exists: GET answers %d", code)
			}
		})
	}
}

// TestTheLobbyAndRulesAnswerWhileADragonSessionIsCounted: a cash Dragon table's session is
// counted in the background, once, and neither the lobby nor the table's rules wait for it:
// they answer, with the Dragon bets "computing", while the count is held in flight, and
// with the figures once it ends.
func TestTheLobbyAndRulesAnswerWhileADragonSessionIsCounted(t *testing.T) {
	hands := 98 - int(heldRuns.Add(1)) // 97, 96, …: a length no other test, or run of this one, counts
	f := newFixture(t)
	hold := web.HoldSessionCounts(hands)
	t.Cleanup(hold.Release) // before the server's shutdown, which waits for its requests
	cfg := map[string]any{"game": "mbs-dragon", "cash": true, "session_hands": hands}
	within(t, "creating the table", func(ctx context.Context) {
		if code := f.doCtx(ctx, "admin", "POST", "/api/admin/tables", tableBody("dragon-cash", cfg, nil), nil); code != 201 {
			t.Fatalf("create: %d", code)
		}
	})
	select {
	case <-hold.Started:
	case <-time.After(10 * time.Second):
		t.Fatal("showing the new table did not start the count of its session")
	}
	within(t, "the lobby", func(ctx context.Context) {
		edges := lobbyEdges(t, f, ctx, "dragon-cash")
		if edges["banker"].PlayerEdge != "+1.2351%" || edges["banker"].Status != "" {
			t.Errorf("SPEC 3.1 Banker's edge is a millisecond's count, shown at once: %+v", edges["banker"])
		}
		for _, bet := range []string{"banker_dragon", "player_dragon", "any_dragon"} {
			if e := edges[bet]; e.Status != cash.StatusComputing || e.Hands != hands {
				t.Errorf("%s while its session is counted: %+v", bet, e)
			}
		}
	})
	within(t, "the rules", func(ctx context.Context) {
		var v web.RulesView
		if code := f.doCtx(ctx, "", "GET", "/api/tables/dragon-cash/rules", nil, &v); code != 200 {
			t.Fatalf("rules: %d", code)
		}
		for _, b := range v.Bets {
			if (b.Kind == "dragon") != (b.Status == cash.StatusComputing) || (b.Kind != "dragon" && b.HouseEdge.Percent == "") {
				t.Errorf("%s while the session is counted: %+v", b.ID, b)
			}
		}
	})
	within(t, "a second table of the same shoe and session", func(ctx context.Context) {
		if code := f.doCtx(ctx, "admin", "POST", "/api/admin/tables", tableBody("dragon-cash-2", cfg, nil), nil); code != 201 {
			t.Fatalf("create: %d", code)
		}
	})
	hold.Release()
	deadline := time.Now().Add(60 * time.Second)
	for {
		edges := lobbyEdges(t, f, context.Background(), "dragon-cash-2")
		if e := edges["any_dragon"]; e.Status == "" && strings.HasPrefix(e.PlayerEdge, "+") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the count never ended: %+v", edges["any_dragon"])
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := hold.Calls(); n != 1 {
		t.Errorf("the session of two tables was counted %d times, want once", n)
	}
	for _, b := range f.rules("dragon-cash").Bets {
		if b.Kind == "dragon" && (b.Status != "" || b.HouseEdge.Percent == "" || b.SessionHands != hands) {
			t.Errorf("%s once counted: %+v", b.ID, b)
		}
	}
}

// heldRuns gives each run of the test above a session length of its own: a count, once
// made, is kept for the process.
var heldRuns atomic.Int32

// within runs fn with a context that ends after a generous deadline: what it asks must
// answer well before, or the test fails instead of hanging.
func within(t *testing.T, what string, fn func(ctx context.Context)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fn(ctx)
	if ctx.Err() != nil {
		t.Fatalf("%s did not answer within 10 s", what)
	}
}

// doCtx is do under ctx: a request that does not answer in time fails the test.
func (f *fixture) doCtx(ctx context.Context, who, method, path string, body, out any) int {
	f.t.Helper()
	var rd *strings.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	} else {
		rd = strings.NewReader("")
	}
	req, _ := http.NewRequestWithContext(ctx, method, f.srv.URL()+path, rd)
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+f.tokens[who])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if out != nil {
		_ = json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// lobbyEdges is a table's player edges in the lobby, by bet.
func lobbyEdges(t *testing.T, f *fixture, ctx context.Context, id string) map[string]cash.BetEdge {
	t.Helper()
	var lobby []web.TableView
	if code := f.doCtx(ctx, "", "GET", "/api/tables", nil, &lobby); code != 200 {
		t.Fatalf("lobby: %d", code)
	}
	out := map[string]cash.BetEdge{}
	for _, tv := range lobby {
		if tv.ID == id {
			for _, e := range tv.PlayerEdge {
				out[e.Bet] = e
			}
		}
	}
	if len(out) != 8 {
		t.Fatalf("the lobby shows %d player edges for %s, want 8: %+v", len(out), id, out)
	}
	return out
}
