// Package odds is the platform's exact mathematics: for any shoe composition (counts per
// rank, or per card when suits are known) and the cards of the coup already seen, it counts
// every ordered sequence of cards the coup can be dealt from, exactly, and reads off what
// every bet of every game is worth.
//
//   - Analyze counts one coup: the 400 hand outcomes (final totals, who drew) and the 13 pair
//     classes; Sheet turns that into a game's PAR sheet; EffectOfRemoval adds the effect of
//     each rank on every edge.
//   - Dragon and DragonBreakEven price the Dragon bets over a session (Dragon 3.11, 3.12).
//   - Prices gives Bet on Baccarat's odds for each betting round (SPEC §3.5); Pricer does it
//     without allocating.
//   - Chances tells a table, mid-coup, whether any wager's result is already certain
//     (Tiger 5.17).
//
// Counting convention, the one published tables use: hand outcomes count ordered prefixes up
// to the coup's sixth card (a full 8-deck shoe totals 416·415·414·413·412·411, of which the
// Banker wins 2,292,252,566,437,888), pair bets count ordered prefixes up to the fourth. Counts
// are integers throughout: uint64 in the inner loop for shoes of up to 1625 cards, math/big
// beyond; every probability is available as an exact Fraction.
//
// How the count is fast: every bet but the pair-type ones is a function of the hand outcome,
// so one count serves every game; the four initial cards are enumerated by point value (55×55
// unordered hands with their ordered multiplicities), and since removing cards from a shoe is
// linear in the counts, the third cards are not enumerated per state but through the first
// and second moments of the removed values, aggregated per pair of two-card totals. The pair
// classes are closed forms over rank and card counts. A plain counter walking every ordered
// value sequence in math/big (countCellsBig), and in the tests a brute force over every
// ordering of small shoes dealt through the rules engine, are the slow twins it is checked
// against.
package odds
