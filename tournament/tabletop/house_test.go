package tabletop

import (
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// TestOnlyTheHousePlaysItsBots (SPEC §5, house bots): at a session's table a bot's wager is
// placed by the house alone; the same wager sent as a player, or as the system under another
// name, is refused, and so is a withdrawal of a bot's wagers by anyone but the house.
func TestOnlyTheHousePlaysItsBots(t *testing.T) {
	bot := Bots("house-", 1)[0].ID
	s := Session{Tournament: "cup", Round: 1, Table: 1, Session: 1, Players: []string{"ann", bot},
		Stakes: tournament.Stakes{Min: 100, Max: 1000}, Hands: 3}
	tab, err := table.New(TableConfig(tournament.Config{ID: "cup", Game: "mbs-tournament"}, s, 8))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		p    *table.Place
		code baccarat.Code
	}{
		{"the house places a bot's wager", BotWager(bot, Wager{Bet: "banker", Stake: 100}), ""},
		{"a player cannot place a bot's wager", &table.Place{Header: table.Header{Actor: bot, Role: table.RolePlayer}, Player: bot, Bet: "banker", Stake: 100}, baccarat.CodeNotAuthorized},
		{"the system under another name cannot either", &table.Place{Header: table.Header{Actor: "pit-1", Role: table.RoleSystem}, Player: bot, Bet: "banker", Stake: 100}, baccarat.CodeNotAuthorized},
		{"a seated player places their own", &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "banker", Stake: 100}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := s.Check(tab, c.p)
			if c.code == "" && err != nil || c.code != "" && baccarat.ErrorCode(err) != c.code {
				t.Fatalf("got %v, want %q", err, c.code)
			}
		})
	}
	for _, w := range []*table.Withdraw{
		{Header: table.Header{Actor: bot, Role: table.RolePlayer}, Player: bot},
		{Header: table.Header{Role: table.RolePit}, Player: bot},
	} {
		if err := s.CheckWithdraw(w); baccarat.ErrorCode(err) != baccarat.CodeNotAuthorized {
			t.Errorf("withdrawing a bot's wagers as %s: %v", w.Role, err)
		}
	}
	if err := s.CheckWithdraw(&table.Withdraw{Header: table.Header{Actor: RequiredActor, Role: table.RoleSystem}, Player: bot}); err != nil {
		t.Errorf("the house gives a bot's riding wagers back: %v", err)
	}
}
