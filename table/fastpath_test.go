package table

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
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
	// ownAtAGlance takes no more than own, and takes the player's own wager a host sends:
	// the actor the very string that names the player.
	for role := RoleNone; role <= RoleSystem+1; role++ {
		for _, actor := range []string{"", "ann", "bob", string([]byte("ann"))} {
			for _, player := range []string{"", "ann"} {
				if c := (&Place{Header: Header{Role: role, Actor: actor}, Player: player}); c.ownAtAGlance() && !c.own() {
					t.Errorf("role %d, actor %q, player %q: own at a glance, but not own", role, actor, player)
				}
			}
		}
	}
	id := string([]byte("ann"))
	if c := (&Place{Header: Header{Role: RolePlayer, Actor: id}, Player: id}); !c.ownAtAGlance() {
		t.Error("a wager whose actor is the string naming its player is not its player's own at a glance")
	}
}

// TestHostsWagersGoTheShortWay: a prepared wager as a host sends it, the actor and the
// player one identity, is taken the short way, and its copy with the actor named by
// another copy of the name goes the whole way to the same event.
func TestHostsWagersGoTheShortWay(t *testing.T) {
	tab, err := New(Config{Game: "mbs-tournament", DefaultLimit: Limit{Min: 1, Max: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, tab, &NewShoe{})
	mustApply(t, tab, &Open{})
	for i := 0; len(tab.wagers) == cap(tab.wagers); i++ { // the layout has room (the whole way grows it)
		mustApply(t, tab, &Place{Player: "bob" + strconv.Itoa(i), Bet: "tie", Stake: 1, Available: 1000}) // a spot each: a chip on a held spot raises
	}
	n := len(tab.wagers)
	id := string([]byte("ann"))
	short := &Place{Header: Header{Actor: id, Role: RolePlayer}, Player: id, Bet: "banker", Stake: 100, Available: 1000}
	tab.Prepare(short)
	ev := mustApply(t, tab, short)
	if len(ev) != 1 || &ev[0] != &tab.ownPlaced[0] {
		t.Fatal("a host's wager went the whole way")
	}
	a, _ := json.Marshal(ev[0].Clone())
	mustApply(t, tab, &Withdraw{Player: "ann"}) // the spot empty again: the next wager there is new, not a raise
	whole := *short
	whole.Actor = string([]byte("ann")) // the same name, another copy
	ev = mustApply(t, tab, &whole)
	if len(ev) != 1 || &ev[0] == &tab.ownPlaced[0] {
		t.Fatal("a wager naming its player by another copy of the name went the short way")
	}
	ev[0].Seq, ev[0].Wager.ID = 0, 0 // the second wager's own
	b, _ := json.Marshal(ev[0])
	seq, wager := fmt.Sprintf(`"seq":%d,`, n+3), fmt.Sprintf(`"id":%d,`, n+1) // after the shoe, the open and n wagers
	want := strings.Replace(strings.Replace(string(a), seq, `"seq":0,`, 1), wager, `"id":0,`, 1)
	if string(b) != want {
		t.Fatalf("the whole way's event\n%s\nthe short way's\n%s", b, want)
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
		var own [maxBets][maxBetting]baccarat.Money // as counted in this round's tally
		for i := range own {
			for j := range own[i] {
				own[i][j] = p.own[i][j].in(t.epoch)
			}
		}
		var sides uint8
		for _, side := range []baccarat.Winner{baccarat.PlayerWins, baccarat.BankerWins} {
			if p.holds(side, t.epoch) {
				sides |= 1 << side
			}
		}
		if own != ([maxBets][maxBetting]baccarat.Money{}) || sides != 0 {
			m["own "+p.name] = fmt.Sprint(own, sides)
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

// TestOwnWagerFastPathAgrees: a prepared wager (which Apply's short way may take) and the same wager
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

// TestShortWaysAgree: a Deal, an Open and a Close that name no one (which Apply may take
// the short way: dealNext, openNext, closeNext) and the same commands naming the dealer's
// role (which always go the whole way) give the same events, or refusals, and leave the same
// table, shoe after shoe in every game, with and without the squeeze: through cut cards,
// shoe ends, Bet on Baccarat's later betting rounds and RWS's riding pushes.
func TestShortWaysAgree(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// headers are a header naming no one and the same naming the dealer's role, a second on
	// from the last, with a reason: every field of the header reaches the events.
	headers := func() (unnamed, dealer Header) {
		at = at.Add(time.Second)
		return Header{At: at, Reason: "why"}, Header{Role: RoleDealer, At: at, Reason: "why"}
	}
	for _, game := range []string{"mbs-tournament", "rws-no-commission", "mbs-tiger", "mbs-dragon", "bet-on-baccarat", "punto-banco"} {
		for _, squeeze := range []bool{false, true} {
			if squeeze && game == "bet-on-baccarat" {
				continue // its cards are shown as they come (BoB has no squeeze)
			}
			t.Run(fmt.Sprintf("%s squeeze %v", game, squeeze), func(t *testing.T) {
				cfg := Config{Game: game, Mode: ModeDealer, Squeeze: squeeze, DefaultLimit: Limit{Min: 1, Max: 1_000_000}}
				short, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				whole, _ := New(cfg)
				var dealt, opened, shut, shoes int // commands taken the short way; shoes started
				both := func(c, d Command) {
					es, errS := short.Apply(c)
					ew, errW := whole.Apply(d)
					if fmt.Sprint(errS) != fmt.Sprint(errW) {
						t.Fatalf("%T: short %v, whole %v", c, errS, errW)
					}
					a, _ := json.Marshal(es)
					b, _ := json.Marshal(ew)
					if string(a) != string(b) {
						t.Fatalf("%T: short\n%s\nwhole\n%s", c, a, b)
					}
					if len(es) > 0 {
						switch &es[0] {
						case &short.dealt[0]:
							dealt++
						case &short.opened[0]:
							opened++
						case &short.shut[0]:
							shut++
						}
					}
				}
				src := baccarat.SeededSource(3)
				var bets []string // the single-coup bets
				for _, b := range short.Game().Bets {
					if b.Kind != games.Dragon {
						bets = append(bets, b.ID)
					}
				}
				for round := range 120 {
					if !short.ShoeActive() {
						s := baccarat.NewShoe(short.Config().Decks)
						s.Shuffle(src)
						both(&NewShoe{Order: s.Order(), Salt: "00"}, &NewShoe{Order: s.Order(), Salt: "00"})
						shoes++
					}
					u, d := headers()
					both(&Open{Header: u, Until: at.Add(time.Minute)}, &Open{Header: d, Until: at.Add(time.Minute)})
					for i, player := range []string{"ann", "bob"} {
						c := &Place{Player: player, Bet: bets[(round+i)%len(bets)], Stake: 100, Available: 1 << 40}
						for _, p := range short.Prices() { // Bet on Baccarat: at the odds offered
							if p.Bet == c.Bet {
								c.Odds = p.Odds
							}
						}
						d := *c
						short.Prepare(c)
						both(c, &d)
					}
					u, d = headers()
					both(&Close{Header: u}, &Close{Header: d})
					for i := 0; i < 20 && (short.Phase() == PhaseClosed || short.Phase() == PhaseDealing); i++ {
						u, d := headers()
						switch st := short.Status(); {
						case st.BetOpen:
							both(&Close{Header: u}, &Close{Header: d})
						case st.Squeeze != nil:
							both(&Reveal{Header: d}, &Reveal{Header: d})
						default:
							both(&Deal{Header: u, Until: at.Add(time.Minute)}, &Deal{Header: d, Until: at.Add(time.Minute)})
						}
					}
					sa, _ := json.Marshal(short.State())
					sb, _ := json.Marshal(whole.State())
					if string(sa) != string(sb) || !reflect.DeepEqual(tallies(short), tallies(whole)) {
						t.Fatalf("round %d: the tables differ:\n%s\n%s", round, sa, sb)
					}
				}
				oneRound := short.Game().Rules.BettingRounds == 1
				if shoes < 2 || dealt == 0 && !squeeze || opened == 0 && oneRound || shut == 0 {
					t.Fatalf("%d shoes; taken the short way: %d deals, %d opens, %d closes", shoes, dealt, opened, shut)
				}
			})
		}
	}
}

// TestCheckOrder: an RNG shoe's order must be its decks, complete: no card missing, none
// too many, none invalid (SPEC §2).
func TestCheckOrder(t *testing.T) {
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(1))
	order := s.Order()
	if err := checkOrder(order, 8); err != nil {
		t.Fatalf("a complete shoe: %v", err)
	}
	if err := checkOrder(order, 6); baccarat.ErrorCode(err) != baccarat.CodeBadShoe {
		t.Fatalf("8 decks taken for 6: %v", err)
	}
	if err := checkOrder(order[1:], 8); baccarat.ErrorCode(err) != baccarat.CodeBadShoe {
		t.Fatalf("a card missing: %v", err)
	}
	dup := slices.Clone(order)
	dup[0] = dup[1]
	if dup[0] == order[0] {
		dup[0] = dup[2]
	}
	if err := checkOrder(dup, 8); baccarat.ErrorCode(err) != baccarat.CodeBadShoe {
		t.Fatalf("one card for another: %v", err)
	}
	bad := slices.Clone(order)
	bad[5] = baccarat.NumCards
	if err := checkOrder(bad, 8); baccarat.ErrorCode(err) != baccarat.CodeBadShoe {
		t.Fatalf("an invalid card: %v", err)
	}
}

// TestNaturalActorsAreAuthorized: the natural actor Apply's short ways read (naturals) is
// what authorize says of a command that names no one, for every command at dealer and
// automatic tables.
func TestNaturalActorsAreAuthorized(t *testing.T) {
	for _, mode := range []Mode{ModeDealer, ModeAuto} {
		tab, err := New(Config{Game: "mbs-tournament", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		for ct := range commandCount {
			n := tab.natural[ct]
			role, actor, err := tab.authorize(ct, &Header{}, "")
			if n.ok != (err == nil) || n.ok && (role != n.role || actor != n.actor) {
				t.Errorf("%s table, %s: natural %+v, authorize says %v %q %v", mode, ct, n, role, actor, err)
			}
		}
	}
}
