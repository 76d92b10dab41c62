package ledger

import (
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

var at = time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)

func tx(key string, ps ...Posting) Transaction {
	return Transaction{Key: key, Postings: ps, At: at}
}

func TestValidate(t *testing.T) {
	w, h := Wallet("alice", "EUR"), House("EUR")
	cases := []struct {
		name string
		tx   Transaction
		code baccarat.Code
	}{
		{"a wager moves stake from wallet to in-play", tx("k", Posting{w, -500}, Posting{InPlay("t1", "EUR"), 500}), ""},
		{"three postings may balance", tx("k", Posting{w, -10}, Posting{h, 4}, Posting{InPlay("t1", "EUR"), 6}), ""},
		{"a key is required", tx("", Posting{w, -1}, Posting{h, 1}), baccarat.CodeBadRequest},
		{"a key has no control characters", tx("a\nb", Posting{w, -1}, Posting{h, 1}), baccarat.CodeBadRequest},
		{"a key is at most 200 bytes", tx(strings.Repeat("k", 201), Posting{w, -1}, Posting{h, 1}), baccarat.CodeBadRequest},
		{"at least two postings", tx("k", Posting{w, 0}), baccarat.CodeBadRequest},
		{"no postings at all", tx("k"), baccarat.CodeBadRequest},
		{"no zero amounts", tx("k", Posting{w, 0}, Posting{h, 0}), baccarat.CodeBadRequest},
		{"postings sum to zero", tx("k", Posting{w, -5}, Posting{h, 4}), baccarat.CodeBadRequest},
		{"one currency per transaction", tx("k", Posting{w, -5}, Posting{House("USD"), 5}), baccarat.CodeBadRequest},
		{"chips never mix with money", tx("k", Posting{Wallet("alice", Chips("t42")), -5}, Posting{h, 5}), baccarat.CodeBadRequest},
		{"chips of two tournaments never mix", tx("k", Posting{Wallet("alice", Chips("t1")), -5}, Posting{House(Chips("t2")), 5}), baccarat.CodeBadRequest},
		{"accounts are well-formed", tx("k", Posting{"alice", -5}, Posting{h, 5}), baccarat.CodeBadRequest},
		{"an account appears once", tx("k", Posting{w, -5}, Posting{w, 5}), baccarat.CodeBadRequest},
		{"amounts are within ±10^15", tx("k", Posting{w, -MaxAmount - 1}, Posting{h, MaxAmount + 1}), baccarat.CodeBadRequest},
		{"a time is required", Transaction{Key: "k", Postings: []Posting{{w, -1}, {h, 1}}}, baccarat.CodeBadRequest},
		{"the table is an id", Transaction{Key: "k", Table: "t/1", Postings: []Posting{{w, -1}, {h, 1}}, At: at}, baccarat.CodeBadRequest},
		{"a memo has no NUL (PostgreSQL text cannot hold it)", Transaction{Key: "k", Memo: "a\x00b", Postings: []Posting{{w, -1}, {h, 1}}, At: at}, baccarat.CodeBadRequest},
		{"the round is not negative", Transaction{Key: "k", Round: -1, Postings: []Posting{{w, -1}, {h, 1}}, At: at}, baccarat.CodeBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.tx.Validate()
			if got := baccarat.ErrorCode(err); got != c.code {
				t.Fatalf("Validate() = %v (code %q), want code %q", err, got, c.code)
			}
		})
	}
}

func TestDigestIgnoresOrderMemoAndTime(t *testing.T) {
	a := tx("k", Posting{"wallet/a/EUR", -5}, Posting{"house/EUR", 5})
	b := Transaction{Key: "k", Memo: "retry", At: at.Add(time.Hour), Postings: []Posting{{"house/EUR", 5}, {"wallet/a/EUR", -5}}}
	if a.Digest() != b.Digest() {
		t.Error("a retry with reordered postings, a new memo and a new time must be the same transaction")
	}
	c := tx("k", Posting{"wallet/a/EUR", -6}, Posting{"house/EUR", 6})
	if a.Digest() == c.Digest() {
		t.Error("different amounts must differ")
	}
}
