// Package live is the runtime host: what runs the tables and tournaments of one server,
// alone on an embedded database or with others sharing one.
//
// A table is one goroutine with a bounded inbox (runner.go, inbox.go). Each command goes
// through table.Apply; its events, postings and requests are committed in one transaction,
// many commands at once (group commit); only then is the command acknowledged, and then
// the events are published to subscribers (hub.go, stream.go), who are dropped, never
// waited for, when they fall behind. Timers from an injected clock run automatic tables
// (schedule.go). On start every table is rebuilt from its journal, from its last snapshot
// on (snapshots.go), and a round that was under way is interrupted and resumed per SPEC §4
// (runner_recover.go).
//
// The runner owns two ports, and asks nothing else of what surrounds it:
//
//   - Gate (gate.go): may a round open, may a command or a wager go, what bets are
//     required. A plain table has none; a tournament's session table has its tournament's.
//   - Stakes (stakes.go): where a table's wagers take money and give it back, in two phases
//     (held, then posted with the commit or voided). Its adapters are the platform's own
//     books (bank.go, postings.go) and the operator's seamless wallet (seamless.go,
//     walletbooks.go: a debit before the table takes the wager, credits and rollbacks
//     written to an outbox in the settlement's commit and sent by the deliverer, deliver.go
//     and wallet.go). A deployment plugs in another kind by name (Options.Wallets).
//
// Beside the tables:
//
//   - Tournaments (tournament_*.go): a goroutine per tournament that drives package
//     tournament's state machine, opens its session tables, plays its house bots and moves
//     its entry fees, rebuys and prizes on the books or the operator's wallet.
//   - Responsible gaming (care.go, plays.go): each wager checked against the player's
//     limits before it reaches its table, and counted in the store with the commit.
//   - Leases (lease.go, adopt.go, create.go): with a shared database a table or tournament is
//     run by one host at a time, fenced by its lease's epoch in every commit; another host
//     takes it up when the lease lapses. Peer (peer.go) is the host as the cluster's other
//     servers reach it (package cluster carries it over NATS).
package live
