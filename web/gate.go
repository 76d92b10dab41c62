package web

import (
	"context"
	"sync"

	"github.com/tablehouse/baccarat"
)

// streamGate counts open WebSocket streams per account, per client address and in all,
// refusing one over a cap, and cuts an account's streams when it is disabled or revoked.
type streamGate struct {
	mu        sync.Mutex
	lim       StreamLimits
	total     int
	byAccount map[string]map[*ticket]struct{}
	byAddr    map[string]int
}

// ticket is one open stream.
type ticket struct {
	account, addr string
	cancel        context.CancelFunc
}

func newStreamGate(lim StreamLimits) *streamGate {
	return &streamGate{lim: lim, byAccount: map[string]map[*ticket]struct{}{}, byAddr: map[string]int{}}
}

// enter admits a stream or says which cap it is over (rate_limited: try later).
func (g *streamGate) enter(account, addr string, cancel context.CancelFunc) (*ticket, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.total >= g.lim.Total:
		return nil, baccarat.Errorf(baccarat.CodeRateLimited, "the server has its most streams open (%d): try again in a moment", g.lim.Total)
	case len(g.byAccount[account]) >= g.lim.PerToken:
		return nil, baccarat.Errorf(baccarat.CodeRateLimited, "this account already has %d streams open: close a tab or another device first", g.lim.PerToken)
	case g.byAddr[addr] >= g.lim.PerAddress:
		return nil, baccarat.Errorf(baccarat.CodeRateLimited, "your address already has %d streams open", g.lim.PerAddress)
	}
	t := &ticket{account: account, addr: addr, cancel: cancel}
	if g.byAccount[account] == nil {
		g.byAccount[account] = map[*ticket]struct{}{}
	}
	g.byAccount[account][t] = struct{}{}
	g.byAddr[addr]++
	g.total++
	return t, nil
}

// leave forgets a stream that ended.
func (g *streamGate) leave(t *ticket) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.byAccount[t.account][t]; !ok {
		return
	}
	delete(g.byAccount[t.account], t)
	if len(g.byAccount[t.account]) == 0 {
		delete(g.byAccount, t.account)
	}
	if g.byAddr[t.addr]--; g.byAddr[t.addr] <= 0 {
		delete(g.byAddr, t.addr)
	}
	g.total--
}

// cut ends every stream of an account (disabled, or its tokens revoked).
func (g *streamGate) cut(account string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for t := range g.byAccount[account] {
		t.cancel()
	}
}

// closeAll ends every stream (shutdown).
func (g *streamGate) closeAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, ts := range g.byAccount {
		for t := range ts {
			t.cancel()
		}
	}
}
