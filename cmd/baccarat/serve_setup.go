package main

// What serve sets up before it listens: its configuration and settings checked, the
// secret, the tables of the configuration (or the defaults) and the demo.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// readConfig reads the --config file over the defaults, refusing a field it does not know.
func (s *server) readConfig() (serveConfig, error) {
	cfg := serveConfig{DemoCredit: 100_000_000}
	if s.Config == "" {
		return cfg, nil
	}
	b, err := os.ReadFile(s.Config)
	if err != nil {
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "--config %s cannot be read: %v", s.Config, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "%s: %v", s.Config, err)
	}
	return cfg, nil
}

// The range of --tournament-every: long enough to register, short enough that a demo
// tournament is there to be seen the same day.
const (
	minDemoEvery = time.Minute
	maxDemoEvery = 24 * time.Hour
)

// checkSettings refuses, before anything starts, a setting out of its range: the flags that
// pace the default tables and the demo tournaments, the demo money, and every table of the
// config file. The host checks each table again as it creates it; checking them all first
// means a bad one does not leave the ones before it made.
func (s *server) checkSettings(cfg serveConfig) error {
	for _, d := range []time.Duration{s.Betting, s.Demo.Betting} {
		if d != 0 && (d < live.MinScheduleTime || d > live.MaxScheduleTime) {
			return baccarat.Errorf(baccarat.CodeBadRequest, "--betting %s: give %s to %s, as a table's schedule", d, live.MinScheduleTime, live.MaxScheduleTime)
		}
	}
	if most := s.demoTournament(tournament.Games[0], time.Time{}).Config.MaxEntrants; s.Demo.Bots < 0 || s.Demo.Bots > most {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--tournament-bots %d: give 0 to %d, the entries of a demo tournament", s.Demo.Bots, most)
	}
	if d := s.Demo.Every; d != 0 && (d < minDemoEvery || d > maxDemoEvery) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--tournament-every %s: give %s to %s", d, minDemoEvery, maxDemoEvery)
	}
	if s.TokenRate < 0 || s.AddressRate < 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--rate-token and --rate-address are requests a second: 0 (the default) or more")
	}
	if cfg.DemoCredit < 0 || cfg.DemoCredit > baccarat.MaxAmount {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s: demo_credit is %d: give 0 to %d minor units", s.Config, cfg.DemoCredit, baccarat.MaxAmount)
	}
	for _, spec := range cfg.Tables {
		if err := errors.Join(spec.Config.Check(), spec.Schedule.Check(), spec.Video.Check()); err != nil {
			return fmt.Errorf("%s: table %s: %w", s.Config, spec.ID, err)
		}
	}
	return nil
}

// accountCacheTTL is how long a server believes an account it read, should the news of a
// change be lost on its way; changes are announced, so this is a backstop.
const accountCacheTTL = time.Minute

// secret is the token-signing key: the flag, or a file beside an SQLite database made on
// first start (0600), or for PostgreSQL a fresh one (tokens then last one process).
func (s *server) secret() ([]byte, error) {
	if s.Cluster.SecretFile != "" {
		b, err := os.ReadFile(s.Cluster.SecretFile)
		if err != nil {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--secret-file %s: %v", s.Cluster.SecretFile, err)
		}
		s.Secret = strings.TrimSpace(string(b))
	}
	if s.Secret != "" {
		b, err := hex.DecodeString(s.Secret)
		if err != nil || len(b) < 16 {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "--secret must be at least 32 hex digits")
		}
		return b, nil
	}
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh)
	if isPostgres(s.DB) {
		s.Log.Warn("no --secret: tokens are valid for this process only; give every server the same --secret")
		return fresh, nil
	}
	path := strings.TrimPrefix(s.DB, "sqlite:") + ".secret"
	if b, err := os.ReadFile(path); err == nil {
		return hex.DecodeString(strings.TrimSpace(string(b)))
	}
	if err := os.WriteFile(path, []byte(hex.EncodeToString(fresh)+"\n"), 0o600); err != nil {
		return nil, err
	}
	return fresh, nil
}

// secretGiven reports whether the secret was given (a flag, the environment or a file), as
// every server of a cluster must share it, rather than made by this one.
func (s *server) secretGiven() bool { return s.Secret != "" || s.Cluster.SecretFile != "" }

// defaultTables: one automatic table of each cash game (the tournament games run in the demo
// tournaments), and a dealer-driven Tiger table.
func (s *server) defaultTables() []live.Spec {
	var specs []live.Spec
	for _, g := range games.All() {
		if g.Rules.Tournament {
			continue
		}
		specs = append(specs, live.Spec{ID: g.ID, Name: g.Name, Names: demoNames[g.ID], Mode: live.ModeAuto,
			Config: table.Config{Game: g.ID}, Schedule: live.Schedule{Betting: s.Betting}})
	}
	return append(specs, live.Spec{ID: "tiger-live", Name: "Tiger No Commission (dealer)", Names: demoNames["tiger-live"], Mode: live.ModeDealer,
		Config: table.Config{Game: "mbs-tiger"}})
}

func (s *server) createTables(ctx context.Context, cfg serveConfig) error {
	specs := cfg.Tables
	if specs == nil { // no "tables" in the config (an empty list means none)
		specs = s.defaultTables()
	}
	if err := s.checkCashTables(specs); err != nil {
		return err
	}
	have := map[string]bool{}
	for _, t := range s.host.Tables(ctx) {
		have[t.Spec.ID] = true
	}
	for _, spec := range specs {
		if have[spec.ID] {
			continue
		}
		if err := s.host.Create(ctx, spec); err != nil && !isCode(err, baccarat.CodeConflict) {
			return fmt.Errorf("table %s: %w", spec.ID, err)
		}
	}
	return nil
}

// demo makes the demo accounts (once: an admin's later changes stand), credits the demo
// player once, and makes the sign-in links. The demo dealer may deal the demo dealer table
// only.
func (s *server) demo(ctx context.Context, cfg serveConfig, tokens *access.Tokens) error {
	dealerTable := "tiger-live"
	for _, t := range s.host.Tables(ctx) {
		if t.Spec.Mode == live.ModeDealer {
			dealerTable = t.Spec.ID
			break
		}
	}
	now := time.Now().UTC()
	var accts [3]access.Account
	for i, a := range []access.Account{
		{ID: "demo", Name: "Demo Player", Role: access.RolePlayer, Created: now},
		{ID: "dealer", Name: "Demo Dealer", Role: access.RoleDealer, Tables: []string{dealerTable}, Created: now},
		{ID: "admin", Name: "Admin", Role: access.RoleAdmin, Created: now},
	} {
		got, err := access.Ensure(ctx, s.store, a)
		if err != nil {
			return err
		}
		accts[i] = got
	}
	if cfg.DemoCredit > 0 {
		if err := s.host.Credit(ctx, "demo-credit", "demo", live.PlayMoney, cfg.DemoCredit); err != nil {
			return err
		}
	}
	player, dealer, admin := tokens.Issue(accts[0]), tokens.Issue(accts[1]), tokens.Issue(accts[2])
	s.links = map[string]string{"player": "/?token=" + player, "dealer": "/dealer/" + dealerTable + "?token=" + dealer,
		"admin": admin, "back_office": "/admin?token=" + admin, "player_token": player, "dealer_token": dealer}
	return nil
}

func isCode(err error, code baccarat.Code) bool { return baccarat.ErrorCode(err) == code }

// leaseName makes a lease owner id out of a host name and address: a stored id
// (baccarat.ValidStoredID, which keeps a host name's dots), every other byte a '-'.
func leaseName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !baccarat.ValidStoredID(string(c)) {
			b[i] = '-'
		}
	}
	if len(b) > baccarat.MaxIDLen {
		b = b[:baccarat.MaxIDLen]
	}
	return string(b)
}
