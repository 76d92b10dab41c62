package backoffice

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// The kinds of journal the aggregator folds.
const (
	KindTable      = "table"
	KindTournament = "tournament"
	KindOther      = "other" // a journal whose first record is neither: passed over
)

// The first records of a table's and a tournament's journals (live's specRecord and
// tournamentRecord).
const (
	tableCreated      = "table_created"
	tournamentCreated = "tournament_created"
)

// State is what folding one journal carries from one batch of records to the next, kept
// with its watermark.
type State struct {
	Kind     string `json:"kind"`
	Game     string `json:"game,omitempty"`
	Currency string `json:"currency,omitempty"`
	Variant  string `json:"variant,omitempty"`
	Shoe     uint64 `json:"shoe,omitempty"`
	// Tournament is a tournament's journal's info, as it stands.
	Tournament *TournamentInfo `json:"tournament,omitempty"`
}

// Mark is how far the aggregator has folded a journal: up to record Seq.
type Mark struct {
	Table string `json:"table"`
	Seq   uint64 `json:"seq"`
	State State  `json:"state"`
}

// Lag is a journal whose head is past its mark.
type Lag struct {
	Mark
	Head uint64 `json:"head"`
}

// Fold is what folding records From..To of one journal adds: the store applies it in one
// transaction, and only if the journal's mark is still From−1 (another aggregator may have
// folded them meanwhile: then it is a conflict and nothing changes). Days, Bets and
// TournamentDays are added to the rows there; Rounds are merged (the first and last records
// widen, a settled or void status replaces an open one); Wagers and Shoes are written once;
// Audit entries are written unless an entry with the same Ref is there.
type Fold struct {
	Table          string
	From, To       uint64
	State          State
	Info           *TableInfo
	Tournament     *TournamentInfo
	Days           []DayRow
	Bets           []BetRow
	Rounds         []RoundRef
	Wagers         []WagerRef
	Shoes          []ShoeRef
	TournamentDays []TournamentDay
	Audit          []Entry
}

// Empty reports whether the fold adds nothing but moves the mark.
func (f *Fold) Empty() bool {
	return f.Info == nil && f.Tournament == nil && len(f.Days) == 0 && len(f.Bets) == 0 && len(f.Rounds) == 0 &&
		len(f.Wagers) == 0 && len(f.Shoes) == 0 && len(f.TournamentDays) == 0 && len(f.Audit) == 0
}

// FoldRecords folds consecutive records of one journal, which follow mark, into what they
// add. It is pure: the same records after the same mark give the same fold.
func FoldRecords(mark Mark, recs []journal.Record) (Fold, error) {
	f := Fold{Table: mark.Table, From: mark.Seq + 1, To: mark.Seq, State: mark.State}
	if len(recs) == 0 {
		return f, nil
	}
	if recs[0].Seq != mark.Seq+1 {
		return f, baccarat.Errorf(baccarat.CodeConflict, "fold %s: record %d does not follow mark %d", mark.Table, recs[0].Seq, mark.Seq)
	}
	f.To = recs[len(recs)-1].Seq
	if f.State.Kind == "" {
		f.State.Kind = kindOf(recs[0])
	}
	var err error
	switch f.State.Kind {
	case KindTable:
		err = foldTable(&f, recs)
	case KindTournament:
		err = foldTournament(&f, recs)
	}
	return f, err
}

func kindOf(first journal.Record) string {
	switch {
	case first.Seq != 1:
		return KindOther
	case first.Type == tableCreated:
		return KindTable
	case first.Type == tournamentCreated:
		return KindTournament
	}
	return KindOther
}

// tableSpec is what the aggregator reads of a table's first record (a live.Spec).
type tableSpec struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Mode       string          `json:"mode"`
	Currency   string          `json:"currency"`
	Config     json.RawMessage `json:"config"`
	Tournament *struct {
		Tournament string `json:"tournament"`
	} `json:"tournament"`
}

// tableFold gathers one batch of a table's records.
type tableFold struct {
	f      *Fold
	days   map[string]*DayRow
	bets   map[[2]string]*BetRow
	rounds map[uint64]*RoundRef
}

func foldTable(f *Fold, recs []journal.Record) error {
	tf := tableFold{f: f, days: map[string]*DayRow{}, bets: map[[2]string]*BetRow{}, rounds: map[uint64]*RoundRef{}}
	for i := range recs {
		rec := &recs[i]
		if rec.Seq == 1 {
			if err := tf.spec(rec); err != nil {
				return err
			}
			continue
		}
		var e table.Event
		if err := json.Unmarshal(rec.Data, &e); err != nil {
			return fmt.Errorf("fold %s record %d: %w", rec.Table, rec.Seq, err)
		}
		tf.event(rec, &e)
	}
	tf.flush()
	return nil
}

func (tf *tableFold) spec(rec *journal.Record) error {
	var s tableSpec
	if err := json.Unmarshal(rec.Data, &s); err != nil {
		return fmt.Errorf("fold %s: its spec: %w", rec.Table, err)
	}
	var cfg table.Config
	_ = json.Unmarshal(s.Config, &cfg)
	info := &TableInfo{Table: rec.Table, Name: s.Name, Game: cfg.Game, Mode: s.Mode, Currency: s.Currency, Config: s.Config, Created: rec.At}
	if s.Tournament != nil {
		info.Tournament = s.Tournament.Tournament
	}
	if info.Currency == "" {
		info.Currency = baccarat.PlayMoney
	}
	tf.f.Info = info
	st := &tf.f.State
	st.Game, st.Currency, st.Variant = cfg.Game, info.Currency, Variant(cfg)
	return nil
}

// Variant is the part of a table's configuration its bets' house edges depend on, written as
// a table.Config's JSON: the game, its decks, Bet on Baccarat's margins and a Dragon
// session's length.
func Variant(cfg table.Config) string {
	v := table.Config{Game: cfg.Game, Decks: cfg.Decks, Margins: cfg.Margins, SessionHands: cfg.SessionHands}
	b, _ := json.Marshal(v)
	return string(b)
}

func (tf *tableFold) day(at time.Time) *DayRow {
	d := Day(at)
	r := tf.days[d]
	if r == nil {
		st := tf.f.State
		r = &DayRow{Day: d, Table: tf.f.Table, Game: st.Game, Currency: st.Currency}
		tf.days[d] = r
	}
	return r
}

func (tf *tableFold) bet(at time.Time, bet string) *BetRow {
	d := Day(at)
	r := tf.bets[[2]string{d, bet}]
	if r == nil {
		st := tf.f.State
		r = &BetRow{Day: d, Table: tf.f.Table, Game: st.Game, Currency: st.Currency, Variant: st.Variant, Bet: bet}
		tf.bets[[2]string{d, bet}] = r
	}
	return r
}

func (tf *tableFold) round(rec *journal.Record, n uint64) *RoundRef {
	r := tf.rounds[n]
	if r == nil {
		r = &RoundRef{Table: tf.f.Table, Round: n, First: rec.Seq, Shoe: tf.f.State.Shoe, At: rec.At, Status: RoundOpen}
		tf.rounds[n] = r
	}
	r.Last = rec.Seq
	return r
}

func (tf *tableFold) event(rec *journal.Record, e *table.Event) {
	f := tf.f
	switch e.Type {
	case table.EvShoeStarted:
		if s := e.Shoe(); s != nil {
			f.State.Shoe = s.Number
			f.Shoes = append(f.Shoes, ShoeRef{Table: f.Table, Shoe: s.Number, Started: rec.Seq})
		}
	case table.EvShoeEnded:
		if s := e.Shoe(); s != nil {
			f.Shoes = append(f.Shoes, ShoeRef{Table: f.Table, Shoe: s.Number, Ended: rec.Seq})
		}
	}
	if e.Round > 0 {
		tf.round(rec, e.Round)
	}
	switch e.Type {
	case table.EvWagerPlaced:
		w := e.Wager
		d := tf.day(rec.At)
		d.Wagers++
		d.Staked += w.Stake
		b := tf.bet(rec.At, w.Bet)
		b.Wagers++
		b.Staked += w.Stake
		f.Wagers = append(f.Wagers, WagerRef{Table: f.Table, Wager: w.ID, Round: w.Round, Player: w.Player, Bet: w.Bet, Stake: w.Stake, At: rec.At})
	case table.EvWagerRaised, table.EvWagerLowered:
		// A chip raises the spot's one wager (or is taken back): staked counts every chip,
		// a chip taken back is withdrawn and refunded as a whole wager is; the wager's
		// reference holds its total.
		w, d := e.Wager, tf.day(rec.At)
		if e.Type == table.EvWagerRaised {
			d.Staked += e.Amount()
			tf.bet(rec.At, w.Bet).Staked += e.Amount()
		} else {
			d.Withdrawn += e.Amount()
			d.Refunded += e.Amount()
		}
		for i := len(f.Wagers) - 1; i >= 0; i-- {
			if r := &f.Wagers[i]; r.Wager == w.ID && r.Table == f.Table {
				r.Stake = w.Stake
				break
			}
		}
	case table.EvWagerWithdrawn:
		d := tf.day(rec.At)
		for _, w := range e.Withdrawn() {
			d.Withdrawn += w.Stake
			d.Refunded += w.Stake
		}
	case table.EvRoundSettled, table.EvSessionSettled:
		tf.settled(rec, e)
	case table.EvRoundVoided:
		d := tf.day(rec.At)
		d.Voids++
		for _, s := range e.Settlements {
			if !s.Rides {
				d.Refunded += s.Returned
			}
		}
		r := tf.round(rec, e.Round)
		r.Status, r.Result = RoundVoid, e.Reason
	}
	tf.staff(rec, e)
}

// settled counts a settlement as the books post it (live.Postings): a push that rides into
// the next round stays in play and is counted when it is settled there.
func (tf *tableFold) settled(rec *journal.Record, e *table.Event) {
	d := tf.day(rec.At)
	if e.Type == table.EvRoundSettled {
		d.Rounds++
		r := tf.round(rec, e.Round)
		r.Status, r.Result = RoundSettled, e.Result.String()
	}
	for _, s := range e.Settlements {
		if s.Rides {
			continue
		}
		d.Settled += s.Stake
		d.Returned += s.Returned
		b := tf.bet(rec.At, s.Bet)
		b.Settled += s.Stake
		b.Returned += s.Returned
	}
}

// staffEvents are the events a dealer or the pit causes that the audit trail keeps: changes
// to a table's settings, voids, the irregularities of a round, a Dragon session ended, and
// the pit's pause, reopening and closing of a table. Opening and closing betting, dealing
// cards and changing shoes are the table's routine, kept in its journal.
var staffEvents = map[table.EventType]Action{
	table.EvRoundVoided: ActTableVoid, table.EvLimitChanged: ActTableLimit, table.EvInterrupted: ActTableCommand,
	table.EvResumed: ActTableCommand, table.EvDeviceReset: ActTableCommand, table.EvCardsCorrected: ActTableCommand,
	table.EvSimultaneous: ActTableCommand, table.EvSessionSettled: ActTableCommand, table.EvTablePaused: ActTableCommand,
	table.EvTableReopened: ActTableCommand, table.EvTableClosed: ActTableCommand,
	table.EvShoePassed: ActTableCommand, // the pit handing the shoe to a player (Method C)
}

func (tf *tableFold) staff(rec *journal.Record, e *table.Event) {
	act, ok := staffEvents[e.Type]
	if !ok || (e.Role != table.RoleDealer && e.Role != table.RolePit) || e.Actor == "" {
		return
	}
	detail := map[string]any{"event": e.Type.String(), "round": e.Round}
	switch e.Type {
	case table.EvLimitChanged:
		switch e.Setting {
		case table.SettingAreaLimit:
			act = ActTableArea
			detail["limit"] = e.Count
		case table.SettingDifferential:
			act = ActTableDiff
			detail["amount"] = e.Amount
		default:
			detail["bet"], detail["limit"] = e.Bet, e.Limit
		}
	case table.EvRoundVoided:
		var stakes baccarat.Money
		for _, s := range e.Settlements {
			stakes += s.Stake
		}
		detail["wagers"], detail["stakes"] = len(e.Settlements), stakes
	case table.EvCardsCorrected, table.EvSimultaneous:
		detail["cards"] = cardsText(e.Cards())
	}
	b, _ := json.Marshal(detail)
	tf.f.Audit = append(tf.f.Audit, Entry{At: rec.At, Actor: e.Actor, Role: e.Role.String(), Action: act, Target: rec.Table,
		Reason: clip(e.Reason, MaxReason), Detail: b, Ref: EventRef(rec.Table, e.Seq), Source: SourceJournal})
}

func cardsText(cs []baccarat.Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// flush writes the batch's rows in a stable order.
func (tf *tableFold) flush() {
	f := tf.f
	for _, d := range tf.days {
		f.Days = append(f.Days, *d)
	}
	sort.Slice(f.Days, func(i, j int) bool { return f.Days[i].Day < f.Days[j].Day })
	for _, b := range tf.bets {
		f.Bets = append(f.Bets, *b)
	}
	sort.Slice(f.Bets, func(i, j int) bool {
		if f.Bets[i].Day != f.Bets[j].Day {
			return f.Bets[i].Day < f.Bets[j].Day
		}
		return f.Bets[i].Bet < f.Bets[j].Bet
	})
	for _, r := range tf.rounds {
		f.Rounds = append(f.Rounds, *r)
	}
	sort.Slice(f.Rounds, func(i, j int) bool { return f.Rounds[i].Round < f.Rounds[j].Round })
}

// tournamentSpec is what the aggregator reads of a tournament's first record (a
// live.TournamentSpec).
type tournamentSpec struct {
	Config struct {
		ID       string         `json:"id"`
		Name     string         `json:"name"`
		Game     string         `json:"game"`
		Currency string         `json:"currency"`
		EntryFee baccarat.Money `json:"entry_fee"`
		Start    time.Time      `json:"start"`
	} `json:"config"`
	Wallet string `json:"wallet"`
}

func foldTournament(f *Fold, recs []journal.Record) error {
	days := map[string]*TournamentDay{}
	day := func(at time.Time) *TournamentMoney {
		d := Day(at)
		if days[d] == nil {
			days[d] = &TournamentDay{Tournament: tournamentID(f), Day: d}
		}
		return &days[d].TournamentMoney
	}
	for i := range recs {
		rec := &recs[i]
		if rec.Seq == 1 {
			var s tournamentSpec
			if err := json.Unmarshal(rec.Data, &s); err != nil {
				return fmt.Errorf("fold %s: its spec: %w", rec.Table, err)
			}
			c := s.Config
			f.State.Tournament = &TournamentInfo{Tournament: c.ID, Name: c.Name, Game: c.Game, Currency: c.Currency, Wallet: s.Wallet,
				EntryFee: c.EntryFee, Phase: "created", Created: rec.At, Start: c.Start}
			continue
		}
		var e tournament.Event
		if err := json.Unmarshal(rec.Data, &e); err != nil {
			return fmt.Errorf("fold %s record %d: %w", rec.Table, rec.Seq, err)
		}
		tournamentEvent(f.State.Tournament, day(rec.At), rec.At, &e)
	}
	if f.State.Tournament != nil {
		info := *f.State.Tournament
		f.Tournament = &info
	}
	for _, d := range days {
		f.TournamentDays = append(f.TournamentDays, *d)
	}
	sort.Slice(f.TournamentDays, func(i, j int) bool { return f.TournamentDays[i].Day < f.TournamentDays[j].Day })
	return nil
}

func tournamentID(f *Fold) string {
	if t := f.State.Tournament; t != nil {
		return t.Tournament
	}
	return strings.TrimPrefix(f.Table, "tournament-")
}

func isBot(player string) bool { return strings.HasPrefix(player, "bot.") }

func tournamentEvent(info *TournamentInfo, m *TournamentMoney, at time.Time, e *tournament.Event) {
	if info == nil {
		info = &TournamentInfo{}
	}
	switch e.Type {
	case tournament.EvRegistered:
		m.Entries++
		if e.Bot || isBot(e.Player) {
			m.BotFees += e.Amount
		} else {
			m.Fees += e.Amount
		}
		info.Entrants++
	case tournament.EvUnregistered:
		m.Entries--
		m.Refunds += e.Amount
		info.Entrants--
	case tournament.EvRebought:
		if isBot(e.Player) {
			m.BotFees += e.Amount
		} else {
			m.Rebuys += e.Amount
		}
	case tournament.EvStarted:
		info.Phase = "running"
	case tournament.EvCancelled:
		for _, p := range e.Payments {
			if isBot(p.Player) { // the house's own fee back to the house
				m.BotFees -= p.Amount
			} else {
				m.Refunds += p.Amount
			}
		}
		info.Phase, info.Ended = "cancelled", at
	case tournament.EvFinished:
		for _, p := range e.Payments {
			if isBot(p.Player) {
				m.BotPrizes += p.Amount
			} else {
				m.Prizes += p.Amount
			}
		}
		if e.Pool != nil {
			m.TopUp += e.Pool.TopUp
			info.Pool = e.Pool.Total
		}
		info.Phase, info.Ended = "finished", at
	}
}
