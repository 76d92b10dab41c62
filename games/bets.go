package games

import "github.com/tablehouse/baccarat"

// The pay ratios of the seeds.
var (
	evens    = baccarat.Ratio{Num: 1, Den: 1}
	half     = baccarat.Ratio{Num: 1, Den: 2}   // RWS 4.1.1, Tiger 4.1: Banker wins on six
	eightTo1 = baccarat.Ratio{Num: 8, Den: 1}   // Tie
	pair11   = baccarat.Ratio{Num: 11, Den: 1}  // Player/Banker Pair
	comm95   = baccarat.Ratio{Num: 19, Den: 20} // punto banco Banker, 5% commission
)

func ratio(n int64) baccarat.Ratio { return baccarat.Ratio{Num: n, Den: 1} }

func win(tier int) (Outcome, int) { return Win, tier }

func lose() (Outcome, int) { return Lose, -1 }

func push() (Outcome, int) { return Push, -1 }

func when(ok bool) (Outcome, int) {
	if ok {
		return win(0)
	}
	return lose()
}

// resolvePlayer: Player wins on the higher total, pushes on a Tie (MBS 3.10.1).
func resolvePlayer(r *baccarat.Result) (Outcome, int) {
	switch r.Winner {
	case baccarat.Tie:
		return push()
	case baccarat.PlayerWins:
		return win(0)
	}
	return lose()
}

// resolveBanker: Banker wins on the higher total, pushes on a Tie (MBS 3.10.1).
func resolveBanker(r *baccarat.Result) (Outcome, int) {
	switch r.Winner {
	case baccarat.Tie:
		return push()
	case baccarat.BankerWins:
		return win(0)
	}
	return lose()
}

// resolveBankerSix: as resolveBanker, but a Banker win with a total of six is the second
// tier, paid 1:2 (RWS 4.1.1, Tiger 4.1).
func resolveBankerSix(r *baccarat.Result) (Outcome, int) {
	o, t := resolveBanker(r)
	if o == Win && r.BankerTotal == 6 {
		return win(1)
	}
	return o, t
}

func resolveTie(r *baccarat.Result) (Outcome, int) { return when(r.Winner == baccarat.Tie) }

func resolvePlayerPair(r *baccarat.Result) (Outcome, int) { return when(r.PlayerPair) }

func resolveBankerPair(r *baccarat.Result) (Outcome, int) { return when(r.BankerPair) }

func bankerSix(r *baccarat.Result) bool {
	return r.Winner == baccarat.BankerWins && r.BankerTotal == 6
}

// resolveTiger: Banker wins with 6; 12:1 with two cards, 20:1 with three (Tiger 4.3).
func resolveTiger(r *baccarat.Result) (Outcome, int) {
	if !bankerSix(r) {
		return lose()
	}
	if r.Banker.Len() == 2 {
		return win(0)
	}
	return win(1)
}

// resolveSmallTiger: Banker wins with a two-card 6 (Tiger 1.1.7).
func resolveSmallTiger(r *baccarat.Result) (Outcome, int) {
	return when(bankerSix(r) && r.Banker.Len() == 2)
}

// resolveBigTiger: Banker wins with a three-card 6 (Tiger 1.1.1).
func resolveBigTiger(r *baccarat.Result) (Outcome, int) {
	return when(bankerSix(r) && r.Banker.Len() == 3)
}

// resolveTigerTie: a Tie at 6 (Tiger 1.1.14).
func resolveTigerTie(r *baccarat.Result) (Outcome, int) {
	return when(r.Winner == baccarat.Tie && r.PlayerTotal == 6)
}

// resolveTigerPair: exactly one hand pairs (Single, 4:1); both pair with different ranks
// (Double, 20:1); both pair with the same rank (Twin, 100:1) (Tiger 1.1.13, 4.2). A pair is
// two cards of the same rank (SPEC §1).
func resolveTigerPair(r *baccarat.Result) (Outcome, int) {
	switch {
	case r.PlayerPair && r.BankerPair:
		if r.Player.Card(0).Rank() == r.Banker.Card(0).Rank() {
			return win(2)
		}
		return win(1)
	case r.PlayerPair || r.BankerPair:
		return win(0)
	}
	return lose()
}

func resolveEitherPair(r *baccarat.Result) (Outcome, int) {
	return when(r.PlayerPair || r.BankerPair)
}

func resolvePerfectPair(r *baccarat.Result) (Outcome, int) {
	return when(r.PlayerPerfectPair || r.BankerPerfectPair)
}

// resolveBig: five or six cards dealt (BoB 1.18).
func resolveBig(r *baccarat.Result) (Outcome, int) { return when(r.Cards() >= 5) }

// resolveSmall: exactly four cards dealt (BoB 1.17).
func resolveSmall(r *baccarat.Result) (Outcome, int) { return when(r.Cards() == 4) }

// The bets shared by the classic tournament games.
func playerBet(rule string) *Bet {
	return &Bet{ID: "player", Name: "Player", Kind: Main, Side: baccarat.PlayerWins, Rule: rule,
		Tiers: []Tier{{"player_wins", "Player wins", evens}}, Resolve: resolvePlayer}
}

func bankerEvens(rule string) *Bet {
	return &Bet{ID: "banker", Name: "Banker", Kind: Main, Side: baccarat.BankerWins, Rule: rule,
		Tiers: []Tier{{"banker_wins", "Banker wins", evens}}, Resolve: resolveBanker}
}

func bankerSixHalf(rule string) *Bet {
	return &Bet{ID: "banker", Name: "Banker", Kind: Main, Side: baccarat.BankerWins, Rule: rule,
		Tiers: []Tier{{"banker_on_other_points", "Banker wins on other points", evens},
			{"banker_on_six", "Banker wins on six", half}},
		Resolve: resolveBankerSix}
}

func tieBet(rule string) *Bet {
	return &Bet{ID: "tie", Name: "Tie", Kind: Side, Rule: rule,
		Tiers: []Tier{{"tie", "Tie", eightTo1}}, Resolve: resolveTie}
}

func pairBets(rule string) []*Bet {
	return []*Bet{
		{ID: "player_pair", Name: "Player Pair", Kind: Side, Rule: rule,
			Tiers: []Tier{{"player_pair", "Player's first two cards a pair", pair11}}, Resolve: resolvePlayerPair},
		{ID: "banker_pair", Name: "Banker Pair", Kind: Side, Rule: rule,
			Tiers: []Tier{{"banker_pair", "Banker's first two cards a pair", pair11}}, Resolve: resolveBankerPair},
	}
}

func dragonBets() []*Bet {
	tiers := func(ruby, golden, royal int64) []Tier {
		return []Tier{{"ruby_dragon", "Ruby Dragon: longest streak 5", ratio(ruby)},
			{"golden_dragon", "Golden Dragon: longest streak 6", ratio(golden)},
			{"royal_dragon", "Royal Dragon: longest streak 7 or more", ratio(royal)}}
	}
	return []*Bet{
		{ID: "banker_dragon", Name: "Banker Dragon", Kind: Dragon, Rule: "Dragon 1.1.2, 4.2",
			Tiers: tiers(2, 4, 10), Dragon: &DragonRule{Banker: true}},
		{ID: "player_dragon", Name: "Player Dragon", Kind: Dragon, Rule: "Dragon 1.1.7, 4.2",
			Tiers: tiers(2, 4, 10), Dragon: &DragonRule{Player: true}},
		{ID: "any_dragon", Name: "Any Dragon", Kind: Dragon, Rule: "Dragon 1.1.1, 4.2",
			Tiers: tiers(1, 2, 5), Dragon: &DragonRule{Banker: true, Player: true}},
	}
}

// decimal is a Bet on Baccarat bet: one tier, naming the event only, since the bet pays the
// decimal odds locked when it was placed.
func decimal(id, name string, tier Tier, rule string, res Resolver, kind Kind) *Bet {
	b := &Bet{ID: id, Name: name, Kind: kind, Rule: rule, Tiers: []Tier{tier},
		Resolve: res, Decimal: true}
	switch {
	case kind == Main && id == "player":
		b.Side = baccarat.PlayerWins
	case kind == Main:
		b.Side = baccarat.BankerWins
	}
	return b
}

func withBets(first []*Bet, more ...*Bet) []*Bet { return append(first, more...) }

// The six games of SPEC §3.
var (
	MBSTournament = register(&Game{
		ID: "mbs-tournament", Name: "Baccarat Tournament (MBS)", Seed: "baccarat-tournament-mbs.txt",
		Decks: DeckRange{4, 10, 8},
		Bets: withBets([]*Bet{playerBet("MBS 3.10, 4.1"), bankerEvens("MBS 3.10, 4.1"), tieBet("MBS 3.10.1, 4.1")},
			pairBets("MBS 1.1.4, 3.8, 4.1")...),
		Rules: Rules{BettingRounds: 1, TournamentChips: true, Tournament: true},
	})

	RWSNoCommission = register(&Game{
		ID: "rws-no-commission", Name: "Non-Commission Baccarat Tournament (RWS)", Seed: "non-commission-tournament-rws.txt",
		Decks: DeckRange{4, 8, 8},
		Bets: withBets([]*Bet{playerBet("RWS 3.8, 4.1.1"), bankerSixHalf("RWS 1, 4.1.1"), tieBet("RWS 3.9, 4.1.1")},
			pairBets("RWS 1, 3.5, 4.1.1")...),
		Rules: Rules{OneSide: true, SideNeedsMain: true, TieRides: true, BettingRounds: 1, Tournament: true},
	})

	MBSTiger = register(&Game{
		ID: "mbs-tiger", Name: "Tiger No Commission Baccarat (MBS)", Seed: "tiger-no-commission-mbs.txt",
		Decks: DeckRange{4, 10, 8},
		Bets: []*Bet{
			playerBet("Tiger 3.15, 4.1"),
			bankerSixHalf("Tiger 3.15, 4.1"),
			tieBet("Tiger 1.1.11, 3.15.1, 4.1"),
			{ID: "tiger", Name: "Tiger", Kind: Side, Rule: "Tiger 1.1.12, 4.3",
				Tiers: []Tier{{"two_card_six", "Banker wins on a two-card 6", ratio(12)},
					{"three_card_six", "Banker wins on a three-card 6", ratio(20)}},
				Resolve: resolveTiger},
			{ID: "small_tiger", Name: "Small Tiger", Kind: Side, Rule: "Tiger 1.1.7, 4.3",
				Tiers: []Tier{{"two_card_six", "Banker wins on a two-card 6", ratio(22)}}, Resolve: resolveSmallTiger},
			{ID: "big_tiger", Name: "Big Tiger", Kind: Side, Rule: "Tiger 1.1.1, 4.3",
				Tiers: []Tier{{"three_card_six", "Banker wins on a three-card 6", ratio(50)}}, Resolve: resolveBigTiger},
			{ID: "tiger_tie", Name: "Tiger Tie", Kind: Side, Rule: "Tiger 1.1.14, 4.3",
				Tiers: []Tier{{"tie_at_six", "Tie at 6", ratio(35)}}, Resolve: resolveTigerTie},
			{ID: "tiger_pair", Name: "Tiger Pair", Kind: Side, Rule: "Tiger 1.1.13, 4.2",
				Tiers: []Tier{{"single_tiger_pair", "Single Tiger Pair: exactly one hand pairs", ratio(4)},
					{"double_tiger_pair", "Double Tiger Pair: both hands pair, different ranks", ratio(20)},
					{"twin_tiger_pair", "Twin Tiger Pair: both hands pair, same rank", ratio(100)}},
				Resolve: resolveTigerPair},
		},
		Rules: Rules{MaxWagersPerArea: 3, TableDifferential: true, BettingRounds: 1},
	})

	MBSDragon = register(&Game{
		ID: "mbs-dragon", Name: "Dragon Baccarat Tournament (MBS)", Seed: "dragon-baccarat-tournament-mbs.txt",
		Decks: DeckRange{4, 10, 8},
		Bets: withBets(withBets([]*Bet{playerBet("Dragon 3.10, 4.1"), bankerEvens("Dragon 3.10, 4.1"), tieBet("Dragon 3.10.1, 4.1")},
			pairBets("Dragon 1.1.8, 3.8, 4.1")...), dragonBets()...),
		Rules: Rules{DragonSessions: true, BettingRounds: 1, TournamentChips: true, Tournament: true},
	})

	BetOnBaccarat = register(&Game{
		ID: "bet-on-baccarat", Name: "Bet on Baccarat", Seed: "bet-on-baccarat.txt",
		Decks: DeckRange{6, 6, 6},
		Bets: []*Bet{
			decimal("player", "Player", Tier{ID: "player_wins_tie_returned", Event: "Player wins; stake returned on a Tie"}, "BoB 2.3, 2.3.1", resolvePlayer, Main),
			decimal("banker", "Banker", Tier{ID: "banker_wins_tie_returned", Event: "Banker wins; stake returned on a Tie"}, "BoB 2.3, 2.3.1", resolveBanker, Main),
			decimal("tie", "Tie", Tier{ID: "tie", Event: "Tie"}, "BoB 2.3.1", resolveTie, Side),
			decimal("player_pair", "Player Pair", Tier{ID: "player_pair", Event: "Player's first two cards a pair"}, "BoB 1.14", resolvePlayerPair, Side),
			decimal("banker_pair", "Banker Pair", Tier{ID: "banker_pair", Event: "Banker's first two cards a pair"}, "BoB 1.15 (SPEC §3.5)", resolveBankerPair, Side),
			decimal("either_pair", "Either Pair", Tier{ID: "either_pair", Event: "either hand's first two cards a pair"}, "BoB 1.13", resolveEitherPair, Side),
			decimal("perfect_pair", "Perfect Pair", Tier{ID: "perfect_pair", Event: "either hand's first two cards identical"}, "BoB 1.16", resolvePerfectPair, Side),
			decimal("big", "Big", Tier{ID: "five_or_six_cards", Event: "5 or 6 cards dealt"}, "BoB 1.18", resolveBig, Side),
			decimal("small", "Small", Tier{ID: "four_cards", Event: "exactly 4 cards dealt"}, "BoB 1.17", resolveSmall, Side),
		},
		Rules: Rules{BettingRounds: 3, ShoeChangeBelow: 40},
	})

	PuntoBanco = register(&Game{
		ID: "punto-banco", Name: "Punto Banco (commission baccarat)", Seed: "SPEC.md §3.6",
		Decks: DeckRange{4, 10, 8},
		Bets: withBets([]*Bet{playerBet("SPEC §3.6"),
			{ID: "banker", Name: "Banker", Kind: Main, Side: baccarat.BankerWins, Rule: "SPEC §3.6",
				Tiers: []Tier{{"banker_wins_commission", "Banker wins (5% commission)", comm95}}, Resolve: resolveBanker},
			tieBet("SPEC §3.6")}, pairBets("SPEC §3.6")...),
		Rules: Rules{BettingRounds: 1},
	})
)
