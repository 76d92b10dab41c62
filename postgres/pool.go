package postgres

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5"
)

// pool is a small fixed-size pool of pgx connections. It stands in for pgxpool, which needs
// github.com/jackc/puddle/v2 in go.mod; swapping it in later changes only this file and the
// acquire/release calls. Connections are dialled lazily, reused LIFO, and discarded when
// closed or returned mid-transaction (an error left them in an unknown state).
type pool struct {
	cfg   *pgx.ConnConfig
	slots chan struct{} // one token per connection in use or being dialled
	mu    sync.Mutex
	idle  []*pgx.Conn
	shut  bool
}

func newPool(cfg *pgx.ConnConfig, max int) *pool {
	return &pool{cfg: cfg, slots: make(chan struct{}, max)}
}

// acquire waits for a free slot (or ctx) and returns an idle or new connection.
func (p *pool) acquire(ctx context.Context) (*pgx.Conn, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	c, err := pgx.ConnectConfig(ctx, p.cfg)
	if err != nil {
		<-p.slots
		return nil, err
	}
	return c, nil
}

// release returns c to the pool, or closes it if it is broken or the pool is shut.
func (p *pool) release(c *pgx.Conn) {
	defer func() { <-p.slots }()
	p.mu.Lock()
	if !p.shut && !c.IsClosed() && c.PgConn().TxStatus() == 'I' {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	c.Close(context.Background())
}

// close closes the idle connections; connections in use close when released.
func (p *pool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.shut = nil, true
	p.mu.Unlock()
	for _, c := range idle {
		c.Close(context.Background())
	}
}
