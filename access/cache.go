package access

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Cache keeps the accounts a server has read, so that identifying a request (every request
// and, every few seconds, every open stream) does not read the database each time. It is
// right only while every change to an account reaches it: a server alone on its database
// changes accounts through it; the servers of a cluster announce each change to the others,
// which Forget it, before the change is answered. Servers that share a database without a
// cluster must not use one. Whatever happens, an entry is read again after TTL: a lost
// announcement is not believed for long.
type Cache struct {
	Store
	ttl      time.Duration
	announce func(id string)

	mu  sync.Mutex
	m   map[string]cachedAccount
	gen uint64 // moves on every Forget: a read begun before one is not kept
}

type cachedAccount struct {
	a  Account
	at time.Time
}

// maxCached bounds the cache; past it, it starts again empty.
const maxCached = 1 << 17

// NewCache caches s's accounts for at most ttl. announce, if not nil, tells the other
// servers an account changed (and returns once the news is on its way).
func NewCache(s Store, ttl time.Duration, announce func(id string)) *Cache {
	return &Cache{Store: s, ttl: ttl, announce: announce, m: map[string]cachedAccount{}}
}

// Account reads an account from the cache, or from the store.
func (c *Cache) Account(ctx context.Context, id string) (Account, error) {
	now := time.Now()
	c.mu.Lock()
	e, ok := c.m[id]
	gen := c.gen
	c.mu.Unlock()
	if ok && now.Sub(e.at) < c.ttl {
		return e.a.clone(), nil
	}
	a, err := c.Store.Account(ctx, id)
	if err != nil {
		return a, err
	}
	c.mu.Lock()
	if c.gen == gen {
		if len(c.m) >= maxCached {
			clear(c.m)
		}
		c.m[id] = cachedAccount{a: a.clone(), at: now}
	}
	c.mu.Unlock()
	return a, nil
}

// CreateAccount creates an account through the store.
func (c *Cache) CreateAccount(ctx context.Context, a Account) error {
	err := c.Store.CreateAccount(ctx, a)
	c.changed(a.ID)
	return err
}

// UpdateAccount changes an account through the store; this server and, through announce,
// every other forget what they knew of it before the change is answered.
func (c *Cache) UpdateAccount(ctx context.Context, id string, change func(*Account) error) (Account, error) {
	a, err := c.Store.UpdateAccount(ctx, id, change)
	c.changed(id)
	return a, err
}

func (c *Cache) changed(id string) {
	c.Forget(id)
	if c.announce != nil {
		c.announce(id)
	}
}

// Forget drops what the cache knows of an account: another server changed it.
func (c *Cache) Forget(id string) {
	c.mu.Lock()
	delete(c.m, id)
	c.gen++
	c.mu.Unlock()
}

// Clear drops everything: news may have been missed (the cluster's connection was lost).
func (c *Cache) Clear() {
	c.mu.Lock()
	clear(c.m)
	c.gen++
	c.mu.Unlock()
}

func (a Account) clone() Account {
	a.Tables = slices.Clone(a.Tables)
	return a
}
