package ledger_test

import (
	"fmt"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// A wager moves the stake from the player's wallet to the table's in-play account; chips
// and money never meet in one transaction.
func ExampleTransaction_Validate() {
	at := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	wager := ledger.Transaction{Key: "t1/r7/req-42", At: at, Postings: []ledger.Posting{
		{Account: ledger.Wallet("alice", "EUR"), Amount: -500},
		{Account: ledger.InPlay("t1", "EUR"), Amount: 500},
	}}
	cur, err := wager.Validate()
	fmt.Println(cur, err)

	cashOut := ledger.Transaction{Key: "x", At: at, Postings: []ledger.Posting{
		{Account: ledger.Wallet("alice", ledger.Chips("t42")), Amount: -100},
		{Account: ledger.Wallet("alice", "EUR"), Amount: 100},
	}}
	_, err = cashOut.Validate()
	fmt.Println(baccarat.ErrorCode(err))
	// Output:
	// EUR <nil>
	// bad_request
}

// Stores read a Snapshot under lock and write what Apply returns; Apply alone decides.
func ExampleSnapshot_Apply() {
	at := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	w, p := ledger.Wallet("alice", "EUR"), ledger.InPlay("t1", "EUR")
	snap := ledger.Snapshot{
		Accounts: map[string]ledger.AccountState{w: {Balance: 300, Entries: 1}, p: {}},
		Posted:   map[string]ledger.Digest{},
	}
	bet := func(key string, n baccarat.Money) ledger.Transaction {
		return ledger.Transaction{Key: key, At: at, Postings: []ledger.Posting{{Account: w, Amount: -n}, {Account: p, Amount: n}}}
	}
	ch, err := snap.Apply([]ledger.Transaction{bet("a", 100), bet("a", 100), bet("b", 200)})
	fmt.Println(len(ch.Applied), ch.Skipped, ch.Accounts, err)
	_, err = snap.Apply([]ledger.Transaction{bet("a", 100), bet("b", 201)})
	fmt.Println(baccarat.ErrorCode(err))
	// Output:
	// 2 [a] [{inplay/t1/EUR {300 2}} {wallet/alice/EUR {0 3}}] <nil>
	// insufficient_funds
}
