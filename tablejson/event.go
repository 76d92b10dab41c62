// Package tablejson writes a table's events as JSON byte for byte as encoding/json writes
// them (the journal's format, version 1: the same field order, the same fields left out,
// the same escapes and numbers), without reflection and almost without allocating. Writing
// events is what bounds a replay of a long script; encoding/json stays the reference, and
// the tests compare the two on every event of the scenario goldens, of long random scripts
// and of events built from fuzz input.
package tablejson

import (
	"encoding/json"
	"strconv"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/table"
)

// AppendEvent appends the event's JSON, the bytes json.Marshal(e) returns, or returns b
// unchanged and json.Marshal's error. The rare event it cannot write itself (a time beyond
// year 9999, a card that is none of the 52) it leaves to encoding/json.
func AppendEvent(b []byte, e *table.Event) ([]byte, error) {
	n := len(b)
	if out, ok := appendEvent(b, e); ok {
		return out, nil
	}
	j, err := json.Marshal(e)
	if err != nil {
		return b[:n], err
	}
	return append(b[:n], j...), nil
}

// appendEvent writes the fields of table.Event in their order, each as its tag says.
func appendEvent(b []byte, e *table.Event) ([]byte, bool) {
	ok := true
	b = append(b, `{"seq":`...)
	b = appendUint(b, e.Seq)
	b = append(append(b, `,"type":`...), eventTypes[e.Type]...)
	if !e.At.IsZero() {
		if b, ok = appendTime(append(b, `,"at":`...), e.At); !ok {
			return b, false
		}
	}
	if e.Round != 0 {
		b = appendUint(append(b, `,"round":`...), e.Round)
	}
	if e.Actor != "" {
		b = appendKeyString(b, `,"actor":`, e.Actor)
	}
	if e.Role != table.RoleNone {
		b = append(append(b, `,"role":`...), roles[e.Role]...)
	}
	if e.Reason != "" {
		b = appendKeyString(b, `,"reason":`, e.Reason)
	}
	if e.Wager != nil {
		b = appendWager(append(b, `,"wager":`...), e.Wager)
	}
	if e.Phase != table.PhaseIdle {
		b = append(append(b, `,"phase":`...), phases[e.Phase]...)
	}
	if e.Betting != 0 {
		b = appendInt(append(b, `,"betting_round":`...), int64(e.Betting))
	}
	if !e.Until.IsZero() {
		if b, ok = appendTime(append(b, `,"until":`...), e.Until); !ok {
			return b, false
		}
	}
	if !e.Card.IsZero() {
		b = appendDealtCard(append(b, `,"card":`...), &e.Card)
	}
	if e.Window {
		b = append(b, `,"window":true`...)
	}
	if e.Certain {
		b = append(b, `,"certain":true`...)
	}
	if !e.Result.IsZero() {
		b = appendResult(append(b, `,"result":`...), &e.Result.Result)
	}
	if len(e.Settlements) != 0 {
		b = append(b, `,"settlements":[`...)
		for i := range e.Settlements {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSettlement(b, &e.Settlements[i])
		}
		b = append(b, ']')
	}
	if e.Detail != nil {
		if b, ok = appendDetail(b, e.Detail); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendDetail writes the fields of the embedded table.Detail, which JSON puts in the
// event's own object.
func appendDetail(b []byte, d *table.Detail) ([]byte, bool) {
	ok := true
	if len(d.Withdrawn) != 0 {
		b = append(b, `,"withdrawn":[`...)
		for i := range d.Withdrawn {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendWager(b, &d.Withdrawn[i])
		}
		b = append(b, ']')
	}
	if len(d.Cards) != 0 {
		if b, ok = appendCards(append(b, `,"cards":`...), d.Cards); !ok {
			return b, false
		}
	}
	if len(d.Prices) != 0 {
		b = append(b, `,"prices":[`...)
		for i := range d.Prices {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPrice(b, &d.Prices[i])
		}
		b = append(b, ']')
	}
	if d.Session != 0 {
		b = appendUint(append(b, `,"session":`...), d.Session)
	}
	if d.Shoe != nil {
		if b, ok = appendShoe(append(b, `,"shoe":`...), d.Shoe); !ok {
			return b, false
		}
	}
	if d.Player != "" {
		b = appendKeyString(b, `,"player":`, d.Player)
	}
	if d.Amount != 0 {
		b = appendMoney(append(b, `,"amount":`...), d.Amount)
	}
	if d.Bet != "" {
		b = appendKeyString(b, `,"bet":`, d.Bet)
	}
	if d.Limit != nil {
		b = appendMoney(append(b, `,"limit":{"min":`...), d.Limit.Min)
		b = appendMoney(append(b, `,"max":`...), d.Limit.Max)
		b = append(b, '}')
	}
	if d.Count != 0 {
		b = appendInt(append(b, `,"count":`...), int64(d.Count))
	}
	if d.Setting != table.SettingNone {
		b = append(append(b, `,"setting":`...), settings[d.Setting]...)
	}
	if d.Side != "" {
		b = appendKeyString(b, `,"side":`, d.Side)
	}
	return b, true
}

func appendKeyString(b []byte, key, s string) []byte {
	return AppendString(append(b, key...), s)
}

func appendWager(b []byte, w *table.Wager) []byte {
	b = appendUint(append(b, `{"id":`...), w.ID)
	b = appendUint(append(b, `,"round":`...), w.Round)
	b = appendKeyString(b, `,"player":`, w.Player)
	b = appendKeyString(b, `,"seat":`, w.Seat)
	b = appendKeyString(b, `,"bet":`, w.Bet)
	b = appendMoney(append(b, `,"stake":`...), w.Stake)
	if w.Odds != 0 {
		b = appendKeyString(b, `,"odds":`, w.Odds.String())
	}
	if w.Betting != 0 {
		b = appendInt(append(b, `,"betting_round":`...), int64(w.Betting))
	}
	if w.RequestID != "" {
		b = appendKeyString(b, `,"request_id":`, w.RequestID)
	}
	if w.PlacedBy != "" {
		b = appendKeyString(b, `,"placed_by":`, w.PlacedBy)
	}
	if w.Riding {
		b = append(b, `,"riding":true`...)
	}
	if w.Session != 0 {
		b = appendUint(append(b, `,"session":`...), w.Session)
	}
	return append(b, '}')
}

// appendDealtCard writes what DealtCard.MarshalJSON writes: the card only when it has a
// value (a face-down card in a public copy has none).
func appendDealtCard(b []byte, d *table.DealtCard) []byte {
	b = append(b, '{')
	if d.Card.Valid() {
		b = append(b, `"card":"`...)
		b = append(b, cardText[d.Card]...)
		b = append(b, `",`...)
	}
	b = append(append(b, `"position":`...), positions[d.Position]...)
	b = appendInt(append(b, `,"left":`...), int64(d.Left))
	if d.Hidden {
		b = append(b, `,"hidden":true`...)
	}
	if d.For != "" {
		b = appendKeyString(b, `,"for":`, d.For)
	}
	return append(b, '}')
}

// appendResult writes what RoundResult.MarshalJSON writes: the coup notation and the
// facts players read.
func appendResult(b []byte, x *baccarat.Result) []byte {
	b = appendKeyString(b, `{"coup":`, x.String())
	b = append(append(b, `,"winner":`...), winners[x.Winner]...)
	b = appendInt(append(b, `,"player_total":`...), int64(x.PlayerTotal))
	b = appendInt(append(b, `,"banker_total":`...), int64(x.BankerTotal))
	if x.Natural {
		b = append(b, `,"natural":true`...)
	}
	if x.PlayerPair {
		b = append(b, `,"player_pair":true`...)
	}
	if x.BankerPair {
		b = append(b, `,"banker_pair":true`...)
	}
	b = appendInt(append(b, `,"cards":`...), int64(x.Cards()))
	return append(b, '}')
}

// AppendSettlements appends ss as encoding/json writes the slice: a player's own
// settlements, which a settlement sends each player apart.
func AppendSettlements(b []byte, ss []table.Settlement) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendSettlement(b, &ss[i])
	}
	return append(b, ']')
}

func appendSettlement(b []byte, s *table.Settlement) []byte {
	b = appendUint(append(b, `{"wager":`...), s.Wager)
	b = appendKeyString(b, `,"player":`, s.Player)
	b = appendKeyString(b, `,"bet":`, s.Bet)
	b = appendMoney(append(b, `,"stake":`...), s.Stake)
	b = append(append(b, `,"outcome":`...), outcomes[s.Outcome]...)
	if s.Pays != "" {
		b = appendKeyString(b, `,"pays":`, s.Pays)
	}
	if s.Odds != 0 {
		b = appendKeyString(b, `,"odds":`, s.Odds.String())
	}
	b = appendMoney(append(b, `,"net":`...), s.Net)
	b = appendMoney(append(b, `,"returned":`...), s.Returned)
	if s.Rides {
		b = append(b, `,"rides":true`...)
	}
	return append(b, '}')
}

func appendShoe(b []byte, s *table.ShoeInfo) ([]byte, bool) {
	ok := true
	b = appendUint(append(b, `{"number":`...), s.Number)
	b = appendInt(append(b, `,"decks":`...), int64(s.Decks))
	b = appendInt(append(b, `,"cards":`...), int64(s.Cards))
	if s.CutCard != 0 {
		b = appendInt(append(b, `,"cut_card":`...), int64(s.CutCard))
	}
	if s.Commitment != nil {
		b = appendKeyString(b, `,"commitment":`, s.Commitment.String())
	}
	if len(s.Order) != 0 {
		if b, ok = appendCards(append(b, `,"order":`...), s.Order); !ok {
			return b, false
		}
	}
	if s.Salt != "" {
		b = appendKeyString(b, `,"salt":`, s.Salt)
	}
	if s.Live {
		b = append(b, `,"live":true`...)
	}
	if s.Verified != nil {
		b = strconv.AppendBool(append(b, `,"verified":`...), *s.Verified)
	}
	return append(b, '}'), true
}

func appendPrice(b []byte, p *odds.Price) []byte {
	b = appendKeyString(b, `{"bet":`, p.Bet)
	b = strconv.AppendBool(append(b, `,"offered":`...), p.Offered)
	b = appendKeyString(b, `,"odds":`, p.Odds.String())
	b = appendKeyString(b, `,"win":`, p.Win.String())
	b = appendKeyString(b, `,"refund":`, p.Refund.String())
	b = appendInt(append(b, `,"margin":`...), int64(p.Margin))
	return append(b, '}')
}

// appendCards writes a list of cards; false if one is none of the 52, which Card's
// MarshalText refuses.
func appendCards(b []byte, cards []baccarat.Card) ([]byte, bool) {
	b = append(b, '[')
	for i, c := range cards {
		if !c.Valid() {
			return b, false
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, cardText[c]...)
		b = append(b, '"')
	}
	return append(b, ']'), true
}

// The JSON strings of the enums' names, by value, made once from their String methods.
var (
	eventTypes = quoted(table.EventType.String)
	roles      = quoted(table.Role.String)
	phases     = quoted(table.Phase.String)
	settings   = quoted(table.Setting.String)
	positions  = quoted(baccarat.Position.String)
	outcomes   = quoted(games.Outcome.String)
	winners    = quoted(baccarat.Winner.String)
)

// quoted is the JSON string of the name of each value of an enum of a byte.
func quoted[T ~uint8](name func(T) string) *[256]string {
	var q [256]string
	for v := range q {
		q[v] = string(AppendString(nil, name(T(v))))
	}
	return &q
}

// cardText is each card's text form, made once from Card.String.
var cardText = func() (t [baccarat.NumCards]string) {
	for c := range t {
		t[c] = baccarat.Card(c).String()
	}
	return t
}()
