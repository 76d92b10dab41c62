package roads

import (
	"encoding/json"

	"github.com/tablehouse/baccarat"
)

// Settings are the thresholds of the good-road detectors. Operators tune them per product, so
// none is hard-wired; a field left at zero (or below) takes its DefaultSettings value.
type Settings struct {
	// LongStreak: "long Banker" / "long Player" fires when the current Big Road column has at
	// least this many cells (a dragon).
	LongStreak int `json:"long_streak"`
	// PingPong: "ping-pong" (single jump) fires when at least this many columns in a row,
	// the current one included, have exactly one cell: B P B P.
	PingPong int `json:"ping_pong"`
	// DoubleJump: "double jump" fires when at least this many columns in a row have exactly
	// two cells: BB PP BB.
	DoubleJump int `json:"double_jump"`
	// OneTwo: "one Banker two Player" (one room two houses) fires when at least this many
	// columns in a row alternate one Banker cell and two Player cells, B PP B PP; "one
	// Player two Banker" is the mirror image, P BB P BB.
	OneTwo int `json:"one_two"`
	// Consecutive: "Banker consecutive" fires when at least this many Banker columns in a row
	// (Player columns between them not counted) each have two or more cells: every time the
	// Banker comes it repeats. "Player consecutive" is the mirror image.
	Consecutive int `json:"consecutive"`
}

// DefaultSettings are the thresholds used where Settings leave a field at zero.
func DefaultSettings() Settings {
	return Settings{LongStreak: 4, PingPong: 4, DoubleJump: 3, OneTwo: 4, Consecutive: 3}
}

func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	for _, f := range []struct{ v, d *int }{
		{&s.LongStreak, &d.LongStreak}, {&s.PingPong, &d.PingPong}, {&s.DoubleJump, &d.DoubleJump},
		{&s.OneTwo, &d.OneTwo}, {&s.Consecutive, &d.Consecutive},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return s
}

// Share is Count out of Of, kept as an exact fraction; JSON adds the float and per-mille forms.
type Share struct {
	Count, Of int
}

// Float is the share as a fraction of 1 (0 when Of is 0).
func (s Share) Float() float64 {
	if s.Of == 0 {
		return 0
	}
	return float64(s.Count) / float64(s.Of)
}

// PerMille is the share in thousandths, rounded half up, computed in integers.
func (s Share) PerMille() int {
	if s.Of == 0 {
		return 0
	}
	return (2000*s.Count + s.Of) / (2 * s.Of)
}

// MarshalJSON writes {"count":n,"share":f,"per_mille":m}.
func (s Share) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Count    int     `json:"count"`
		Share    float64 `json:"share"`
		PerMille int     `json:"per_mille"`
	}{s.Count, s.Float(), s.PerMille()})
}

// Detector is one good-road detector's reading: how far its pattern runs at the end of the
// shoe so far (cells for a long streak, columns otherwise) and whether that reaches its
// threshold.
type Detector struct {
	Name      string `json:"name"`
	Threshold int    `json:"threshold"`
	Length    int    `json:"length"`
	Hit       bool   `json:"hit"`
}

// Stats are the shoe statistics shown beside the roads. Shares are of hands played.
type Stats struct {
	Hands int `json:"hands"`
	// CardsLeft is what the shoe says is left; the roads do not know the shoe, so it is nil
	// unless the caller supplies it.
	CardsLeft     *int       `json:"cards_left"`
	Banker        Share      `json:"banker"`
	Player        Share      `json:"player"`
	Tie           Share      `json:"tie"`
	PlayerPairs   Share      `json:"player_pairs"`
	BankerPairs   Share      `json:"banker_pairs"`
	Naturals      Share      `json:"naturals"`
	LongestBanker int        `json:"longest_banker"`
	LongestPlayer int        `json:"longest_player"`
	Detectors     []Detector `json:"detectors"`
}

// Stats returns the shoe statistics under the given detector thresholds. cardsLeft < 0 means
// unknown. The counts are kept by Append; the detectors look back only as far as their
// patterns run.
func (b *Board) Stats(set Settings, cardsLeft int) Stats {
	set = set.withDefaults()
	n, t := len(b.rounds), b.count
	s := Stats{
		Hands:         n,
		Banker:        Share{t.banker, n},
		Player:        Share{t.player, n},
		Tie:           Share{t.tie, n},
		PlayerPairs:   Share{t.playerPairs, n},
		BankerPairs:   Share{t.bankerPairs, n},
		Naturals:      Share{t.nats, n},
		LongestBanker: t.longestBanker,
		LongestPlayer: t.longestPlayer,
	}
	if cardsLeft >= 0 {
		s.CardsLeft = &cardsLeft
	}
	B, P := baccarat.BankerWins, baccarat.PlayerWins
	s.Detectors = []Detector{
		detect("long_banker", set.LongStreak, b.streak(B)),
		detect("long_player", set.LongStreak, b.streak(P)),
		detect("ping_pong", set.PingPong, b.run(func(baccarat.Winner) int { return 1 })),
		detect("double_jump", set.DoubleJump, b.run(func(baccarat.Winner) int { return 2 })),
		detect("one_banker_two_player", set.OneTwo, b.run(func(w baccarat.Winner) int { return 1 + btoi(w == P) })),
		detect("one_player_two_banker", set.OneTwo, b.run(func(w baccarat.Winner) int { return 1 + btoi(w == B) })),
		detect("banker_consecutive", set.Consecutive, b.consecutive(B)),
		detect("player_consecutive", set.Consecutive, b.consecutive(P)),
	}
	return s
}

func detect(name string, threshold, length int) Detector {
	return Detector{Name: name, Threshold: threshold, Length: length, Hit: length >= threshold}
}

// streak is the length of the current Big Road column if it is side's, else 0.
func (b *Board) streak(side baccarat.Winner) int {
	if last := len(b.cols) - 1; last >= 0 && b.cols[last].side == side {
		return b.cols[last].n
	}
	return 0
}

// run counts the columns at the end of the Big Road whose lengths follow a pattern: want(side)
// is the exact length a column of that side must have. The current column may still grow, so
// it counts once it has its length, does not break the run while shorter, and breaks it when
// longer.
func (b *Board) run(want func(baccarat.Winner) int) int {
	n := 0
	for i := len(b.cols) - 1; i >= 0; i-- {
		c, w := b.cols[i], want(b.cols[i].side)
		open := i == len(b.cols)-1
		switch {
		case c.n == w:
			n++
		case open && c.n < w:
		default:
			if open {
				return 0
			}
			return n
		}
	}
	return n
}

// consecutive counts side's columns at the end of the Big Road, skipping the other side's,
// that have two or more cells. A current column of side with one cell may still repeat, so it
// neither counts nor breaks the run.
func (b *Board) consecutive(side baccarat.Winner) int {
	n := 0
	for i := len(b.cols) - 1; i >= 0; i-- {
		c := b.cols[i]
		switch {
		case c.side != side:
		case c.n >= 2:
			n++
		case i == len(b.cols)-1:
		default:
			return n
		}
	}
	return n
}
