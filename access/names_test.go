package access

import (
	"context"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

func TestCheckNameRefusesWhatOthersMustNotSee(t *testing.T) {
	for name, s := range map[string]string{
		"empty":                                "",
		"only spaces":                          "   ",
		"over 24 characters":                   strings.Repeat("a", 25),
		"a control character":                  "Lin\x07",
		"a newline":                            "Lin\nAnn",
		"a zero-width space (invisible)":       "Li\u200bn",
		"a right-to-left override":             "\u202enil",
		"a no-break space (invisible spacing)": "Lin\u00a0Ann",
		"a symbol outside _ - .":               "Lin!",
		"an emoji":                             "Lin 🎲",
		"a mark with no letter":                "\u0301abc",
		"the dealer":                           "Dealer",
		"the dealer in any case":               "dEaLeR",
		"the dealer with a number":             "Dealer 2",
		"the pit":                              "pit",
		"the house":                            "HOUSE",
		"the house dotted":                     "house.bank",
		"an admin":                             "Admin_1",
		"the system":                           "system",
		"a bot's prefix":                       "bot.house-1",
		"a bot's prefix in capitals":           "BOT.ann",
		"not valid text":                       "Lin\xff",
	} {
		t.Run(name, func(t *testing.T) {
			got, err := CheckName(s)
			if err == nil {
				t.Fatalf("%q accepted as %q", s, got)
			}
			if code := baccarat.ErrorCode(err); code != "invalid_name" {
				t.Errorf("code %s, want invalid_name: %v", code, err)
			}
		})
	}
}

func TestCheckNameTakesLettersOfEveryScript(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"latin, trimmed":                       {"  Lin Ann  ", "Lin Ann"},
		"simplified chinese":                   {"林小明", "林小明"},
		"korean":                               {"김민준", "김민준"},
		"thai with its vowel marks":            {"สมชาย", "สมชาย"},
		"vietnamese accents":                   {"Nguyễn Văn An", "Nguyễn Văn An"},
		"digits, _ - and .":                    {"ann_b-2.0", "ann_b-2.0"},
		"24 characters":                        {strings.Repeat("林", 24), strings.Repeat("林", 24)},
		"a word that only begins like the pit": {"Pitt", "Pitt"},
		"housemate is not the house":           {"Housemate", "Housemate"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := CheckName(c.in)
			if err != nil || got != c.want {
				t.Errorf("CheckName(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
		})
	}
}

type namesMap map[string]Account

func (m namesMap) Account(_ context.Context, id string) (Account, error) {
	a, ok := m[id]
	if !ok {
		return Account{}, baccarat.Errorf(baccarat.CodeNotFound, "no account %s", id)
	}
	return a, nil
}

func TestPeopleNeverShowTheAccountID(t *testing.T) {
	names := namesMap{
		"op-123": {ID: "op-123", Role: RolePlayer, Name: "Lin"},
		"op-456": {ID: "op-456", Role: RolePlayer},
		"op-789": {ID: "op-789", Role: RolePlayer, Name: "Dealer Ann"}, // an operator's name that passes for staff
	}
	p := NewPeople([]byte("secret"), names)
	other := NewPeople([]byte("another secret"), names)
	for id := range names {
		h := p.Handle(id)
		if strings.Contains(h, id) || len(h) != 13 || h != p.Handle(id) || h == other.Handle(id) {
			t.Errorf("handle of %s: %q (another secret's %q)", id, h, other.Handle(id))
		}
	}
	ctx := context.Background()
	if got := p.Person(ctx, "op-123"); got != (Person{Name: "Lin"}) {
		t.Errorf("named: %+v", got)
	}
	for _, id := range []string{"op-456", "op-789", "nobody"} {
		got := p.Person(ctx, id)
		if got.Name != "" || got.Number < 1000 || got.Number > 9999 || got.Number != p.Number(id) {
			t.Errorf("%s: %+v, want the number %d only", id, got, p.Number(id))
		}
	}
	if got := p.Person(ctx, "bot.house-1"); got != (Person{Name: "house-1", Bot: true}) || p.Handle("bot.house-1") != "bot.house-1" {
		t.Errorf("a bot: %+v as %s", got, p.Handle("bot.house-1"))
	}
}
