package responsible

import (
	"fmt"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

// TestRefusalsNameTheLimitAsParams: a refusal for the player's sake carries what a page says
// it with in its reader's language: the limit's kind and its amounts (minor units beside the
// limits' currency), an exclusion's end, the minutes of a session.
func TestRefusalsNameTheLimitAsParams(t *testing.T) {
	eurs := func(p baccarat.Params) baccarat.Params { return p.Money("EUR") }
	for _, c := range []struct {
		name  string
		st    func() *Standing
		stake baccarat.Money
		want  baccarat.Params
	}{
		{"the loss limit per session names the limit, the exposure, the stake and what is left",
			func() *Standing {
				st := standing(Limits{LossPerSession: 50_000})
				st.SessionTally = Tally{Staked: 30_000, Settled: 30_000}
				return st
			}, 25_000,
			eurs(baccarat.Params{"kind": "loss_per_session", "limit": baccarat.Money(50_000), "exposure": baccarat.Money(30_000), "stake": baccarat.Money(25_000), "left": baccarat.Money(20_000)})},
		{"the loss limit per day names its kind", func() *Standing { return standing(Limits{LossPerDay: 1_000}) }, 1_001,
			eurs(baccarat.Params{"kind": "loss_per_day", "limit": baccarat.Money(1_000), "exposure": baccarat.Money(0), "stake": baccarat.Money(1_001), "left": baccarat.Money(1_000)})},
		{"the stake limit per round names what is staked and left", func() *Standing {
			st := standing(Limits{StakePerRound: 600})
			st.Rounds[RoundKey{"t1", 3}] = 400
			return st
		}, 300,
			eurs(baccarat.Params{"kind": "stake_per_round", "limit": baccarat.Money(600), "staked": baccarat.Money(400), "stake": baccarat.Money(300), "left": baccarat.Money(200)})},
		{"limits kept in another currency name both currencies", func() *Standing {
			st := standing(Limits{LossPerDay: 1_000})
			st.Currency = "JPY"
			return st
		}, 100, baccarat.Params{"kind": "currency", "limits_currency": "JPY", "table_currency": "EUR"}},
		{"a session past its time names the minutes", func() *Standing {
			st := standing(Limits{SessionTime: 30})
			return st
		}, 100, baccarat.Params{"kind": "session_time", "minutes": 30}},
	} {
		t.Run(c.name, func(t *testing.T) {
			at := t0
			if c.want["kind"] == "session_time" {
				at = t0.Add(31 * time.Minute)
			}
			r := c.st().Check(eur(c.stake), Held{}, at)
			if r == nil {
				t.Fatal("taken")
			}
			if got, want := fmt.Sprint(r.Err.Params), fmt.Sprint(c.want); got != want {
				t.Errorf("params %s, want %s", got, want)
			}
		})
	}
}
