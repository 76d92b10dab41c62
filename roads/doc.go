// Package roads builds the five scoreboards of a baccarat shoe — Bead Plate, Big Road, Big Eye
// Boy, Small Road and Cockroach Pig — with the Ask-Banker/Ask-Player predictions and the shoe's
// statistics, as pure functions of the shoe's settled, non-void rounds (SPEC §6). The precise
// rules are ../shared/ROADS.md; every rule below quotes it.
//
// The display is informational only: if it ever disagrees with the cards, the cards prevail
// (Tiger 6.3). That is why nothing here is authoritative state: a Board is derived data, and a
// voided or corrected round is handled by rebuilding the Board from the corrected list with New,
// never by editing it in place.
//
// # Model
//
// A Board keeps the logical Big Road — leading ties and columns of any length — separately
// from the 6-row display grids. Every rule (derived roads, Ask, good-road detectors) reads
// logical column lengths only; the grids, the dragon tail and scrolling are drawing concerns.
//
// Append adds one round and brings every road up to date in amortised constant time: the
// Big Road extends its last column or starts one, each derived road gains at most one mark by
// comparing two column lengths, and each grid places at most one item next to the previous one.
// New(rounds) is the same thing in a loop, so the incremental and the batch paths cannot
// disagree.
//
// # Notation
//
// Rounds have a text form (ParseRounds, FormatRounds, Round.String): an upper-case result
// letter B (Banker), P (Player) or T (Tie), directly followed by any of the lower-case flags
// p (Player pair), b (Banker pair) and n (natural), each at most once and in any order.
// Spaces and commas between rounds are ignored. So "TBPPTBBB" is eight plain rounds and
// "T Bp Pbn, B" is a tie, a Banker win with a Player pair, a Player natural with a Banker pair,
// and a Banker win. Results are upper-case only, so that a lower-case b or p can only be a flag.
package roads
