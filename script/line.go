package script

import (
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
)

// lineCmd is a script line: the fields of every command, so that scripts stay easy to
// write (a line may carry a field its command ignores); unknown fields are refused.
type lineCmd struct {
	Cmd    string     `json:"cmd"`
	Actor  string     `json:"actor,omitempty"`
	Role   table.Role `json:"role,omitempty"`
	At     time.Time  `json:"at,omitzero"`
	Reason string     `json:"reason,omitempty"`

	Player    string         `json:"player,omitempty"`
	Seat      string         `json:"seat,omitempty"`
	Bet       string         `json:"bet,omitempty"`
	Stake     baccarat.Money `json:"stake,omitempty"`
	Odds      baccarat.Odds  `json:"odds,omitempty"`
	RequestID string         `json:"request_id,omitempty"`
	Wager     uint64         `json:"wager,omitempty"`

	Card  *baccarat.Card  `json:"card,omitempty"`
	Cards []baccarat.Card `json:"cards,omitempty"`
	Known bool            `json:"known,omitempty"`
	Cut   bool            `json:"cut,omitempty"`

	Decks      int                  `json:"decks,omitempty"`
	Order      []baccarat.Card      `json:"order,omitempty"`
	Salt       string               `json:"salt,omitempty"`
	CutCard    int                  `json:"cut_card,omitempty"`
	Commitment *baccarat.Commitment `json:"commitment,omitempty"`
	Until      time.Time            `json:"until,omitzero"`

	Amount baccarat.Money `json:"amount,omitempty"`
	Min    baccarat.Money `json:"min,omitempty"`
	Max    baccarat.Money `json:"max,omitempty"`
	Limit  int            `json:"limit,omitempty"`
}

// cmdFund is the runner's own command: it funds a player's wallet, not the table.
const cmdFund table.CommandType = 255

// aliases are other names people give the commands in a script; they mean the same.
var aliases = map[string]string{
	"open_betting": "open", "place_your_bets": "open", "close_betting": "close", "no_more_bets": "close",
	"place_wager": "place", "wager": "place", "bet": "place", "withdraw_wager": "withdraw",
	"deal_card": "card", "scan": "card", "void_round": "void", "shuffle": "new_shoe", "change_shoe": "new_shoe",
	"correction": "correct", "power_failure": "interrupt", "simultaneous": "simultaneous_draw",
}

// kinds are the commands by every name a line may give them: the table's names, the
// aliases and fund.
var kinds = func() map[string]table.CommandType {
	m := map[string]table.CommandType{"fund": cmdFund}
	for k := range cmdFund {
		if back := table.CommandType(0); back.UnmarshalText([]byte(k.String())) == nil && back == k {
			m[k.String()] = k
		}
	}
	for alias, name := range aliases {
		m[alias] = m[name]
	}
	return m
}()

// kind is the line's command (CmdNone when it names none the table knows).
func (l *lineCmd) kind() table.CommandType {
	return kinds[l.Cmd] // CmdNone when missing
}

// commands are the runner's own commands of the kinds a round sends by the dozen, filled
// afresh for each line: the table keeps no command once Apply returns.
type commands struct {
	place table.Place
	open  table.Open
	close table.Close
	deal  table.Deal
	card  table.Card
}

// command is the typed command the line describes: one of reuse's for the kinds it holds.
func (l *lineCmd) command(kind table.CommandType, reuse *commands) (table.Command, error) {
	h := table.Header{Actor: l.Actor, Role: l.Role, At: l.At, Reason: l.Reason}
	switch kind {
	case table.CmdPlace:
		reuse.place = table.Place{Header: h, Player: l.Player, Seat: l.Seat, Bet: l.Bet, Stake: l.Stake, Odds: l.Odds, RequestID: l.RequestID}
		return &reuse.place, nil
	case table.CmdOpen:
		reuse.open = table.Open{Header: h, Until: l.Until}
		return &reuse.open, nil
	case table.CmdClose:
		reuse.close = table.Close{Header: h}
		return &reuse.close, nil
	case table.CmdDeal:
		reuse.deal = table.Deal{Header: h, Until: l.Until}
		return &reuse.deal, nil
	case table.CmdCard:
		reuse.card = table.Card{Header: h, Card: l.Card, Cut: l.Cut, Until: l.Until}
		return &reuse.card, nil
	}
	return l.other(kind, h)
}

// other is the command of a kind commands does not hold.
func (l *lineCmd) other(kind table.CommandType, h table.Header) (table.Command, error) {
	switch kind {
	case table.CmdNewShoe:
		return &table.NewShoe{Header: h, Decks: l.Decks, Order: l.Order, Salt: l.Salt, CutCard: l.CutCard, Commitment: l.Commitment}, nil
	case table.CmdEndShoe:
		return &table.EndShoe{Header: h}, nil
	case table.CmdWithdraw:
		return &table.Withdraw{Header: h, Player: l.Player, Wager: l.Wager}, nil
	case table.CmdCorrect:
		return &table.Correct{Header: h, Cards: l.Cards}, nil
	case table.CmdSimultaneous:
		return &table.Simultaneous{Header: h, Cards: l.Cards, Known: l.Known}, nil
	case table.CmdInterrupt:
		return &table.Interrupt{Header: h}, nil
	case table.CmdResume:
		return &table.Resume{Header: h, Cards: l.Cards, Until: l.Until}, nil
	case table.CmdDeviceReset:
		return &table.DeviceReset{Header: h}, nil
	case table.CmdVoid:
		return &table.Void{Header: h}, nil
	case table.CmdEndSession:
		return &table.EndSession{Header: h}, nil
	case table.CmdSetLimit:
		return &table.SetLimit{Header: h, Bet: l.Bet, Min: l.Min, Max: l.Max}, nil
	case table.CmdSetAreaLimit:
		return &table.SetAreaLimit{Header: h, Limit: l.Limit}, nil
	case table.CmdSetDifferential:
		return &table.SetDifferential{Header: h, Amount: l.Amount}, nil
	case table.CmdReveal:
		return &table.Reveal{Header: h}, nil
	case table.CmdPause:
		return &table.Pause{Header: h}, nil
	case table.CmdReopen:
		return &table.Reopen{Header: h}, nil
	case table.CmdCloseTable:
		return &table.CloseTable{Header: h}, nil
	case table.CmdDraw, table.CmdGiveUpShoe: // the holder, named as actor or player
		if h.Actor == "" {
			h.Actor = l.Player
		}
		if kind == table.CmdDraw {
			return &table.Draw{Header: h}, nil
		}
		return &table.GiveUpShoe{Header: h}, nil
	case table.CmdHandShoe:
		return &table.HandShoe{Header: h, Player: l.Player}, nil
	}
	return nil, baccarat.Errorf(baccarat.CodeBadRequest, "unknown command %q", l.Cmd)
}
