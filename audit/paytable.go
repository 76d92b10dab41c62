package audit

import (
	"github.com/tablehouse/baccarat"
)

// The audit's own pay tables, written from the rule documents (../shared/seeds and SPEC §3)
// apart from games/: a wrong ratio or win condition there is caught here. Each bet is a
// rule: when it wins (and on which tier), when it is refunded, and what each tier pays.

type tier struct{ num, den int64 }

// rule decides a bet on a finished coup: the tier it wins on (-1: it does not win) and
// whether its stake is returned (a push).
type rule struct {
	decide  func(r *baccarat.Result) (win int, push bool)
	tiers   []tier // nil for Bet on Baccarat's decimal odds
	main    bool   // Player or Banker: rides on a Tie where the game says so (RWS 3.9)
	decimal bool
}

// dragon is a Dragon bet (Dragon 4.2): which streaks it counts and what Ruby (5), Golden
// (6) and Royal (7+) pay.
type dragon struct {
	banker, player bool
	ruby, golden   tier
	royal          tier
}

// game is what the audit knows of a game.
type game struct {
	bets     map[string]rule
	dragons  map[string]dragon
	tieRides bool // RWS 3.9
}

func winIf(ok bool) (int, bool) {
	if ok {
		return 0, false
	}
	return -1, false
}

var (
	even   = tier{1, 1}
	player = rule{main: true, tiers: []tier{even}, decide: func(r *baccarat.Result) (int, bool) {
		if r.PlayerTotal == r.BankerTotal {
			return -1, true // MBS 3.10: Player and Banker are returned on a Tie
		}
		return winIf(r.PlayerTotal > r.BankerTotal)
	}}
	bankerEven = rule{main: true, tiers: []tier{even}, decide: bankerWins}
	// Banker winning with six pays half (RWS 4.1.1, Tiger 4.1).
	bankerSixHalf = rule{main: true, tiers: []tier{even, {1, 2}}, decide: func(r *baccarat.Result) (int, bool) {
		w, push := bankerWins(r)
		if w == 0 && r.BankerTotal == 6 {
			return 1, false
		}
		return w, push
	}}
	commission = rule{main: true, tiers: []tier{{19, 20}}, decide: bankerWins} // SPEC §3.6
	tie        = rule{tiers: []tier{{8, 1}}, decide: func(r *baccarat.Result) (int, bool) { return winIf(r.PlayerTotal == r.BankerTotal) }}
	playerPair = rule{tiers: []tier{{11, 1}}, decide: func(r *baccarat.Result) (int, bool) { return winIf(sameRank(r.Player)) }}
	bankerPair = rule{tiers: []tier{{11, 1}}, decide: func(r *baccarat.Result) (int, bool) { return winIf(sameRank(r.Banker)) }}
)

func bankerWins(r *baccarat.Result) (int, bool) {
	if r.PlayerTotal == r.BankerTotal {
		return -1, true
	}
	return winIf(r.BankerTotal > r.PlayerTotal)
}

// sameRank: the hand's first two cards have one rank (SPEC §1: a Ten and a King are not
// a pair).
func sameRank(h baccarat.Hand) bool { return h.Card(0).Rank() == h.Card(1).Rank() }

func sameCard(h baccarat.Hand) bool { return h.Card(0) == h.Card(1) }

// bankerSix: the Banker wins with six, on two cards or three (Tiger 1.1.7, 1.1.1, 1.1.12).
func bankerSix(r *baccarat.Result, cards int) bool {
	return r.BankerTotal == 6 && r.PlayerTotal < 6 && (cards == 0 || r.Banker.Len() == cards)
}

var tigerBets = map[string]rule{
	"tiger": {tiers: []tier{{12, 1}, {20, 1}}, decide: func(r *baccarat.Result) (int, bool) { // Tiger 4.3
		switch {
		case bankerSix(r, 2):
			return 0, false
		case bankerSix(r, 3):
			return 1, false
		}
		return -1, false
	}},
	"small_tiger": {tiers: []tier{{22, 1}}, decide: func(r *baccarat.Result) (int, bool) { return winIf(bankerSix(r, 2)) }},
	"big_tiger":   {tiers: []tier{{50, 1}}, decide: func(r *baccarat.Result) (int, bool) { return winIf(bankerSix(r, 3)) }},
	"tiger_tie": {tiers: []tier{{35, 1}}, decide: func(r *baccarat.Result) (int, bool) {
		return winIf(r.PlayerTotal == 6 && r.BankerTotal == 6)
	}},
	"tiger_pair": {tiers: []tier{{4, 1}, {20, 1}, {100, 1}}, decide: func(r *baccarat.Result) (int, bool) { // Tiger 4.2
		p, b := sameRank(r.Player), sameRank(r.Banker)
		switch {
		case p && b && r.Player.Card(0).Rank() == r.Banker.Card(0).Rank():
			return 2, false
		case p && b:
			return 1, false
		case p || b:
			return 0, false
		}
		return -1, false
	}},
}

// Bet on Baccarat's bets pay the decimal odds each wager locked (BoB 1.2); these say only
// when they win.
var bobBets = map[string]rule{
	"player":       {main: true, decimal: true, decide: player.decide},
	"banker":       {main: true, decimal: true, decide: bankerWins},
	"tie":          {decimal: true, decide: tie.decide},
	"player_pair":  {decimal: true, decide: playerPair.decide},
	"banker_pair":  {decimal: true, decide: bankerPair.decide},
	"either_pair":  {decimal: true, decide: func(r *baccarat.Result) (int, bool) { return winIf(sameRank(r.Player) || sameRank(r.Banker)) }},
	"perfect_pair": {decimal: true, decide: func(r *baccarat.Result) (int, bool) { return winIf(sameCard(r.Player) || sameCard(r.Banker)) }},
	"big":          {decimal: true, decide: func(r *baccarat.Result) (int, bool) { return winIf(r.Player.Len()+r.Banker.Len() >= 5) }},
	"small":        {decimal: true, decide: func(r *baccarat.Result) (int, bool) { return winIf(r.Player.Len()+r.Banker.Len() == 4) }},
}

var dragonBets = map[string]dragon{ // Dragon 4.2
	"banker_dragon": {banker: true, ruby: tier{2, 1}, golden: tier{4, 1}, royal: tier{10, 1}},
	"player_dragon": {player: true, ruby: tier{2, 1}, golden: tier{4, 1}, royal: tier{10, 1}},
	"any_dragon":    {banker: true, player: true, ruby: tier{1, 1}, golden: tier{2, 1}, royal: tier{5, 1}},
}

func classic(banker rule) map[string]rule {
	return map[string]rule{"player": player, "banker": banker, "tie": tie, "player_pair": playerPair, "banker_pair": bankerPair}
}

func with(base map[string]rule, more map[string]rule) map[string]rule {
	out := map[string]rule{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// gameRules are the six games, by id.
var gameRules = map[string]game{
	"mbs-tournament":    {bets: classic(bankerEven)},
	"rws-no-commission": {bets: classic(bankerSixHalf), tieRides: true},
	"mbs-tiger":         {bets: with(map[string]rule{"player": player, "banker": bankerSixHalf, "tie": tie}, tigerBets)},
	"mbs-dragon":        {bets: classic(bankerEven), dragons: dragonBets},
	"bet-on-baccarat":   {bets: bobBets},
	"punto-banco":       {bets: classic(commission)},
}
