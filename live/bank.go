package live

import (
	"context"
	"sync"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// bank caches wallet balances for every table of this host and holds the stakes of wagers
// taken but not yet committed, so two tables cannot both spend the same money while their
// batches are on their way to disk. The database has the last word (no overdraft is a
// constraint there too); on any commit failure the cache of the wallets involved is dropped.
type bank struct {
	store ledger.Store
	mu    sync.Mutex
	bal   map[string]baccarat.Money // wallet id → committed balance
	held  map[string]baccarat.Money // wallet id → stakes taken, not yet committed
}

func newBank(store ledger.Store) *bank {
	return &bank{store: store, bal: map[string]baccarat.Money{}, held: map[string]baccarat.Money{}}
}

// load returns the committed balance of a wallet.
func (b *bank) load(ctx context.Context, wallet string) (baccarat.Money, error) {
	b.mu.Lock()
	v, ok := b.bal[wallet]
	b.mu.Unlock()
	if ok {
		return v, nil
	}
	// A wallet that was never opened holds nothing; no write happens on the wager path.
	v, err := b.store.Balance(ctx, wallet)
	if isCode(err, baccarat.CodeNotFound) {
		v, err = 0, nil
	}
	if err != nil {
		return 0, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if cur, ok := b.bal[wallet]; ok {
		return cur, nil
	}
	b.bal[wallet] = v
	return v, nil
}

// hold takes stake out of the wallet's available money if it is there. It returns the money
// available before the hold, and whether the hold was taken.
func (b *bank) hold(ctx context.Context, wallet string, stake baccarat.Money) (baccarat.Money, bool, error) {
	if _, err := b.load(ctx, wallet); err != nil {
		return 0, false, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	avail := b.bal[wallet] - b.held[wallet]
	if stake <= 0 || stake > avail {
		return avail, false, nil
	}
	b.held[wallet] += stake
	return avail, true, nil
}

// release gives back a hold that will not be committed.
func (b *bank) release(wallet string, stake baccarat.Money) {
	b.mu.Lock()
	b.held[wallet] -= stake
	b.mu.Unlock()
}

// committed applies committed transactions to the cache and turns holds into debits. It
// returns the new balances of the wallets that changed.
//
// balances, when the store told them from inside the commit, are the exact balances after it:
// they replace the cache rather than add the postings to it, which another host may have
// made stale.
func (b *bank) committed(txs []ledger.Transaction, holds []Held, balances map[string]baccarat.Money) map[string]baccarat.Money {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, h := range holds {
		b.held[h.Wallet] -= h.Stake
	}
	changed := map[string]baccarat.Money{}
	if balances != nil {
		for id, v := range balances {
			if a, err := ledger.ParseAccount(id); err == nil && a.Kind == ledger.KindWallet {
				b.bal[id] = v
				changed[id] = v
			}
		}
		return changed
	}
	for _, tx := range txs {
		for _, p := range tx.Postings {
			if v, ok := b.bal[p.Account]; ok { // uncached wallets are read fresh on next use
				b.bal[p.Account] = v + p.Amount
				changed[p.Account] = v + p.Amount
			}
		}
	}
	return changed
}

// forget drops the cached balances of wallets, after a failed commit.
func (b *bank) forget(wallets ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, w := range wallets {
		delete(b.bal, w)
	}
}

// fresh is the money a wallet can stake now, its balance read from the database (which
// every host of a cluster writes) rather than the cache.
func (b *bank) fresh(ctx context.Context, wallet string) (baccarat.Money, error) {
	b.forget(wallet)
	return b.available(ctx, wallet)
}

// available is the money a wallet can stake now.
func (b *bank) available(ctx context.Context, wallet string) (baccarat.Money, error) {
	if _, err := b.load(ctx, wallet); err != nil {
		return 0, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bal[wallet] - b.held[wallet], nil
}
