// Package sim is the Monte Carlo check on the exact mathematics: it deals complete shoes
// (shuffled, to the cut card, shoe after shoe), settles every bet of a game on every coup, and
// reports what each bet returned with a 99% confidence interval, and for Dragon games the
// distribution of the longest streaks of sessions of several lengths.
//
// A run is split into chunks of ChunkShoes shoes; chunk i deals from a generator seeded with
// the master seed and i alone, and everything counted is an integer, so a run gives the same
// report for a given seed whatever the number of cores it runs on.
package sim

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// ChunkShoes is the number of shoes in one unit of work.
const ChunkShoes = 64

// DefaultCutCard is how many cards lie behind the cut card when a game sets no rule of its own:
// about a quarter of a deck, common practice in baccarat pits.
const DefaultCutCard = 14

// DefaultSessions are the Dragon session lengths, in hands, reported when none are asked for.
var DefaultSessions = []int{10, 20, 30, 40, 50, 60, 70, 80}

// Config is one simulation run.
type Config struct {
	Game *games.Game
	// Decks per shoe; 0 means the game's default.
	Decks int
	// Shoes to deal (at least 1).
	Shoes int
	// CutCard is the number of cards behind the cut card; a round starts only while the cut
	// card has not come out. −1 means the game's rule: Bet on Baccarat changes the shoe when
	// fewer than 40 cards remain after a draw (BoB 3.4), which is a cut card with 39 behind;
	// other games use DefaultCutCard.
	CutCard int
	Seed    uint64
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Sessions are the Dragon session lengths (games with Dragon bets); nil means
	// DefaultSessions.
	Sessions []int
	// Odds are the decimal odds each decimal (Bet on Baccarat) bet is paid at.
	Odds map[string]baccarat.Odds
	// Progress, if set, is called after each chunk with the shoes dealt so far, from one
	// goroutine at a time.
	Progress func(shoes int)

	verify bool // tests: check every coup against the rules engine
}

// Report is what a run measured.
type Report struct {
	Game    string
	Decks   int
	Shoes   int
	CutCard int
	Seed    uint64
	// Hands is the number of coups played, Voids the rounds voided for want of cards, Cards
	// the cards dealt.
	Hands, Voids, Cards uint64
	// PlayerWins, BankerWins, Ties and Cards4/5/6 count coups.
	PlayerWins, BankerWins, Ties uint64
	Cards4, Cards5, Cards6       uint64
	Bets                         []BetReport
	Sessions                     []SessionReport
}

// BetReport is one single-coup bet's realised result.
type BetReport struct {
	Bet                  string
	Wins, Pushes, Losses uint64
	// TierWins counts wins by tier.
	TierWins []uint64
	// Return is the mean net result of one unit staked on every coup; Return ± CI99 is a 99%
	// confidence interval for the bet's expected return over whole shoes.
	Return, CI99 float64
}

// SessionReport is the distribution of the longest streaks of sessions of one length:
// Longest[k][l] counts sessions whose longest Banker (k = 0), Player (1) or either (2) streak
// was l, with l = 7 standing for 7 or more.
type SessionReport struct {
	Hands    int
	Sessions uint64
	Longest  [3][8]uint64
}

func (cfg *Config) validate() error {
	if cfg.Game == nil {
		return baccarat.Errorf(baccarat.CodeUnknownGame, "no game to simulate")
	}
	if cfg.Decks == 0 {
		cfg.Decks = cfg.Game.Decks.Default
	}
	if cfg.Decks < 1 || cfg.Decks > 100 {
		return baccarat.Errorf(baccarat.CodeBadShoe, "%d decks: a simulated shoe has 1 to 100 decks", cfg.Decks)
	}
	if cfg.Shoes < 1 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%d shoes: simulate at least one", cfg.Shoes)
	}
	if cfg.CutCard < 0 {
		cfg.CutCard = DefaultCutCard
		if b := cfg.Game.Rules.ShoeChangeBelow; b > 0 {
			cfg.CutCard = b - 1
		}
	}
	if n := cfg.Decks * baccarat.NumCards; cfg.CutCard > n-6 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "a cut card with %d cards behind it leaves no round in a %d-card shoe", cfg.CutCard, n)
	}
	if cfg.Sessions == nil {
		cfg.Sessions = DefaultSessions
	}
	for _, s := range cfg.Sessions {
		if s < 1 {
			return baccarat.Errorf(baccarat.CodeBadRequest, "a session of %d hands", s)
		}
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	return nil
}

// Run deals the shoes and reports. It stops early, with ctx's error, when ctx is done.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	t, err := newTable(&cfg)
	if err != nil {
		return nil, err
	}
	chunks := (cfg.Shoes + ChunkShoes - 1) / ChunkShoes
	var next atomic.Int64
	var mu sync.Mutex
	done := 0
	workers := make([]*worker, min(cfg.Workers, chunks))
	var wg sync.WaitGroup
	for i := range workers {
		w := newWorker(t)
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				idx := int(next.Add(1) - 1)
				if idx >= chunks {
					return
				}
				shoes := min(ChunkShoes, cfg.Shoes-idx*ChunkShoes)
				w.chunk(cfg.Seed, idx, shoes)
				if cfg.Progress != nil {
					mu.Lock()
					done += shoes
					cfg.Progress(done)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return report(&cfg, t, workers), nil
}

func report(cfg *Config, t *table, workers []*worker) *Report {
	rep := &Report{Game: cfg.Game.ID, Decks: cfg.Decks, Shoes: cfg.Shoes, CutCard: cfg.CutCard, Seed: cfg.Seed,
		Bets: make([]BetReport, len(t.bets))}
	for i, bet := range t.bets {
		rep.Bets[i].TierWins = make([]uint64, len(bet.Tiers))
	}
	rows := map[signature]*class{}
	counts := map[signature]uint64{}
	bets := make([]batch, len(t.bets))
	var sums shoeSums
	sessions := make([][3][8]uint64, len(t.sessions))
	for _, w := range workers {
		rep.Hands += w.sums.h
		sums.merge(&w.sums)
		rep.Voids += w.voids
		rep.Cards += w.dealt
		for id := 1; id < len(w.classes); id++ {
			c := &w.classes[id]
			rows[c.sig()] = c
			counts[c.sig()] += w.classSums[id].total
		}
		for b := range bets {
			bets[b].merge(&w.bets[b])
		}
		for i := range sessions {
			for bp, n := range w.sessions[i] {
				b, p := bp>>3, bp&7
				sessions[i][0][b] += n
				sessions[i][1][p] += n
				sessions[i][2][max(b, p)] += n
			}
		}
	}
	for sig, n := range counts {
		c := rows[sig]
		switch c.winner {
		case baccarat.PlayerWins:
			rep.PlayerWins += n
		case baccarat.BankerWins:
			rep.BankerWins += n
		default:
			rep.Ties += n
		}
		switch c.cards {
		case 4:
			rep.Cards4 += n
		case 5:
			rep.Cards5 += n
		default:
			rep.Cards6 += n
		}
		for b := range t.bets {
			tally(rep, b, c.codes[b], n)
		}
	}
	for b, bet := range t.bets {
		rep.Bets[b].Bet = bet.ID
		rep.Bets[b].Return, rep.Bets[b].CI99 = bets[b].estimate(&sums, t.scale)
	}
	for i, L := range t.sessions {
		sr := SessionReport{Hands: L, Longest: sessions[i]}
		for _, n := range sessions[i][0] {
			sr.Sessions += n
		}
		rep.Sessions = append(rep.Sessions, sr)
	}
	return rep
}

func tally(rep *Report, b int, code uint8, n uint64) {
	br := &rep.Bets[b]
	switch code {
	case 0:
		br.Losses += n
	case 1:
		br.Pushes += n
	default:
		br.Wins += n
		br.TierWins[code-2] += n
	}
}
