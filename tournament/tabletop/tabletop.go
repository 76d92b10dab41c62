// Package tabletop is how a tournament session is played at a baccarat table: the table's
// configuration from the tournament's stakes (SPEC §5), the per-hand rules a table alone
// cannot enforce (a player's stakes on one hand total at most the maximum; with
// Stakes.Required, a player who has not wagered when betting closes has the minimum placed
// on Banker for them), the chip changes a table's settlements make for the tournament's hand
// reports, and the house's bots. Like table and tournament it is pure: no goroutines, no
// clock, no randomness but what a seed gives. The live host plays sessions with it on
// automatic tables; Run plays a whole tournament on a virtual clock. Both drive a session's
// table through the same Coordinator: the table's events in, the hand reports, the bots'
// wagers and rebuys, and the return of riding wagers out.
//
// # One table per session
//
// Each session of each tournament table is played at a table of its own, TableID (for
// example "spring-r1t2s1": round 1, table 2, session 1), so that a table's history is one
// session's and nothing else: its settled and voided rounds, in order, are the session's
// hand reports, and a Dragon session of hands ends with the table's own Dragon session
// (table.Config.SessionHands is the session's length). The table plays for the
// tournament's chips (table.Config.Currency "CHIPS:<id>"), with every bet's limit set to
// the round's minimum and maximum stake.
//
// # The rules of a hand
//
//   - Every wager is at least Stakes.Min (the table's limit), so a hand a player bets on
//     totals at least the minimum; the player's stakes on one hand (riding RWS wagers
//     included, Dragon bets not: they settle on the session) total at most Stakes.Max
//     (Check refuses the wager that would pass it, above_maximum).
//   - Only the session's seated players bet (not_at_table); Dragon bets only where the
//     tournament allows them (Config.Dragon), on the session's first hand (Dragon 3.12).
//   - Stakes.Required: when betting closes, each seated player without a wager on the hand
//     has Stakes.Min placed on Banker by the house (Required), if their chips allow; a
//     busted player, who cannot, sits the hand out.
//   - A voided hand changes no chips and does not count (SPEC §4, §5).
//
// # RWS ties at the end of a session
//
// In RWS a Player or Banker wager that pushes on a Tie rides into the next round (RWS 3.9).
// When the session's last hand leaves wagers riding, the host opens one more betting round at
// the session's table and withdraws them for their owners (Riders), as the rules let the
// owner do in that round; the round is then dealt without wagers and counts for nothing.
// So every chip is back in its owner's hands when the session's chips are counted.
package tabletop

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// Session is one session of one tournament table as the table that plays it knows it. The
// live host journals it with the table (live.Spec.Tournament).
type Session struct {
	Tournament string            `json:"tournament"`
	Round      int               `json:"round"`
	Table      int               `json:"table"`
	Session    int               `json:"session"`
	Players    []string          `json:"players"` // seated for the session, in seat order
	Stakes     tournament.Stakes `json:"stakes"`
	Dragon     bool              `json:"dragon,omitempty"` // Dragon bets allowed
	Hands      int               `json:"hands,omitempty"`  // 0: a session of a length of time
}

// MaxIDLen is the longest tournament id the runtime takes, shorter than baccarat.MaxIDLen
// because ids are made from it that must be ids too: its journal, Stream (11 characters
// more), and its session tables, TableID, whose suffix is at most "-r20t50000s100", 14 more
// (the tournament package's bounds: 20 rounds, 100 sessions, and 50,000 tables, its 100,000
// entrants at 2 a table). So baccarat.MaxIDLen less 14, 50, is the most that fits; 40 keeps
// room for those bounds to grow, and is what tournament ids have always been held to.
// TestTheIDsMadeFromATournamentIDFit holds this to baccarat.MaxIDLen.
const MaxIDLen = 40

// CheckID checks a tournament id for the runtime (see MaxIDLen).
func CheckID(id string) error {
	if err := baccarat.CheckID("tournament id", id); err != nil {
		return err
	}
	if len(id) > MaxIDLen {
		return baccarat.Errorf(baccarat.CodeBadRequest, "tournament id %q is %d characters long: use at most %d, so its tables' ids fit", id, len(id), MaxIDLen)
	}
	if len(id) >= len(StreamPrefix) && id[:len(StreamPrefix)] == StreamPrefix {
		return baccarat.Errorf(baccarat.CodeBadRequest, "tournament id %q: an id may not start with %q (the journals' prefix)", id, StreamPrefix)
	}
	return nil
}

// StreamPrefix starts the journal stream of a tournament: "tournament-<id>". Table ids may
// not start with it.
const StreamPrefix = "tournament-"

// Stream is the id of a tournament's journal.
func Stream(tournamentID string) string { return StreamPrefix + tournamentID }

// TableID is the id of the table that plays a session: "<tournament>-r<round>t<table>s<session>".
func TableID(tournamentID string, round, tableNo, session int) string {
	return fmt.Sprintf("%s-r%dt%ds%d", tournamentID, round, tableNo, session)
}

// ParseTableID reads a session's table id (TableID): its tournament, round, table and
// session; false for any other id. Such ids are reserved: only the tournament they name
// creates a table with one.
func ParseTableID(id string) (tournamentID string, round, tableNo, session int, ok bool) {
	rest, n3, ok3 := cutNumber(id, 's')
	rest, n2, ok2 := cutNumber(rest, 't')
	rest, n1, ok1 := cutNumber(rest, 'r')
	t, dash := strings.CutSuffix(rest, "-")
	if !ok1 || !ok2 || !ok3 || !dash || t == "" {
		return "", 0, 0, 0, false
	}
	return t, n1, n2, n3, true
}

// cutNumber cuts "<mark><digits>" off the end of s: the number (1 or more, no leading zero).
func cutNumber(s string, mark byte) (string, int, bool) {
	i := len(s)
	for i > 0 && '0' <= s[i-1] && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || i == 0 || s[i-1] != mark || s[i] == '0' || len(s)-i > 9 {
		return s, 0, false
	}
	n, _ := strconv.Atoi(s[i:])
	return s[:i-1], n, true
}

// Links reports whether s is the session a table's own record says it plays for
// (Spec.Tournament, journalled when its tournament created it): the durable link by which
// a tournament adopts its tables, never their ids alone.
func (s *Session) Links(tournamentID string, round, tableNo, session int) bool {
	return s != nil && s.Tournament == tournamentID && s.Round == round && s.Table == tableNo && s.Session == session
}

// TimedSessionHands is a Dragon table's session length when the tournament's session is a
// length of time: longer than any session, so the table never ends it by itself; the host
// ends it (table.EndSession) when the time is up.
const TimedSessionHands = 100_000

// TableConfig is the configuration of the table that plays s: the tournament's game for its
// chips, automatic, every bet limited to the round's stakes.
func TableConfig(cfg tournament.Config, s Session, decks int) table.Config {
	c := table.Config{Game: cfg.Game, Decks: decks, Mode: table.ModeAuto,
		Currency:     string(ledger.Chips(cfg.ID)),
		DefaultLimit: table.Limit{Min: s.Stakes.Min, Max: s.Stakes.Max}}
	if g, err := games.ByID(cfg.Game); err == nil && g.Rules.DragonSessions {
		c.SessionHands = s.Hands
		if s.Hands == 0 {
			c.SessionHands = TimedSessionHands
		}
	}
	return c
}

// Seated reports whether the player plays this session.
func (s *Session) Seated(player string) bool {
	for _, p := range s.Players {
		if p == player {
			return true
		}
	}
	return false
}

// Check applies the tournament's rules to a wager before the table sees it (the table
// checks the rest: betting open, the bet's limits, the chips available, the game's rules).
func (s *Session) Check(t *table.Table, p *table.Place) error {
	player := p.Player
	if player == "" {
		player = p.Actor
	}
	if !s.Seated(player) {
		return baccarat.Errorf(tournament.CodeNotAtTable, "%s is not playing this session: only the players seated at table %d of round %d bet here", player, s.Table, s.Round)
	}
	if tournament.IsBot(player) && (p.Role != table.RoleSystem || p.Actor != BotActor) {
		// The house plays its bots itself (BotWager); nobody places a wager in a bot's name.
		return baccarat.Errorf(baccarat.CodeNotAuthorized, "%s is one of the tournament's house bots: only the house plays it", player)
	}
	b := t.Game().Bet(p.Bet)
	if b == nil {
		return nil // the table refuses it with unknown_bet
	}
	if cur := t.Config().Currency; p.Stake < s.Stakes.Min {
		// The table's own limits are the stakes too; this holds even if they were changed.
		return baccarat.Errorf(baccarat.CodeBelowMinimum, "the tournament's minimum stake is %s", baccarat.FormatMoney(s.Stakes.Min, cur))
	}
	if b.Kind == games.Dragon {
		if !s.Dragon {
			return baccarat.Errorf(baccarat.CodeBetNotOffered, "this tournament takes no Dragon bets")
		}
		return nil // settled on the session: outside the per-hand maximum
	}
	if have := HandStakes(t, player); p.Stake > 0 && have+p.Stake > s.Stakes.Max {
		cur := t.Config().Currency
		return baccarat.Errorf(baccarat.CodeAboveMaximum, "your stakes on this hand would total %s: the tournament's maximum per hand is %s",
			baccarat.FormatMoney(have+p.Stake, cur), baccarat.FormatMoney(s.Stakes.Max, cur))
	}
	return nil
}

// CheckWithdraw applies the tournament's rules to a withdrawal at one of its tables: a house
// bot's wagers go back only by the house (Riders, as the system); nobody withdraws them in
// the bot's name.
func (s *Session) CheckWithdraw(w *table.Withdraw) error {
	if tournament.IsBot(w.Player) && w.Role != table.RoleSystem {
		return baccarat.Errorf(baccarat.CodeNotAuthorized, "%s is one of the tournament's house bots: only the house plays it", w.Player)
	}
	return nil
}

// HandStakes is what the player has staked on the hand in play: this round's wagers, riding
// ones included, Dragon bets left out.
func HandStakes(t *table.Table, player string) baccarat.Money {
	var sum baccarat.Money
	round := t.Round()
	for _, w := range t.Wagers() {
		if w.Player == player && w.Session == 0 && w.Round == round {
			sum += w.Stake
		}
	}
	return sum
}

// RequiredActor is who places a required wager on the record.
const RequiredActor = "tournament"

// BotActor is who places a house bot's wager on the record: the house, as the system.
const BotActor = "house-bot"

// BotWager is the command that places a bot's wager: by the house (BotActor, the system
// role), in the bot's name. Check refuses a bot's wager placed any other way.
func BotWager(bot string, w Wager) *table.Place {
	return &table.Place{Header: table.Header{Actor: BotActor, Role: table.RoleSystem, Reason: "house bot"},
		Player: bot, Bet: w.Bet, Stake: w.Stake}
}

// Required returns the wagers the house places as betting closes when the tournament
// requires a wager on every hand: Stakes.Min on Banker for each seated player with none.
// The host fills each one's Available from the player's chips; a player who cannot make the
// minimum is refused by the table and sits the hand out. Nil when nothing is required or
// betting is not open.
func (s *Session) Required(t *table.Table) []*table.Place {
	st := t.Status()
	if !s.Stakes.Required || !st.BetOpen || st.Betting > 1 {
		return nil
	}
	var out []*table.Place
	for _, p := range s.Players {
		if HandStakes(t, p) > 0 {
			continue
		}
		out = append(out, &table.Place{Header: table.Header{Actor: RequiredActor, Role: table.RoleSystem, Reason: "required wager"},
			Player: p, Bet: "banker", Stake: s.Stakes.Min})
	}
	return out
}

// Nets sums settlements per player, in the order players first appear, leaving out the
// players whose net is zero: a hand report's chip changes.
func Nets(ss []table.Settlement) []tournament.ChipChange {
	var out []tournament.ChipChange
	at := map[string]int{}
	for _, s := range ss {
		i, ok := at[s.Player]
		if !ok {
			i = len(out)
			at[s.Player] = i
			out = append(out, tournament.ChipChange{Player: s.Player})
		}
		out[i].Net += s.Net
	}
	kept := out[:0]
	for _, c := range out {
		if c.Net != 0 {
			kept = append(kept, c)
		}
	}
	return kept
}

// Merge adds two lists of chip changes player by player (a hand's and its session's Dragon
// settlement), in first-seen order, leaving out zeros.
func Merge(a, b []tournament.ChipChange) []tournament.ChipChange {
	ss := make([]table.Settlement, 0, len(a)+len(b))
	for _, l := range [][]tournament.ChipChange{a, b} {
		for _, c := range l {
			ss = append(ss, table.Settlement{Player: c.Player, Net: c.Net})
		}
	}
	return Nets(ss)
}
