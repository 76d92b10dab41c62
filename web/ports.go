package web

import (
	"context"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/table"
)

// The ports: what the handlers ask of the runtime, a few methods per concern. Each handler
// reaches the runtime only through the port it needs (a Server field per port), so a test of
// a handler fakes a port of a handful of methods instead of starting tables, wallets and a
// journal. *live.Host is the one implementation that serves them all (ports_test.go asserts
// it); web still imports live for the types those methods speak in.

// Tables are the tables as players play and watch them: the lobby, a table's view and its
// recall, its stream, and the commands players and dealers send. Used by api.go, rules.go,
// stream.go, shoe.go, squeeze.go, operator.go (a launch's table), admin_tables.go (the
// dealers' commands and the tables' list), admin_floor.go (each table's last rounds) and
// metrics.go.
type Tables interface {
	Tables(ctx context.Context) []live.TableInfo
	Snapshot(tableID, player string) (*live.Snapshot, error)
	Rounds(tableID, player string, n int) ([]live.Round, error)
	Subscribe(tableID, player string, since uint64, resume bool) (*live.Subscription, error)
	Submit(ctx context.Context, tableID string, cmd table.Command) (*live.Result, error)
}

// Floor is the tables as staff and the metrics see the cluster: opening a table, how each
// table's rounds are moving, and which tables this server holds. Used by api.go (creating a
// table), admin_tables.go, metrics.go and metrics_scrape.go.
type Floor interface {
	Create(ctx context.Context, spec live.Spec) error
	Progress() []live.TableProgress
	Owner() string
	LocalTables(ctx context.Context) []live.TableInfo
}

// Tournaments are the tournaments as players see and join them. Used by tournaments.go,
// tournament_admin.go, statement_rounds.go (a tournament's name in a statement) and
// metrics_scrape.go.
type Tournaments interface {
	Tournaments() []live.TournamentView
	Tournament(ctx context.Context, id, player string) (*live.TournamentView, error)
	WaitTournament(ctx context.Context, id string, seq uint64) error
	Register(ctx context.Context, id, player string) error
	Unregister(ctx context.Context, id, player string) error
	Rebuy(ctx context.Context, id, player string) error
}

// TournamentDesk is what only staff do to tournaments: create and cancel them. Used by
// tournaments.go and tournament_admin.go.
type TournamentDesk interface {
	CreateTournament(ctx context.Context, spec live.TournamentSpec) error
	CancelTournament(ctx context.Context, id, reason string) error
}

// Wallets are players' balances and credits, and whether a currency's wallet is the
// operator's (seamless) or ours. Used by accounts.go, admin_accounts.go, admin_reports.go,
// admin_tournaments.go, api.go, me.go and operator.go.
type Wallets interface {
	Balance(ctx context.Context, player string, cur ledger.Currency) (baccarat.Money, error)
	Credit(ctx context.Context, key, player string, cur ledger.Currency, amount baccarat.Money) error
	Wallet(cur ledger.Currency) live.Wallet
}

// WalletCalls are the calls to an operator's wallet not yet settled: how many and how old,
// and staff settling one by hand. Used by admin_floor.go, metrics_scrape.go and
// reconcile_actions.go.
type WalletCalls interface {
	Outbox(ctx context.Context) (live.OutboxState, error)
	ResolveCall(ctx context.Context, tx string, r journal.Resolution) (*live.Resolved, error)
}

// Care is players' responsible-gaming limits: the store of them (nil when none is kept), a
// player's standing against them, and dropping what the runtime caches once they change.
// Used by limits.go and operator.go.
type Care interface {
	Limits() responsible.Store
	Standing(ctx context.Context, player string, cur ledger.Currency) (responsible.Standing, error)
	ForgetLimits(players ...string)
}

// Names gives the directory of players' handles and display names, so answers name players
// as the caller may see them. Used by names.go, tournaments.go, shoe.go and squeeze.go.
type Names interface {
	People() live.People
}

// Host is every port in one: what Options takes, so a program wires its runtime with one
// field. New hands each handler only its port.
type Host interface {
	Tables
	Floor
	Tournaments
	TournamentDesk
	Wallets
	WalletCalls
	Care
	Names
}
