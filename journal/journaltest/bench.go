package journaltest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/ledger/ledgertest"
)

// BatchSizes are the group-commit sizes BenchCommitWagers measures: one wager per commit
// (no grouping), and the batches a busy table's host would form.
var BatchSizes = []int{1, 64, 512}

// BenchPlayers is how many wallets the benchmark's wagers rotate over, so a batch updates
// many accounts as a busy table does, not one hot row.
const BenchPlayers = 1000

// BenchCommitWagers measures durable committed wagers per second: a wager is one journal
// record plus one two-posting transaction (wallet → in-play), and b.N counts wagers. open
// is called once per batch size and must return an empty store. Batches are built before
// the timer starts: sealing and encoding are the host's work, this measures the store.
func BenchCommitWagers(b *testing.B, open func(b *testing.B) CommitStore) {
	for _, size := range BatchSizes {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			s := open(b)
			wallets := fund(b, s)
			batches := benchBatches(b.N, size, wallets)
			b.ResetTimer()
			for _, batch := range batches {
				if err := s.Commit(b.Context(), batch); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			elapsed := b.Elapsed()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "wagers/s")
			b.ReportMetric(float64(elapsed.Microseconds())/float64(len(batches)), "µs/commit")
		})
	}
}

// fund opens BenchPlayers wallets and funds them in one commit.
func fund(b *testing.B, s CommitStore) []string {
	wallets := make([]string, BenchPlayers)
	var deposits journal.Batch
	ledgertest.Open(b, s, ledger.InPlay("t1", "EUR"), ledger.House("EUR"))
	for i := range wallets {
		wallets[i] = ledger.Wallet(fmt.Sprintf("p%d", i), "EUR")
		ledgertest.Open(b, s, wallets[i])
		deposits.Transactions = append(deposits.Transactions,
			ledgertest.Move("deposit/"+wallets[i], ledger.House("EUR"), wallets[i], 1<<40))
	}
	if err := s.Commit(b.Context(), deposits); err != nil {
		b.Fatal(err)
	}
	return wallets
}

func benchBatches(n, size int, wallets []string) []journal.Batch {
	var out []journal.Batch
	var head journal.Head
	inplay := ledger.InPlay("t1", "EUR")
	for i := 0; i < n; {
		k := min(size, n-i)
		batch := journal.Batch{Records: make([]journal.Record, 0, k), Transactions: make([]ledger.Transaction, 0, k)}
		for range k {
			w := wallets[i%len(wallets)]
			key := fmt.Sprintf("bench/%d", i)
			data, _ := json.Marshal(map[string]any{"key": key, "account": w, "bet": "banker", "stake": 100})
			r := journal.Seal(head, journal.Record{Table: "t1", Type: "wager_placed", At: At, Data: data})
			head = r.Head()
			batch.Records = append(batch.Records, r)
			batch.Transactions = append(batch.Transactions, ledgertest.Move(key, w, inplay, 100))
			i++
		}
		out = append(out, batch)
	}
	return out
}
