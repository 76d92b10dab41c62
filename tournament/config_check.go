package tournament

import (
	"fmt"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

func (c *Config) checkMoney() error {
	if err := baccarat.CheckCurrency(c.Currency); err != nil {
		return err
	}
	if ledger.Currency(c.Currency).IsChips() {
		return badRequest("currency: the entry fee is paid in money (such as EUR, or XXX play money), not in chips")
	}
	if err := checkAmount("entry_fee", c.EntryFee, 0); err != nil {
		return err
	}
	if err := checkAmount("guarantee", c.Guarantee, 0); err != nil {
		return err
	}
	return checkAmount("starting_chips", c.StartingChips, 1)
}

func checkAmount(field string, m, least baccarat.Money) error {
	if m < least || m > baccarat.MaxAmount {
		return badRequest("%s is %d: give %d to %d minor units", field, m, least, baccarat.MaxAmount)
	}
	return nil
}

func (c *Config) checkTimes() error {
	if c.RegistrationOpens.IsZero() || c.RegistrationCloses.IsZero() || c.Start.IsZero() {
		return badRequest("registration_opens, registration_closes and start are all required")
	}
	if !c.RegistrationOpens.Before(c.RegistrationCloses) {
		return badRequest("registration_closes (%s) must come after registration_opens (%s)",
			stamp(c.RegistrationCloses), stamp(c.RegistrationOpens))
	}
	if c.Start.Before(c.RegistrationCloses) {
		return badRequest("start (%s) must not come before registration_closes (%s)",
			stamp(c.Start), stamp(c.RegistrationCloses))
	}
	if c.Start.Sub(c.RegistrationOpens) > MaxLead {
		return badRange("start (%s) is more than %d days after registration_opens (%s): open registration at most %d days before the start",
			stamp(c.Start), maxLeadDays, stamp(c.RegistrationOpens), maxLeadDays)
	}
	if c.Break < 0 {
		return badRequest("break is %s: give 0 to %s", c.Break, MaxBreak)
	}
	if c.Break > MaxBreak {
		return badRange("break is %s: give 0 to %s", c.Break, MaxBreak)
	}
	return nil
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func (c *Config) checkEntrants() error {
	if c.MinEntrants < 2 {
		return badRequest("min_entrants is %d: a tournament needs at least 2", c.MinEntrants)
	}
	if c.MaxEntrants < c.MinEntrants || c.MaxEntrants > MaxEntrantsLimit {
		return badRequest("max_entrants is %d: give %d (min_entrants) to %d", c.MaxEntrants, c.MinEntrants, MaxEntrantsLimit)
	}
	if c.TableSize < 2 || c.TableSize > MaxTableSize {
		return badRequest("table_size is %d: give 2 to %d players", c.TableSize, MaxTableSize)
	}
	return nil
}

func (c *Config) checkRounds() error {
	if len(c.Rounds) == 0 || len(c.Rounds) > maxRounds {
		return badRequest("rounds: give 1 to %d rounds", maxRounds)
	}
	for i := range c.Rounds {
		if err := c.checkRound(i); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) checkRound(i int) error {
	r := &c.Rounds[i]
	final := i == len(c.Rounds)-1
	if r.Hands != 0 || r.Duration != 0 {
		return badRequest("round %d: give sessions, or hands or duration for one session, not both", i+1)
	}
	if len(r.Name) > maxNameLen || hasControl(r.Name) {
		return badRange("round %d name: give at most %d printable characters", i+1, maxNameLen)
	}
	if err := baccarat.CheckNames(fmt.Sprintf("round %d names", i+1), r.Names); err != nil {
		return err
	}
	if len(r.Names) > 0 && r.Name == "" {
		return badRequest("round %d names: give the round a name first, which staff pages show", i+1)
	}
	if len(r.Sessions) == 0 || len(r.Sessions) > maxSessions {
		return badRequest("round %d: give 1 to %d sessions (or hands or duration for one)", i+1, maxSessions)
	}
	for j, s := range r.Sessions {
		if why := sessionRange(s); why != "" {
			return badRange("round %d session %d: %s", i+1, j+1, why)
		}
	}
	if err := c.checkStakes(i, *r.Stakes); err != nil {
		return err
	}
	most, from := c.TableSize, "from each table (table_size)"
	if r.AdvanceOverall {
		most, from = c.MaxEntrants, "from the whole round (max_entrants)"
	}
	switch {
	case final && (r.Advance != 0 || r.AdvanceOverall):
		return badRequest("round %d is the final: nobody advances from it, so leave advance out", i+1)
	case !final && r.Advance < 1:
		return badRequest("round %d: advance is %d: give 1 to %d, how many go on to round %d %s", i+1, r.Advance, most, i+2, from)
	case !final && r.Advance > most:
		return badRange("round %d: advance is %d: give 1 to %d, how many go on to round %d %s", i+1, r.Advance, most, i+2, from)
	case i == 0 && r.CarryChips:
		return badRequest("round 1: carry_chips is for later rounds; the first starts with starting_chips")
	}
	return nil
}

// sessionRange says what is wrong with a session ("" if nothing): hands or a duration,
// within their ranges.
func sessionRange(s Session) string {
	switch {
	case (s.Hands != 0) == (s.Duration != 0):
		return fmt.Sprintf("give either hands (1 to %d) or a duration (%s to %s)", MaxSessionHands, MinSessionTime, MaxSessionTime)
	case s.Hands < 0 || s.Hands > MaxSessionHands:
		return fmt.Sprintf("hands is %d: give 1 to %d", s.Hands, MaxSessionHands)
	case s.Duration != 0 && (s.Duration < MinSessionTime || s.Duration > MaxSessionTime):
		return fmt.Sprintf("duration is %s: give %s to %s", s.Duration, MinSessionTime, MaxSessionTime)
	}
	return ""
}

func (c *Config) checkStakes(i int, s Stakes) error {
	if s.Min < 1 || s.Max < s.Min || s.Max > baccarat.MaxAmount {
		return badRequest("round %d stakes: min %d, max %d: give a min of at least 1 and a max of min to %d", i+1, s.Min, s.Max, baccarat.MaxAmount)
	}
	if s.Min > c.StartingChips {
		return badRequest("round %d stakes: min %d is more than the starting chips (%d)", i+1, s.Min, c.StartingChips)
	}
	return nil
}

// checkFinalTable checks the final round fits one table however many register: the number
// of players a round can hold grows with the entrants, so the most entrants decide.
func (c *Config) checkFinalTable() error {
	n := c.MaxEntrants
	for i, r := range c.Rounds[:len(c.Rounds)-1] {
		n = advancing(n, c.TableSize, r)
		if n < 1 {
			return badRequest("round %d: nobody could advance", i+1)
		}
	}
	if n > c.TableSize {
		return badRequest("the final (round %d) must be one table: up to %d players could reach it, more than table_size %d",
			len(c.Rounds), n, c.TableSize)
	}
	return nil
}

// advancing is the most players who go on from a round of n players seated k to a table.
func advancing(n, k int, r Round) int {
	if r.AdvanceOverall {
		return min(n, r.Advance)
	}
	total := 0
	for _, size := range tableSizes(n, k) {
		total += min(size, r.Advance)
	}
	return total
}

// checkSchedule refuses a schedule whose hands could report more than the journal is sized
// for (MaxHandReports, MaxSeatHands): in each round, as many players as could reach it, at
// as many tables as they fill, over all its sessions' hands (a timed session counted at one
// hand per QuickestHand).
func (c *Config) checkSchedule() error {
	var reports, changes int64
	n := c.MaxEntrants
	for i, r := range c.Rounds {
		hands := int64(0)
		for _, s := range r.Sessions {
			hands += int64(s.Hands) + int64((time.Duration(s.Duration)+QuickestHand-1)/QuickestHand)
		}
		reports += hands * int64((n+c.TableSize-1)/c.TableSize) // the fewest tables of at most table_size
		changes += hands * int64(n)
		if i < len(c.Rounds)-1 {
			n = advancing(n, c.TableSize, r)
		}
	}
	if reports > MaxHandReports || changes > MaxSeatHands {
		return badRange("the schedule is too long for its entrants: its hands could report %d chip changes at %d table hands (at most %d and %d, "+
			"a timed session counted at a hand per %s): lower max_entrants, or the rounds, sessions or hands", changes, reports, MaxSeatHands, MaxHandReports, QuickestHand)
	}
	return nil
}

func (c *Config) checkRebuy() error {
	rb := c.Rebuy
	if rb == nil {
		return nil
	}
	if rb.Max < 1 || rb.Max > maxRebuys {
		return badRequest("rebuy max is %d: give 1 to %d rebuys per player (or leave rebuy out)", rb.Max, maxRebuys)
	}
	if err := checkAmount("rebuy price", rb.Price, 0); err != nil {
		return err
	}
	if err := checkAmount("rebuy chips", rb.Chips, 1); err != nil {
		return err
	}
	u := rb.Until
	if u.Round < 1 || u.Round > len(c.Rounds) || u.Session < 1 || u.Session > len(c.Rounds[u.Round-1].Sessions) || u.Hand < 1 {
		return badRequest("rebuy until: name a round, a session of it and a hand (1 or more), all counted from 1")
	}
	if s := c.Rounds[u.Round-1].Sessions[u.Session-1]; s.Hands > 0 && u.Hand > s.Hands {
		return badRequest("rebuy until: session %d of round %d has only %d hands", u.Session, u.Round, s.Hands)
	}
	for i := range u.Round {
		if m := c.Rounds[i].Stakes.Min; rb.Chips < m {
			return badRequest("rebuy chips (%d) must cover round %d's minimum stake (%d)", rb.Chips, i+1, m)
		}
	}
	return nil
}

func (c *Config) checkPrizes() error {
	if len(c.Prizes) == 0 || len(c.Prizes) > c.MaxEntrants {
		return badRequest("prizes: give 1 to max_entrants (%d) shares in basis points, such as [5000, 3000, 2000]", c.MaxEntrants)
	}
	sum := 0
	for i, s := range c.Prizes {
		if s < 1 || s > FullShare || (i > 0 && s > c.Prizes[i-1]) {
			return badRequest("prizes: share %d is %d: shares are 1 to %d basis points and never increase", i+1, s, FullShare)
		}
		sum += s
	}
	if sum != FullShare {
		return badRequest("prizes: the shares sum to %d basis points; they must sum to exactly %d (100%%)", sum, FullShare)
	}
	return nil
}

// checkPool checks the largest possible pool fits one posting of the books.
func (c *Config) checkPool() error {
	per := c.EntryFee
	if c.Rebuy != nil {
		per += baccarat.Money(c.Rebuy.Max) * c.Rebuy.Price // ≤ 100·10^15 + 10^15: fits int64
	}
	if per > 0 && per > baccarat.MaxAmount/baccarat.Money(c.MaxEntrants) {
		return badRequest("the pool could exceed %d minor units: lower the entry fee, the rebuys or max_entrants", baccarat.MaxAmount)
	}
	return nil
}
