package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// The security suite of the surfaces around tournaments: house bots, chips, session tables,
// their stakes, the house's draws and the settings. Each attempt is tried the way a review
// found it and must be refused with its code, changing nothing.

// runningTournament creates a tournament of bots and ann that starts at once, with sessions
// long enough for the test, and waits until ann's session table takes bets; its id and the
// table's.
func runningTournament(t *testing.T, x *secServer) (string, string) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	id := fmt.Sprintf("sec%d", now.Unix()%100000)
	cfg := tournament.Config{ID: id, Name: "Security Cup", Game: "mbs-tournament", Currency: "XXX", EntryFee: 1000,
		StartingChips: 100_000, RegistrationOpens: now, RegistrationCloses: now.Add(12 * time.Second), Start: now.Add(12 * time.Second),
		MaxEntrants: 4, TableSize: 4, Stakes: tournament.Stakes{Min: 10_000, Max: 50_000},
		Rounds: []tournament.Round{{Hands: 50}}, Prizes: []int{10_000}}
	spec := live.TournamentSpec{Config: cfg, Schedule: live.Schedule{Betting: 10 * time.Minute}, Bots: tabletop.Bots("house-", 3)}
	x.want("admin", "POST", "/api/admin/tournaments", spec, 201, "", nil)
	x.want("ann", "POST", "/api/tournaments/"+id+"/register", nil, 200, "", nil)
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		var v live.TournamentView
		x.want("ann", "GET", "/api/tournaments/"+id, nil, 200, "", &v)
		if v.Me != nil && v.Me.TableID != "" {
			x.waitPhase(v.Me.TableID, table.PhaseBetting)
			return id, v.Me.TableID
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("the tournament never seated ann at a live table")
	return "", ""
}

func TestSecurityTournamentSurfaces(t *testing.T) {
	x := startSecServer(t)
	id, tableID := runningTournament(t, x)
	var v live.TournamentView
	raw := x.want("ann", "GET", "/api/tournaments/"+id, nil, 200, "", &v)

	t.Run("nobody can become a house bot", func(t *testing.T) {
		if len(v.Bots) == 0 {
			t.Fatal("the tournament has no bots")
		}
		for _, bot := range v.Bots {
			if !tournament.IsBot(bot) {
				t.Errorf("bot %q is not in the bots' namespace", bot)
			}
			x.refused("an account named as bot "+bot, "admin", "POST", "/api/admin/accounts", map[string]any{"id": bot, "role": "player"}, 400, "bad_request")
			x.refused("a credit to bot "+bot, "admin", "POST", "/api/admin/accounts/"+bot+"/credit", map[string]any{"amount": 1000, "key": "k"}, 400, "bad_request")
			// An account with the bot's old name is only a player: not seated, not paid.
			old := strings.Replace(bot, tournament.BotPrefix, "house-bot-", 1)
			var made struct{ Token string }
			x.want("admin", "POST", "/api/admin/accounts", map[string]any{"id": old, "role": "player"}, 201, "", &made)
			x.tokens[old] = made.Token
			x.want("admin", "POST", "/api/admin/accounts/"+old+"/credit", map[string]any{"amount": 100_000, "key": "k"}, 200, "", nil)
			x.refused(old+" wagers at the bot's table", old, "POST", "/api/tables/"+tableID+"/wagers", map[string]any{"bet": "banker", "stake": 10_000}, 409, "not_at_table")
			break
		}
	})
	t.Run("tournament chips only at its own tables", func(t *testing.T) {
		x.refused("a cash table for the tournament's chips", "admin", "POST", "/api/admin/tables",
			map[string]any{"id": "chips-grab", "currency": "CHIPS:" + id, "config": map[string]any{"game": "mbs-tournament"}}, 409, "reserved")
	})
	t.Run("a tournament's future table ids are reserved", func(t *testing.T) {
		for _, squat := range []string{id + "-r1t1s2", id + "-r2t1s1", "future-r1t1s1"} {
			x.refused("a table squatting "+squat, "admin", "POST", "/api/admin/tables",
				map[string]any{"id": squat, "config": map[string]any{"game": "mbs-tiger"}}, 409, "reserved")
		}
	})
	t.Run("the tournament's stakes cannot be changed under it", func(t *testing.T) {
		x.refused("an admin lowers the minimum at a session table", "admin", "PUT", "/api/admin/tables/"+tableID+"/limits",
			map[string]any{"bet": "banker", "min": 1, "max": 50_000}, 403, "not_authorized")
		x.refused("a wager under the tournament's minimum", "ann", "POST", "/api/tables/"+tableID+"/wagers",
			map[string]any{"bet": "banker", "stake": 1}, 400, "below_minimum")
	})
	t.Run("nothing a player can read predicts a bot", func(t *testing.T) {
		var st map[string]json.RawMessage
		var whole map[string]json.RawMessage
		_ = json.Unmarshal(raw, &whole)
		_ = json.Unmarshal(whole["state"], &st)
		if st["commitment"] == nil || st["secret"] != nil || st["seed"] != nil {
			t.Fatalf("a running tournament's state: commitment %s, secret %s, seed %s", st["commitment"], st["secret"], st["seed"])
		}
	})
	t.Run("one setting cannot hang the lobby", func(t *testing.T) {
		x.refused("a cash Dragon table of a billion hands", "admin", "POST", "/api/admin/tables",
			map[string]any{"id": "dragon-billion", "config": map[string]any{"game": "mbs-dragon", "cash": true, "session_hands": 1_000_000_000}}, 400, "bad_request")
		start := time.Now()
		x.want("", "GET", "/api/tables", nil, 200, "", nil)
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("the lobby took %s", took)
		}
	})
	t.Run("a cancelled tournament refunds everyone", func(t *testing.T) {
		before := x.balance("ann")
		x.want("admin", "POST", "/api/admin/tournaments/"+id+"/cancel", map[string]any{"reason": "the security suite calls it off"}, 202, "", nil)
		deadline := time.Now().Add(20 * time.Second)
		for {
			var c live.TournamentView
			x.want("ann", "GET", "/api/tournaments/"+id, nil, 200, "", &c)
			if c.Phase == tournament.PhaseCancelled {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("not cancelled: %s %q", c.Phase, c.Cancelling)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if after := x.balance("ann"); after != before+1000 {
			t.Fatalf("ann's balance %d → %d: her entry fee (1000) was not refunded", before, after)
		}
		x.refused("cancelling again", "admin", "POST", "/api/admin/tournaments/"+id+"/cancel", map[string]any{"reason": "again"}, 409, "bad_state")
	})
}
