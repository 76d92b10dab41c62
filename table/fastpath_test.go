package table

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/tablehouse/baccarat"
)

// The hot path of a wager takes shortcuts; each is compared here with the general path it
// stands for, over every combination that matters.

// TestOwnWagerIsAuthorized: a wager Apply lets through without asking authorize (Place.own)
// is one authorize lets through as a player acting for c.Player, at dealer and automatic
// tables, for every role, actor and player.
func TestOwnWagerIsAuthorized(t *testing.T) {
	taken := 0
	for _, mode := range []Mode{ModeDealer, ModeAuto} {
		tab, err := New(Config{Game: "mbs-tournament", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		for role := RoleNone; role <= RoleSystem+1; role++ {
			for _, actor := range []string{"", "ann", "bob"} {
				for _, player := range []string{"", "ann"} {
					c := &Place{Header: Header{Role: role, Actor: actor}, Player: player}
					if !c.own() {
						continue
					}
					taken++
					if r, a, err := tab.authorize(CmdPlace, &c.Header, c.Player); r != RolePlayer || a != c.Player || err != nil {
						t.Errorf("%s table, role %d, actor %q, player %q: taken as the player's own, but authorize says %v %q %v",
							mode, role, actor, player, r, a, err)
					}
				}
			}
		}
	}
	if taken != 2*4 { // roles none and player; no actor, or the player as actor
		t.Fatalf("%d wagers taken as a player's own, want 8", taken)
	}
}

// TestPlacedWagerIsWholeEachTime: place writes every field of the wager it records
// (t.placed) rather than clearing it first, so whatever the last wager left there, a
// single-coup or a Dragon bet, must never show.
func TestPlacedWagerIsWholeEachTime(t *testing.T) {
	play := func(bet string, garbage bool) Wager {
		tab, err := New(Config{Game: "mbs-dragon"})
		if err != nil {
			t.Fatal(err)
		}
		mustApply(t, tab, &NewShoe{})
		mustApply(t, tab, &Open{})
		if garbage {
			spoil(t, &tab.placed)
		}
		c := &Place{Player: "ann", Bet: bet, Stake: 500, Available: 1000}
		tab.Prepare(c) // as a host does: the shortcuts are taken for prepared wagers
		ev := mustApply(t, tab, c)
		return *ev[0].Wager
	}
	for _, bet := range []string{"tie", "any_dragon"} {
		if clean, dirty := play(bet, false), play(bet, true); clean != dirty {
			t.Fatalf("a wager on %s placed after another shows what it left:\n got %+v\nwant %+v", bet, dirty, clean)
		}
	}
}

// spoil fills every field of w with something no wager of the test has.
func spoil(t *testing.T, w *Wager) {
	v := reflect.ValueOf(w).Elem()
	if v.NumField() != 15 {
		t.Fatalf("Wager has %d fields: write each in place, then count it here", v.NumField())
	}
	for i := range v.NumField() {
		switch f := v.Field(i); {
		case !f.CanSet():
		case f.Kind() == reflect.String:
			f.SetString("left over")
		case f.Kind() == reflect.Bool:
			f.SetBool(true)
		case f.CanInt():
			f.SetInt(7)
		case f.CanUint():
			f.SetUint(7)
		default:
			t.Fatalf("field %s: spoil it here", v.Type().Field(i).Name)
		}
	}
	w.party, w.seat, w.bet = 9, 9, 11
}

// TestAreasCountedOnceALimitReadsThem: the places taken in each playing area are counted
// only while a limit of wagers per area reads them; a limit set mid-round (from a history:
// the pit cannot set one where the game has none) counts the wagers already placed.
func TestAreasCountedOnceALimitReadsThem(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament"}, "ann", "bob", "cat")
	x.ok(&Open{})
	dealer := Header{Role: RoleDealer, Actor: "dealer-1"}
	x.ok(&Place{Header: dealer, Player: "ann", Seat: "3", Bet: "tie", Stake: 100})
	x.ok(&Place{Header: dealer, Player: "bob", Seat: "3", Bet: "tie", Stake: 100})
	limit := Event{Seq: x.Seq() + 1, Type: EvLimitChanged, Detail: &Detail{Setting: SettingAreaLimit, Count: 2}}
	if err := x.Restore(&limit); err != nil {
		t.Fatal(err)
	}
	x.refused(&Place{Header: dealer, Player: "cat", Seat: "3", Bet: "tie", Stake: 100}, baccarat.CodeAreaFull)
	x.ok(&Place{Header: dealer, Player: "ann", Seat: "3", Bet: "tie", Stake: 100}) // ann adds to her own wager
	x.ok(&Place{Header: dealer, Player: "cat", Seat: "4", Bet: "tie", Stake: 100})
}

// tallies are the round's tallies the placement rules read, by name rather than by the ids
// a table interns (in its own order), for comparing a table with its replay.
func tallies(t *Table) map[string]any {
	m := map[string]any{"totals": t.totals, "sides": t.sides}
	for _, p := range t.parties[1:] {
		if p.own != ([maxBets][maxBetting]baccarat.Money{}) || p.sides != 0 {
			m["own "+p.name] = fmt.Sprint(p.own, p.sides)
		}
	}
	for sp, v := range t.spots {
		if v != 0 {
			party, seat := t.parties[PartyID(sp>>32)].name, t.seats[seatID(sp>>8&0xffffff)].name
			m[fmt.Sprintf("spot %s at %s, bet %d, betting %d", party, seat, sp>>2&0x3f, sp&3)] = v
		}
	}
	for _, s := range t.seats {
		if s.areas != ([maxBets]uint16{}) {
			m["areas "+s.name] = s.areas
		}
	}
	return m
}

// TestRulesBehindShortcutsStillRefuse: the rules place asks only of the bets they concern
// (checkOpenFor beyond open betting, checkLayout) still refuse every wager they should.
func TestRulesBehindShortcutsStillRefuse(t *testing.T) {
	t.Run("Dragon 3.12 no Dragon bet after the session's first hand", func(t *testing.T) {
		x := newTB(t, Config{Game: "mbs-dragon"}, "ann")
		x.ok(&Open{})
		x.place("ann", "banker", 100)
		x.ok(&Close{})
		x.cards("2h 3d 3c 3s 9d")
		x.ok(&Open{})
		x.refused(&Place{Player: "ann", Bet: "any_dragon", Stake: 100}, baccarat.CodeBetNotOffered)
	})
	t.Run("SPEC §3.5 a Bet on Baccarat bet not offered, and odds that changed, are refused", func(t *testing.T) {
		x := newTB(t, Config{Game: "bet-on-baccarat"}, "ann")
		x.ok(&Open{})
		if len(x.prices) == 0 {
			t.Fatal("no prices")
		}
		pr := x.prices[0]
		x.refused(&Place{Player: "ann", Bet: pr.Bet, Stake: 100, Odds: pr.Odds + 1}, baccarat.CodeOddsChanged)
		x.prices = slices.Clone(x.prices)
		x.prices[0].Offered = false
		x.refused(&Place{Player: "ann", Bet: pr.Bet, Stake: 100, Odds: pr.Odds}, baccarat.CodeBetNotOffered)
	})
	t.Run("SPEC §4 no wager while the round is interrupted", func(t *testing.T) {
		x := newTB(t, Config{Game: "mbs-tournament"}, "ann")
		x.ok(&Open{})
		x.ok(&Interrupt{})
		x.refused(&Place{Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeBettingClosed)
	})
	t.Run("RWS 3.3, 3.4 one side only, side bets beside a main bet", func(t *testing.T) {
		x := newTB(t, Config{Game: "rws-no-commission"}, "ann")
		x.ok(&Open{})
		x.refused(&Place{Player: "ann", Bet: "tie", Stake: 100}, baccarat.CodeSideBetNeedsMain)
		x.place("ann", "player", 100)
		x.refused(&Place{Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeBothSides)
		x.place("ann", "tie", 100)
	})
}

// TestOwnWagerFastPathAgrees: a prepared wager (which placeOwn may take) and the same wager
// unprepared (which place resolves by name and checks rule by rule) are taken or refused
// alike, with the same code, message and event, leaving the same table, over random wagers
// in every game: stakes at and around the limits and the money available, request ids,
// every bet, other seats, betting closed or interrupted, and the layout rules set.
func TestOwnWagerFastPathAgrees(t *testing.T) {
	pit := Header{Role: RolePit, Actor: "pit-1"}
	for _, game := range []string{"mbs-tournament", "rws-no-commission", "mbs-tiger", "mbs-dragon", "bet-on-baccarat", "punto-banco"} {
		t.Run(game, func(t *testing.T) {
			rng := baccarat.SeededSource(7)
			pick := func(n int) int { return int(rng.Uint64() % uint64(n)) }
			var fast, slow *Table
			both := func(c, d Command) {
				ef, errF := fast.Apply(c)
				es, errS := slow.Apply(d)
				if fmt.Sprint(errF) != fmt.Sprint(errS) {
					t.Fatalf("%+v: prepared %v, by name %v", c, errF, errS)
				}
				if len(ef) != len(es) {
					t.Fatalf("%+v: prepared %d events, by name %d", c, len(ef), len(es))
				}
				for i := range ef { // as recorded: the two tables intern names in their own order
					a, _ := json.Marshal(&ef[i])
					b, _ := json.Marshal(&es[i])
					if string(a) != string(b) {
						t.Fatalf("%+v: prepared\n%s\nby name\n%s", c, a, b)
					}
				}
			}
			for shoe := range 3 {
				var err error
				cfg := Config{Game: game, Mode: ModeDealer, DefaultLimit: Limit{Min: 50, Max: 400}}
				if fast, err = New(cfg); err != nil {
					t.Fatal(err)
				}
				slow, _ = New(cfg)
				both(&NewShoe{}, &NewShoe{})
				g := fast.Game()
				if g.Rules.MaxWagersPerArea > 0 && shoe > 0 {
					both(&SetAreaLimit{Header: pit, Limit: shoe}, &SetAreaLimit{Header: pit, Limit: shoe})
				}
				if g.Rules.TableDifferential && shoe > 0 {
					both(&SetDifferential{Header: pit, Amount: 300}, &SetDifferential{Header: pit, Amount: 300})
				}
				bet := g.Bets[pick(len(g.Bets))].ID
				both(&SetLimit{Header: pit, Bet: bet, Min: 1, Max: 100}, &SetLimit{Header: pit, Bet: bet, Min: 1, Max: 100})
				for round := range 10 {
					both(&Open{}, &Open{})
					for i := range 60 {
						switch {
						case round == 3 && i == 10:
							both(&Interrupt{}, &Interrupt{})
							c := &Place{Player: "ann", Bet: g.Bets[0].ID, Stake: 100, Available: 1 << 40}
							d := *c
							fast.Prepare(c)
							both(c, &d) // a wager that would be taken but for the interruption
						case round == 3 && i == 20:
							both(&Resume{}, &Resume{})
						case pick(50) == 0:
							both(&Close{}, &Close{})
						}
						players := []string{"ann", "bob", "cat", "dan"}
						c := &Place{Player: players[pick(4)], Bet: g.Bets[pick(len(g.Bets))].ID,
							Stake:     []baccarat.Money{0, -5, 1, 49, 50, 100, 350, 400, 401, 5000}[pick(10)],
							Available: []baccarat.Money{0, 100, 1 << 40}[pick(3)]}
						if pick(4) == 0 {
							c.RequestID = fmt.Sprint("r", pick(8))
						}
						if pick(6) == 0 {
							c.Header, c.Seat = Header{Role: RoleDealer, Actor: "dealer-1"}, players[pick(4)]
						}
						if pick(8) == 0 {
							c.Bet = "no_such_bet"
						}
						for _, p := range fast.Prices() {
							if p.Bet == c.Bet {
								c.Odds = p.Odds
							}
						}
						d := *c
						fast.Prepare(c)
						both(c, &d)
					}
					if fast.Phase() == PhaseBetting {
						both(&Close{}, &Close{})
					}
					late := &Place{Player: "bob", Bet: g.Bets[0].ID, Stake: 100, Available: 1 << 40}
					d := *late
					fast.Prepare(late)
					both(late, &d) // a wager that would be taken but for "No more bets"
					for i := 0; i < 12 && (fast.Phase() == PhaseClosed || fast.Phase() == PhaseDealing); i++ {
						if g.Rules.BettingRounds > 1 {
							both(&Close{}, &Close{}) // Bet on Baccarat's later betting rounds, where open
						}
						k := baccarat.Card(1 + pick(52))
						both(&Card{Card: &k}, &Card{Card: &k})
					}
					if fast.Phase() != PhaseSettled && fast.Phase() != PhaseIdle && fast.Phase() != PhaseVoid {
						both(&Void{Header: pit}, &Void{Header: pit})
					}
				}
				sf, _ := json.Marshal(fast.State())
				ss, _ := json.Marshal(slow.State())
				if !reflect.DeepEqual(tallies(fast), tallies(slow)) || string(sf) != string(ss) {
					t.Fatalf("shoe %d: the tables differ:\n%v %s\n%v %s", shoe, tallies(fast), sf, tallies(slow), ss)
				}
			}
		})
	}
}
