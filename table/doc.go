// Package table is the law of one baccarat table as a pure state machine: commands in,
// events out. It has no goroutines, reads no clock and makes no randomness of its own:
// cards, times and shuffled shoes arrive as commands, so the same code runs an RNG table,
// a dealer's card-reading shoe, a replayed dispute and a crash recovery.
//
// Apply validates a command completely before changing anything; an error (always a
// *baccarat.Error with a stable code) means nothing changed. The events Apply returns are
// the table's history: Replay rebuilds an identical table from them, and the live host
// journals them, posts the money they move and publishes them to players.
//
// Rounds move through the phases of SPEC §4:
//
//	idle ─open─▶ betting ─close─▶ closed ─first card─▶ dealing ─last card─▶ settled
//	                 ▲                                   │  (Bet on Baccarat: betting
//	                 └──────────── device reset ◀────────┘   rounds 2 and 3 open inside)
//	any phase before settlement ─void─▶ void
//
// Across rounds, the pit pauses a table (the round under way ends as usual; then no round
// opens until it reopens) and closes a paused one with nothing in play, for good (pause.go).
package table
