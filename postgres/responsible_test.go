package postgres_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/responsible"

	"github.com/tablehouse/baccarat/responsible/responsibletest"
)

func TestResponsibleConformance(t *testing.T) {
	needPostgres(t)
	responsibletest.Run(t, func(t *testing.T) responsibletest.Store { return open(t) })
}

// TestStandingsReadsWhatStandingReads: the standings of many players read at once are, player
// by player, what Standing reads: limits in their own currency, a stake limit's round sums,
// sessions running and ended, an exclusion, and a player never seen.
func TestStandingsReadsWhatStandingReads(t *testing.T) {
	needPostgres(t)
	db := open(t)
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.SetLimits(ctx, "ann", "GBP", responsible.Limits{LossPerDay: 5_000, RealityCheck: 30}, "operator", t0))
	must(db.SetLimits(ctx, "bob", "EUR", responsible.Limits{StakePerRound: 1_000}, "admin", t0))
	_, err := db.StartSession(ctx, "bob", t0)
	must(err)
	s, err := db.StartSession(ctx, "cy", t0)
	must(err)
	must(db.EndSession(ctx, "cy", s.ID, responsible.EndLeft, t0.Add(time.Minute)))
	must(db.Exclude(ctx, "dee", responsible.Exclusion{Kind: responsible.CoolOff, Until: t0.Add(24 * time.Hour)}, t0))
	players := []string{"ann", "bob", "cy", "dee", "eve"}
	now := t0.Add(time.Hour)
	got, err := db.Standings(ctx, players, "EUR", now)
	must(err)
	for i, p := range players {
		want, err := db.Standing(ctx, p, "EUR", now)
		must(err)
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: read at once %+v, alone %+v", p, got[i], want)
		}
	}
}
