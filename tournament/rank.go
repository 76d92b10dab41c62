package tournament

import (
	"cmp"
	"slices"

	"github.com/tablehouse/baccarat"
)

// byChips is the order of a round: more chips first; equal chips, the earlier registration
// (the lower entry number) first. It decides who advances when chips tie.
func byChips(a, b *player) int {
	if c := cmp.Compare(b.chips, a.chips); c != 0 {
		return c
	}
	return cmp.Compare(a.entry, b.entry)
}

// byFinal is the final order: the later round reached first, then byChips (chips at the end
// of the last round played).
func byFinal(a, b *player) int {
	if c := cmp.Compare(b.reached, a.reached); c != 0 {
		return c
	}
	return byChips(a, b)
}

// finalOrder lists every entrant in final order.
func (t *Tournament) finalOrder() []*player {
	ps := slices.Clone(t.players)
	slices.SortStableFunc(ps, byFinal)
	return ps
}

// finalRanks numbers players in final order, sharing a rank where both the round reached
// and the chips are equal (1, 2, 2, 4): registration order lists them but does not part
// them, so tied players share the prizes of the places they occupy.
func finalRanks(ps []*player) []int {
	return competitionRanks(len(ps), func(i, j int) bool {
		return ps[i].reached == ps[j].reached && ps[i].chips == ps[j].chips
	})
}

// competitionRanks ranks n ordered items, equal neighbours sharing a rank (1, 2, 2, 4).
func competitionRanks(n int, equal func(i, j int) bool) []int {
	ranks := make([]int, n)
	for i := range ranks {
		ranks[i] = i + 1
		if i > 0 && equal(i-1, i) {
			ranks[i] = ranks[i-1]
		}
	}
	return ranks
}

// Standing is a player's place in the current round.
type Standing struct {
	Player string         `json:"player"`
	Chips  baccarat.Money `json:"chips"`
	// Rank by chips; equal chips share a rank (listed in registration order).
	Rank int `json:"rank"`
	// Advances: the player would go on to the next round if it ended now (ties for the
	// last place going to the earlier registration). Never in the final.
	Advances   bool `json:"advances"`
	Eliminated bool `json:"eliminated"`
	Table      int  `json:"table"`
	Rebuys     int  `json:"rebuys,omitempty"`
	// Busted: in play but below the minimum stake; CanRebuy: a rebuy would be taken now.
	Busted   bool `json:"busted,omitempty"`
	CanRebuy bool `json:"can_rebuy,omitempty"`
}

// Leaderboard ranks the current round's players by chips over all its tables, after every
// hand (nil before the start).
func (t *Tournament) Leaderboard() []Standing {
	r := t.current()
	if r == nil {
		return nil
	}
	return t.standings(t.seated(r.tables...))
}

// TableStandings ranks the players of one table of the current round by chips (nil for a
// table that does not exist).
func (t *Tournament) TableStandings(n int) []Standing {
	tb := t.tableOf(n)
	if tb == nil {
		return nil
	}
	return t.standings(t.seated(tb))
}

func (t *Tournament) seated(tables ...*table) []*player {
	var ps []*player
	for _, tb := range tables {
		for _, id := range tb.players {
			ps = append(ps, t.lookup(id))
		}
	}
	slices.SortStableFunc(ps, byChips)
	return ps
}

func (t *Tournament) standings(ps []*player) []Standing {
	adv := map[string]bool{}
	if t.phase == PhaseRunning {
		for _, id := range t.advancers() {
			adv[id] = true
		}
	}
	ranks := competitionRanks(len(ps), func(i, j int) bool { return ps[i].chips == ps[j].chips })
	out := make([]Standing, len(ps))
	for i, p := range ps {
		out[i] = Standing{Player: p.id, Chips: p.chips, Rank: ranks[i], Advances: adv[p.id],
			Eliminated: p.eliminated, Table: p.table, Rebuys: p.rebuys, Busted: t.busted(p)}
		if tb := t.tableOf(p.table); out[i].Busted && t.phase == PhaseRunning && tb != nil {
			out[i].CanRebuy = t.canRebuy(p, t.point(tb))
		}
	}
	return out
}
