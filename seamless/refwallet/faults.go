package refwallet

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tablehouse/baccarat/seamless"
)

// Faults are the misbehaviours the wallet can be told to show, each with a probability per
// call (0 to 1), for tests of the game server's side. They apply to the four protocol
// calls, never to the admin endpoints, in this order:
//
//   - Slow: hold the call SlowMS milliseconds before taking it (a congested operator), so
//     a client with a shorter timeout gives up first; the call is still taken afterwards.
//     A rollback that arrives while its debit is held closes the debit's id first, and the
//     debit, when it is taken, is refused (rolled_back).
//   - Fail: answer 500 internal without taking the call: nothing is applied or recorded.
//   - Lose: take the call, record it, then drop the connection without an answer.
//
// Duplicate deliveries need no switch: a repeated tx id gets its first answer.
type Faults struct {
	SlowMS int64   `json:"slow_ms"`
	SlowP  float64 `json:"slow_p"`
	FailP  float64 `json:"fail_p"`
	LoseP  float64 `json:"lose_p"`
}

// MaxSlow is the longest hold a slow fault may have.
const MaxSlow = 10 * time.Minute

// Check refuses probabilities outside 0 to 1 and holds outside 0 to MaxSlow.
func (f *Faults) Check() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"slow_p", f.SlowP}, {"fail_p", f.FailP}, {"lose_p", f.LoseP}} {
		if !(p.v >= 0 && p.v <= 1) {
			return seamless.Refuse(seamless.CodeBadRequest, "%s %v: a probability is 0 to 1", p.name, p.v)
		}
	}
	if f.SlowMS < 0 || f.SlowMS > MaxSlow.Milliseconds() {
		return seamless.Refuse(seamless.CodeBadRequest, "slow_ms %d: want 0 to %d", f.SlowMS, MaxSlow.Milliseconds())
	}
	return nil
}

// Source is where fault decisions come from: a uniform number in [0, 1). A test with a
// fixed source gets the same faults on every run.
type Source interface {
	Float64() float64
}

// NewSource is a seeded source.
func NewSource(seed uint64) Source { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// switches holds the faults in force, changed at run time through the admin endpoint.
type switches struct {
	mu  sync.Mutex
	f   Faults
	rng Source
}

// roll decides one call's faults.
type roll struct {
	slow       time.Duration
	fail, lose bool
}

func (s *switches) roll() roll {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r roll
	if s.f.SlowP > 0 && s.rng.Float64() < s.f.SlowP {
		r.slow = time.Duration(s.f.SlowMS) * time.Millisecond
	}
	r.fail = s.f.FailP > 0 && s.rng.Float64() < s.f.FailP
	r.lose = s.f.LoseP > 0 && s.rng.Float64() < s.f.LoseP
	return r
}

func (s *switches) get() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f
}

func (s *switches) set(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f = f
}
