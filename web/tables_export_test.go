package web

import (
	"context"
	"sync"
	"sync/atomic"
)

// SessionHold holds the count of Dragon sessions of one length in flight, for a test to
// show what answers while it runs.
type SessionHold struct {
	Started chan struct{} // closed when the first held count starts
	release chan struct{}
	calls   atomic.Int32
	once    sync.Once
	restore func()
}

// HoldSessionCounts makes every count of a Dragon session of hands wait until Release
// (then count as usual); other lengths count as usual. Calls says how many counts of that
// length started.
func HoldSessionCounts(hands int) *SessionHold {
	h := &SessionHold{Started: make(chan struct{}), release: make(chan struct{})}
	s := sessionCounts
	s.mu.Lock()
	real := s.count
	s.count = func(ctx context.Context, k sessionKey) ([]sessionBet, error) {
		if k.hands == hands {
			h.calls.Add(1)
			h.once.Do(func() { close(h.Started) })
			select {
			case <-h.release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return real(ctx, k)
	}
	s.mu.Unlock()
	h.restore = func() {
		s.mu.Lock()
		s.count = real
		s.mu.Unlock()
	}
	return h
}

// Calls is how many counts of the held length started.
func (h *SessionHold) Calls() int { return int(h.calls.Load()) }

// Release lets the held counts go on, and counts no more lengths through the hold.
func (h *SessionHold) Release() {
	select {
	case <-h.release:
	default:
		close(h.release)
		h.restore()
	}
}
