package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/web"
)

// The runtime serves every port web asks of it.
var (
	_ web.Tables         = (*live.Host)(nil)
	_ web.Floor          = (*live.Host)(nil)
	_ web.Tournaments    = (*live.Host)(nil)
	_ web.TournamentDesk = (*live.Host)(nil)
	_ web.Wallets        = (*live.Host)(nil)
	_ web.WalletCalls    = (*live.Host)(nil)
	_ web.Care           = (*live.Host)(nil)
	_ web.Names          = (*live.Host)(nil)
	_ web.Host           = (*live.Host)(nil)
)

// fakeTournaments serves the Tournaments and Names ports from a list in memory. The other
// ports are the nil web.Host it embeds: a handler that reached past its port would panic,
// so a passing test shows the tournaments pages need nothing else of the runtime.
type fakeTournaments struct {
	web.Host
	list []live.TournamentView
}

func (f *fakeTournaments) Tournaments() []live.TournamentView {
	return append([]live.TournamentView(nil), f.list...)
}

func (f *fakeTournaments) Tournament(_ context.Context, id, _ string) (*live.TournamentView, error) {
	for _, v := range f.list {
		if v.ID == id {
			return &v, nil
		}
	}
	return nil, baccarat.Errorf(baccarat.CodeNotFound, "no tournament %s", id)
}

func (f *fakeTournaments) People() live.People { return handles{} }

// handles shows player "ann" as handle "h-ann", named "Ann".
type handles struct{}

func (handles) Handle(player string) string { return "h-" + player }

func (handles) Person(_ context.Context, player string) access.Person {
	return access.Person{Name: "A" + player[1:]}
}

func fakeCup(id string, players ...string) live.TournamentView {
	v := live.TournamentView{ID: id, Name: "Cup " + id}
	for _, p := range players {
		v.State.Entrants = append(v.State.Entrants, tournament.Entrant{Player: p})
	}
	return v
}

// TestTournamentsWithoutRuntime serves the tournaments pages from a fake port: no tables,
// no store, no journal.
func TestTournamentsWithoutRuntime(t *testing.T) {
	many := make([]live.TournamentView, 150)
	for i := range many {
		many[i] = fakeCup("t" + strconv.Itoa(i))
	}
	cases := []struct {
		name    string
		list    []live.TournamentView
		path    string
		status  int
		ids     []string // the tournaments answered, in order
		players []string // the first one's entrants as shown
		code    baccarat.Code
	}{
		{name: "the list names entrants by handle, never by account id", list: []live.TournamentView{fakeCup("cup", "ann", "bob")},
			path: "/api/tournaments", status: 200, ids: []string{"cup"}, players: []string{"h-ann", "h-bob"}},
		{name: "the list is at most the latest 100", list: many, path: "/api/tournaments", status: 200, ids: idsOf(many[:100])},
		{name: "no tournament is an empty list, not null", path: "/api/tournaments", status: 200, ids: []string{}},
		{name: "a tournament's page names entrants by handle", list: []live.TournamentView{fakeCup("cup", "ann")},
			path: "/api/tournaments/cup", status: 200, ids: []string{"cup"}, players: []string{"h-ann"}},
		{name: "an unknown tournament is 404 not_found", path: "/api/tournaments/nope", status: 404, code: baccarat.CodeNotFound},
		{name: "a malformed id is refused before the port is asked", path: "/api/tournaments/a%20b", status: 400, code: baccarat.CodeBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := web.New(web.Options{Host: &fakeTournaments{list: c.list}})
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, c.path, nil))
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			if c.code != "" {
				var e struct {
					Code baccarat.Code `json:"code"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Code != c.code {
					t.Fatalf("answer %s, want code %s", rec.Body, c.code)
				}
				return
			}
			got := decodeViews(t, rec.Body.Bytes())
			if ids := idsOf(got); !slices.Equal(ids, c.ids) {
				t.Fatalf("tournaments %v, want %v", ids, c.ids)
			}
			if c.players == nil {
				return
			}
			var shown []string
			for _, e := range got[0].State.Entrants {
				shown = append(shown, e.Player)
			}
			if !slices.Equal(shown, c.players) || got[0].Names["h-ann"].Name != "Ann" {
				t.Fatalf("entrants %v names %v, want %v with h-ann named Ann", shown, got[0].Names, c.players)
			}
		})
	}
}

// decodeViews reads a list of tournaments, or one tournament as a list of one.
func decodeViews(t *testing.T, body []byte) []live.TournamentView {
	t.Helper()
	var list []live.TournamentView
	if len(body) > 0 && body[0] == '{' {
		var v live.TournamentView
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		return []live.TournamentView{v}
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if list == nil {
		t.Fatalf("answer %s, want a list", body)
	}
	return list
}

func idsOf(list []live.TournamentView) []string {
	ids := make([]string, len(list))
	for i, v := range list {
		ids[i] = v.ID
	}
	return ids
}
