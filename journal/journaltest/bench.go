package journaltest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/ledger/ledgertest"
	"github.com/tablehouse/baccarat/responsible"
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

// SettlementWagers is how many wagers BenchCommitSettlement settles in one commit: a
// round of the load test's 5,000 players, one wager each.
const SettlementWagers = 5000

// BenchCommitSettlement measures the commit that settles a full round: SettlementWagers
// wagers, placed beforehand in batches of 512 (not timed), leave play in one batch that
// carries one record, the payouts (a transaction per 63 wagers and the in-play account, at most 64 postings)
// and, with plays, each wager's responsible-gaming play, which the store books in the same
// transaction. b.N counts settlement commits; plays=false is the same commit without the
// bookkeeping, so the difference is what responsible gaming costs a round.
func BenchCommitSettlement(b *testing.B, open func(b *testing.B) CommitStore) {
	for _, plays := range []bool{false, true} {
		b.Run(fmt.Sprintf("plays=%t", plays), func(b *testing.B) {
			s := open(b)
			inplay := ledger.InPlay("t1", "EUR")
			ledgertest.Open(b, s, inplay, ledger.House("EUR"))
			players := make([]string, SettlementWagers)
			var deposits journal.Batch
			for i := range players {
				players[i] = fmt.Sprintf("p%d", i)
				w := ledger.Wallet(players[i], "EUR")
				ledgertest.Open(b, s, w)
				deposits.Transactions = append(deposits.Transactions, ledgertest.Move("deposit/"+w, ledger.House("EUR"), w, 1<<40))
			}
			if err := s.Commit(b.Context(), deposits); err != nil {
				b.Fatal(err)
			}
			var head journal.Head
			record := func(typ string, data any) journal.Record {
				raw, _ := json.Marshal(data)
				r := journal.Seal(head, journal.Record{Table: "t1", Type: typ, At: At, Data: raw})
				head = r.Head()
				return r
			}
			wager := uint64(0)
			var took time.Duration
			for round := uint64(1); round <= uint64(b.N); round++ {
				first := wager + 1
				for i := 0; i < len(players); i += 512 {
					var batch journal.Batch
					for _, p := range players[i:min(i+512, len(players))] {
						wager++
						key := fmt.Sprintf("bet/%d", wager)
						batch.Records = append(batch.Records, record("wager_placed", map[string]any{"key": key, "wager": wager}))
						batch.Transactions = append(batch.Transactions, ledgertest.Move(key, ledger.Wallet(p, "EUR"), inplay, 100))
						if plays {
							batch.Plays = append(batch.Plays, responsible.Play{Player: p, Currency: "EUR", Table: "t1", Round: round, Wager: wager, Stake: 100, At: At})
						}
					}
					if err := s.Commit(b.Context(), batch); err != nil {
						b.Fatal(err)
					}
				}
				settle := journal.Batch{Records: []journal.Record{record("round_settled", map[string]any{"round": round})}}
				for i := 0; i < len(players); i += 63 {
					tx := ledger.Transaction{Key: fmt.Sprintf("settle/%d/%d", round, i), At: At}
					group := players[i:min(i+63, len(players))]
					tx.Postings = append(tx.Postings, ledger.Posting{Account: inplay, Amount: -100 * baccarat.Money(len(group))})
					for _, p := range group {
						tx.Postings = append(tx.Postings, ledger.Posting{Account: ledger.Wallet(p, "EUR"), Amount: 100})
					}
					settle.Transactions = append(settle.Transactions, tx)
				}
				if plays {
					for i, p := range players {
						settle.Plays = append(settle.Plays, responsible.Play{Player: p, Currency: "EUR", Table: "t1", Round: round,
							Wager: first + uint64(i), Settles: true, Stake: 100, Returned: 100, At: At})
					}
				}
				start := time.Now()
				if err := s.Commit(b.Context(), settle); err != nil {
					b.Fatal(err)
				}
				took += time.Since(start)
			}
			b.ReportMetric(float64(took.Microseconds())/1000/float64(b.N), "ms/settlement")
			b.ReportMetric(0, "ns/op")
		})
	}
}
