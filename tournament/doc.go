// Package tournament is the law of a chip tournament (SPEC §5) as a pure state machine:
// commands in, events out, state rebuilt by replaying the events. Like package table it
// has no goroutines, reads no clock and draws no randomness of its own: times come in on
// commands (Command.At), and seating comes from a seed given with the start command. A
// runtime host drives it (one goroutine per tournament, events journalled, a table created
// per session), and so does a simulation on a virtual clock; both call the same Apply. The
// live host (live/tournament_*.go) is the runtime; tabletop plays a session at a table and
// tabletop.Run is the simulation (baccarat tournament run).
//
// Apply validates a command completely before changing anything; an error (a
// *baccarat.Error with a stable code, see Codes) means nothing changed. The events Apply
// returns are the tournament's history: Replay rebuilds an identical tournament from them.
// Everything is JSON with snake_case names, durations written as "90s".
//
// # Life of a tournament
//
//	scheduled ─open_registration─▶ registering ─close_registration─▶ registration_closed
//	     registering / registration_closed ─start─▶ running ─(last round ends)─▶ finished
//	     any phase before running ─cancel─▶ cancelled (also start with too few entrants)
//
// Next(t, now) is the schedule: the timed command due now, or when to look again.
//
// # Money and chips
//
// The entry fee and rebuy prices are money in Config.Currency (ISO 4217, or XXX play
// money) and go to the prize pool; prizes are paid from it in the same currency. Chips are
// the tournament's own currency, ledger.Chips(id) = "CHIPS:<id>", with no cash value. The
// host books the money of registered, unregistered, rebought, cancelled and finished
// events (Event.Amount, Event.Payments); the chips live here and at the tables. A host whose
// money is kept elsewhere (an operator's wallet, called over the network) takes a payment
// before the command it pays for: Charge prices a register or rebuy command, or refuses it
// as Apply would, changing nothing; Command.Debit names the payment, and the event journals it.
//
// Pool: the pool is the fees and rebuy prices collected, topped up by the house to the
// guarantee when they fall short: total = collected + max(0, guarantee − collected). Once
// the tournament is finished, every minor unit of the pool is paid out (Prizes).
//
// # Registration
//
// A player registers while registration is open (between RegistrationOpens and
// RegistrationCloses), once (already_registered), up to MaxEntrants (tournament_full).
// Unregistering before the start refunds the fee. Each registration gets an entry number
// (1, 2, 3, ..., never reused after an unregistration): the earlier registration has the
// lower number. At the start, fewer than MinEntrants (default 2) cancels the tournament and
// refunds every fee.
//
// # Rounds, tables and sessions
//
// A tournament is one or more rounds. Each round seats its players at the fewest tables of
// at most TableSize, sizes differing by at most one, drawn with the start command's seed
// (see Seat; round n uses the seed and n, so every draw can be reproduced and audited).
// Round 1 seats every entrant; a later round seats the players who advanced from the one
// before, with StartingChips again or, with CarryChips, the chips they had. The last round
// is the final: the configuration is refused unless it is one table whatever the entries.
//
// Each table of a round plays the round's sessions in order, each of a number of hands or a
// length of time; a session starts with start_session (the schedule sends it Break after
// the table was seated or its last session ended). The host reports every hand of a table
// with report_hand: each player's net chip change (+won, −lost) and the hand's number; a
// voided hand changes nothing and does not count toward the session's hands. The session
// ends with its last counted hand, or with end_session when its time is up (after the hand
// in play) or an organiser ends it. Every session keeps a SessionRecord whose Accounting
// must balance: chips at the start + chips rebought = chips at the end + the house's net.
//
// Stakes are per hand: a player's stakes on one hand total at least Stakes.Min and at most
// Stakes.Max (the round's, or the tournament's), and with Stakes.Required a player must
// wager every hand. The tables enforce them; the tournament refuses a report of a loss above
// the maximum (except a Dragon settlement) or beyond a player's chips.
//
// # Standings and tie-breaks
//
// Leaderboard ranks the current round's players by chips after every hand, over all tables;
// TableStandings does the same for one table. Equal chips share a rank and are listed in
// registration order. Standing.Advances marks who would go on if the round ended now.
//
// Tie-break: where a place cannot be shared — the last advancing place — equal chips go to
// the earlier registration. It is deterministic, known to every player before the first
// hand, and needs nothing but the entry list to check. Where money can be shared, it is:
// tied players split prizes (below).
//
// # Elimination and rebuys
//
// A player is busted when their chips are below the round's minimum stake: they cannot make
// the minimum (a player with no chips always is, SPEC §5). A busted player is eliminated at
// the end of the hand that busted them, unless they can still rebuy: they have rebuys left
// and the rebuy window is open. A busted player who can rebuy stays seated without betting
// until they rebuy; when the window closes or the session ends with no rebuy possible
// before the table's next session, they are eliminated. A busted player is always
// eliminated at the end of a round: a rebuy never carries anyone into the next one.
//
// A rebuy (Config.Rebuy) is for busted players only (not_busted otherwise), at most Max per
// player (no_rebuys_left), for Price in money (to the pool), giving Chips. The window is
// open until hand Until.Hand of session Until.Session of round Until.Round has ended: a
// player busted by that hand is eliminated (rebuy_closed after it). Rebuy chips count in
// the session's accounting when bought during a session, and in the next session's
// starting chips when bought between sessions.
//
// # Advancement
//
// When every table has finished the round, its top Advance players go on: from each table,
// or from the whole round with AdvanceOverall; eliminated players never advance. Order:
// more chips first; equal chips, the earlier registration. If fewer than two players would
// go on, the tournament ends there, the one who would have advanced (if any) first.
//
// # Final ranking and prizes
//
// Every entrant is ranked: first by the last round reached (advancing into a round counts
// as reaching it), then by chips at the end of the last round they played. Players equal on
// both share a rank (1, 2, 2, 4), listed in registration order. Config.Prizes gives each
// place a share of the pool in basis points; the shares sum to exactly 10000 and never
// increase from one place to the next. Prizes divides the pool in integer minor units:
//
//   - each place's exact amount, pool × share / 10000, is rounded down, and the minor units
//     left over (fewer than the places paid) go one each to the paid places from the top of
//     the ranking: pool 1001 over 5000/3000/2000 pays 501, 300, 200;
//   - tied players merge the places they occupy and split their combined amount equally,
//     the units left over going one each to the tied players in listed order (earlier
//     registration first): a tie for 2nd–4th over 5000/3000/1000/1000 of 1000 pays 500,
//     167, 167, 166;
//   - with fewer entrants than prize places, the occupied places' shares are scaled up to
//     the whole pool (two players, 5000/3000/2000: 5/8 and 3/8).
//
// So the prizes always sum to exactly the pool. The finished event lists the results and
// the payments.
//
// # Dragon
//
// In mbs-dragon with Config.Dragon, players may make Dragon bets; the tournament knows
// nothing of them but one thing: they settle at the end of a session (Dragon 3.12). The
// session's last report carries their settlement in each player's net change — the report
// of the last counted hand of a session of hands, or end_session's Changes for a timed
// session. So that a pending Dragon bet can still save a player, busts in a Dragon
// tournament are judged at the end of each session, not after each hand, and the last
// report's losses are not capped at the maximum stake.
package tournament
