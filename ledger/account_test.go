package ledger

import (
	"testing"

	"github.com/tablehouse/baccarat"
)

func TestParseAccount(t *testing.T) {
	good := []struct {
		name, id string
		want     Account
	}{
		{"a player's wallet is wallet/player/currency", "wallet/alice/EUR", Account{"wallet/alice/EUR", KindWallet, "alice", "EUR"}},
		{"tournament chips are a currency of their own", "wallet/alice/CHIPS:t42", Account{"wallet/alice/CHIPS:t42", KindWallet, "alice", "CHIPS:t42"}},
		{"the house has one account per currency", "house/USD", Account{"house/USD", KindHouse, "", "USD"}},
		{"stakes in play are held per table and currency", "inplay/t-1/EUR", Account{"inplay/t-1/EUR", KindInPlay, "t-1", "EUR"}},
		{"ids may use . _ - @", "wallet/a.b_c-d@e/GBP", Account{"wallet/a.b_c-d@e/GBP", KindWallet, "a.b_c-d@e", "GBP"}},
		{"a house bot owns a wallet", "wallet/bot.house-1/CHIPS:t42", Account{"wallet/bot.house-1/CHIPS:t42", KindWallet, "bot.house-1", "CHIPS:t42"}},
	}
	for _, c := range good {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseAccount(c.id)
			if err != nil || got != c.want {
				t.Fatalf("ParseAccount(%q) = %+v, %v; want %+v", c.id, got, err, c.want)
			}
		})
	}
	bad := []struct{ name, id string }{
		{"empty", ""},
		{"unknown kind", "bank/alice/EUR"},
		{"wallet needs an owner", "wallet//EUR"},
		{"wallet needs a currency", "wallet/alice"},
		{"house has no owner", "house/alice/EUR"},
		{"currency is three capitals", "wallet/alice/eur"},
		{"currency is not four letters", "wallet/alice/EURO"},
		{"currency is an ISO 4217 code, not any three capitals", "wallet/alice/ABC"},
		{"chips need a tournament", "wallet/alice/CHIPS:"},
		{"chips tournament is an id", "wallet/alice/CHIPS:t 1"},
		{"no spaces in ids", "wallet/al ice/EUR"},
		{"no trailing slash", "house/EUR/"},
		{"ids are at most 64 bytes", "wallet/" + string(make([]byte, 65)) + "/EUR"},
	}
	for _, c := range bad {
		t.Run("refused: "+c.name, func(t *testing.T) {
			if _, err := ParseAccount(c.id); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
				t.Fatalf("ParseAccount(%q) error %v, want bad_request", c.id, err)
			}
		})
	}
}

func TestAccountBuilders(t *testing.T) {
	for _, id := range []string{Wallet("bob", "EUR"), Wallet("bob", Chips("t42")), House(Chips("t42")), InPlay("t1", "USD")} {
		a, err := ParseAccount(id)
		if err != nil || a.ID != id {
			t.Errorf("%q does not parse back: %v", id, err)
		}
	}
	if !Chips("t1").IsChips() || Currency("EUR").IsChips() {
		t.Error("IsChips wrong")
	}
	if a, _ := ParseAccount("house/EUR"); !a.MayGoNegative() {
		t.Error("the house may go negative")
	}
	if a, _ := ParseAccount("inplay/t/EUR"); a.MayGoNegative() {
		t.Error("in-play accounts may not go negative")
	}
}
