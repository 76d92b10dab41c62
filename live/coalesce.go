package live

import (
	"context"
	"sync"
	"time"
)

// coalescer reads many keys from the store in one go. A key asked for while a read is under
// way waits for the next one, which takes everything asked for meanwhile (up to max keys of
// one group): when a crowded table opens, thousands of players' first wagers come within
// seconds, and one read each would take the database's connections from the commits the
// wagers wait on (README, Speed). One goroutine reads at a time; none runs while nothing is
// asked.
type coalescer[K comparable, V any] struct {
	// read reads keys of one group, its values in the keys' order.
	read func(ctx context.Context, keys []K) ([]V, error)
	// group: keys read together must share it (a currency); nil puts every key in one.
	group func(K) string
	max   int           // the most keys one read asks for
	limit time.Duration // how long one read may take

	mu      sync.Mutex
	loads   map[K]*coalesced[V] // asked for, not yet read
	queued  []K                 // of loads, not yet being read, in the order asked
	reading bool                // a goroutine is reading queued
}

// coalesced is one key asked for: done closes once v or err is set.
type coalesced[V any] struct {
	done chan struct{}
	v    V
	err  error
}

// get returns the key's value, read together with the others asked for at about the same
// time; a caller whose ctx ends stops waiting (the read goes on for the others).
func (c *coalescer[K, V]) get(ctx context.Context, k K) (V, error) {
	c.mu.Lock()
	if c.loads == nil {
		c.loads = map[K]*coalesced[V]{}
	}
	l := c.loads[k]
	if l == nil {
		l = &coalesced[V]{done: make(chan struct{})}
		c.loads[k] = l
		c.queued = append(c.queued, k)
		if !c.reading {
			c.reading = true
			go c.run()
		}
	}
	c.mu.Unlock()
	select {
	case <-l.done:
		return l.v, l.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// run reads the queued keys, a group and max keys at a time, until none is queued.
func (c *coalescer[K, V]) run() {
	for {
		c.mu.Lock()
		if len(c.queued) == 0 {
			c.reading = false
			c.mu.Unlock()
			return
		}
		g := c.groupOf(c.queued[0])
		var batch []K
		rest := c.queued[:0]
		for _, k := range c.queued {
			if len(batch) < c.max && c.groupOf(k) == g {
				batch = append(batch, k)
			} else {
				rest = append(rest, k)
			}
		}
		clear(c.queued[len(rest):])
		c.queued = rest
		c.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), c.limit)
		vs, err := c.read(ctx, batch)
		cancel()
		c.mu.Lock()
		for i, k := range batch {
			l := c.loads[k]
			delete(c.loads, k)
			if err != nil {
				l.err = err
			} else {
				l.v = vs[i]
			}
			close(l.done)
		}
		c.mu.Unlock()
	}
}

func (c *coalescer[K, V]) groupOf(k K) string {
	if c.group == nil {
		return ""
	}
	return c.group(k)
}
