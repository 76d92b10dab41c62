package backoffice

import (
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat"
)

// DayFormat is how a UTC day is written in the summaries: "2026-11-22". It sorts as dates do.
const DayFormat = time.DateOnly

// Day is the UTC day of t.
func Day(t time.Time) string { return t.UTC().Format(DayFormat) }

// Figures are a table's business over some time, in its currency's minor units. Takings are
// Settled − Returned, exactly what the settlements post to the house's account
// (live.Postings); stakes placed = Settled + Refunded + what is still in play.
type Figures struct {
	Rounds    int64          `json:"rounds"`    // rounds settled
	Voids     int64          `json:"voids"`     // rounds voided
	Wagers    int64          `json:"wagers"`    // wagers placed
	Staked    baccarat.Money `json:"staked"`    // their stakes (turnover)
	Withdrawn baccarat.Money `json:"withdrawn"` // stakes withdrawn by players
	Settled   baccarat.Money `json:"settled"`   // stakes of the wagers settled (won, lost, pushed)
	Returned  baccarat.Money `json:"returned"`  // paid back to players by those settlements, stakes included
	Refunded  baccarat.Money `json:"refunded"`  // stakes given back by voided rounds and withdrawals
}

// Takings are the house's: stakes settled less what they returned.
func (f Figures) Takings() baccarat.Money { return f.Settled - f.Returned }

// Add adds g to f.
func (f *Figures) Add(g Figures) {
	f.Rounds += g.Rounds
	f.Voids += g.Voids
	f.Wagers += g.Wagers
	f.Staked += g.Staked
	f.Withdrawn += g.Withdrawn
	f.Settled += g.Settled
	f.Returned += g.Returned
	f.Refunded += g.Refunded
}

// DayRow is one table's figures on one UTC day in one currency. In a report's answer the
// keys not grouped by are empty.
type DayRow struct {
	Day      string `json:"day,omitempty"`
	Table    string `json:"table,omitempty"`
	Game     string `json:"game,omitempty"`
	Currency string `json:"currency"`
	Figures
}

// BetRow is one bet's figures on one table's day. Variant is the part of the table's
// configuration a bet's house edge depends on, as a table.Config's JSON
// ({"game":"mbs-tiger","decks":8}): a report prices the bets actually placed with it.
type BetRow struct {
	Day      string         `json:"day,omitempty"`
	Table    string         `json:"table,omitempty"`
	Game     string         `json:"game,omitempty"`
	Currency string         `json:"currency"`
	Variant  string         `json:"variant"`
	Bet      string         `json:"bet"`
	Wagers   int64          `json:"wagers"`
	Staked   baccarat.Money `json:"staked"`
	Settled  baccarat.Money `json:"settled"`
	Returned baccarat.Money `json:"returned"`
}

// TableInfo is what a table is, from its journal's first record.
type TableInfo struct {
	Table      string          `json:"table"`
	Name       string          `json:"name"`
	Game       string          `json:"game"`
	Mode       string          `json:"mode"`
	Currency   string          `json:"currency"`
	Tournament string          `json:"tournament,omitempty"` // the tournament whose session it plays
	Config     json.RawMessage `json:"config"`
	Created    time.Time       `json:"created"`
}

// RoundRef is where a round is in its table's journal: its records run from First to Last.
type RoundRef struct {
	Table  string    `json:"table"`
	Round  uint64    `json:"round"`
	First  uint64    `json:"first"`
	Last   uint64    `json:"last"`
	Shoe   uint64    `json:"shoe"`
	At     time.Time `json:"at"`               // its first record's time
	Status string    `json:"status"`           // RoundOpen, RoundSettled or RoundVoid
	Result string    `json:"result,omitempty"` // the coup, or a void's reason
}

// The states of a round.
const (
	RoundOpen    = "open"
	RoundSettled = "settled"
	RoundVoid    = "void"
)

// WagerRef is a wager, found by its table and id, or among a player's.
type WagerRef struct {
	Table  string         `json:"table"`
	Wager  uint64         `json:"wager"`
	Round  uint64         `json:"round"`
	Player string         `json:"player"`
	Bet    string         `json:"bet"`
	Stake  baccarat.Money `json:"stake"`
	At     time.Time      `json:"at"`
}

// ShoeRef is where a shoe starts and ends in its table's journal (Ended 0: not yet).
type ShoeRef struct {
	Table   string `json:"table"`
	Shoe    uint64 `json:"shoe"`
	Started uint64 `json:"started"`
	Ended   uint64 `json:"ended,omitempty"`
}

// Session is a player's play at one table on one UTC day.
type Session struct {
	Table    string         `json:"table"`
	Day      string         `json:"day"`
	First    time.Time      `json:"first"`
	Last     time.Time      `json:"last"`
	Wagers   int64          `json:"wagers"`
	Staked   baccarat.Money `json:"staked"`
	Currency string         `json:"currency"`
}

// TournamentInfo is a tournament as its journal says: what it is and how it ended.
type TournamentInfo struct {
	Tournament string         `json:"tournament"`
	Name       string         `json:"name"`
	Game       string         `json:"game"`
	Currency   string         `json:"currency"`
	Wallet     string         `json:"wallet,omitempty"`
	EntryFee   baccarat.Money `json:"entry_fee"`
	Phase      string         `json:"phase"` // created, running, finished, cancelled
	Created    time.Time      `json:"created"`
	Start      time.Time      `json:"start"`
	Ended      time.Time      `json:"ended,omitzero"`
	Entrants   int64          `json:"entrants"`
	Pool       baccarat.Money `json:"pool"` // the pool the prizes divided (collected + top-up), once finished
}

// TournamentMoney is a tournament's money on one day, in its currency: fees and rebuys paid
// by players and by the house for its bots, refunds, prizes to players and to bots (which go
// back to the house), and the house's top-up of the pool to its guarantee.
type TournamentMoney struct {
	Fees      baccarat.Money `json:"fees"`
	BotFees   baccarat.Money `json:"bot_fees"`
	Rebuys    baccarat.Money `json:"rebuys"`
	Refunds   baccarat.Money `json:"refunds"`
	Prizes    baccarat.Money `json:"prizes"`
	BotPrizes baccarat.Money `json:"bot_prizes"`
	TopUp     baccarat.Money `json:"top_up"`
	Entries   int64          `json:"entries"` // registrations, less those withdrawn
}

// Add adds m to t.
func (t *TournamentMoney) Add(m TournamentMoney) {
	t.Fees += m.Fees
	t.BotFees += m.BotFees
	t.Rebuys += m.Rebuys
	t.Refunds += m.Refunds
	t.Prizes += m.Prizes
	t.BotPrizes += m.BotPrizes
	t.TopUp += m.TopUp
	t.Entries += m.Entries
}

// Net is the house's result: what players paid, less refunds and the prizes players won.
// Bots' fees and prizes are the house's own money going round, so they are left out; a
// top-up shows as prizes larger than fees.
func (t TournamentMoney) Net() baccarat.Money { return t.Fees + t.Rebuys - t.Refunds - t.Prizes }

// TournamentDay is one tournament's money on one UTC day.
type TournamentDay struct {
	Tournament string `json:"tournament"`
	Day        string `json:"day"`
	TournamentMoney
}

// TournamentRow is a tournament with its money over a period (a report's row).
type TournamentRow struct {
	TournamentInfo
	TournamentMoney
}

// BookTotal is the books of one currency and kind of account: the house, the wallets (the
// players' and the prize pools') or the tables' in-play accounts. Every currency's three sum
// to zero in books that balance.
type BookTotal struct {
	Currency string         `json:"currency"`
	Kind     string         `json:"kind"` // house, wallet, inplay
	Accounts int64          `json:"accounts"`
	Balance  baccarat.Money `json:"balance"`
}

// Template is a tournament set up once and kept under a name, to create others from.
type Template struct {
	Name    string          `json:"name"`
	Spec    json.RawMessage `json:"spec"` // a POST /api/admin/tournaments body
	By      string          `json:"by"`
	Updated time.Time       `json:"updated"`
}

// MaxTemplate is the largest template's spec, in bytes: a request body's size.
const MaxTemplate = 64 << 10

// CheckTemplate checks a template before it is stored.
func CheckTemplate(t Template) error {
	switch {
	case !baccarat.ValidID(t.Name):
		return baccarat.Errorf(baccarat.CodeBadRequest, "a template's name: 1 to %d letters, digits, _ and -", baccarat.MaxIDLen)
	case len(t.Spec) == 0 || len(t.Spec) > MaxTemplate || !json.Valid(t.Spec):
		return baccarat.Errorf(baccarat.CodeBadRequest, "a template's spec is a JSON object of at most %d bytes", MaxTemplate)
	}
	return nil
}
