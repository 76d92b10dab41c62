package access

import (
	"testing"
	"time"
)

func TestTokensNameAnAccountAndItsEpoch(t *testing.T) {
	tok := NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	a := Account{ID: "ann", Role: RolePlayer, Epoch: 3}
	at := time.Date(2026, 11, 18, 11, 6, 40, 0, time.UTC)
	s := tok.IssueAt(a, at)
	c, ok := tok.Check(s)
	if !ok || c != (Claim{ID: "ann", Role: RolePlayer, Epoch: 3, Issued: at}) || !a.Admits(c) || s[:len("v3.player.ann.3.1795000000.")] != "v3.player.ann.3.1795000000." {
		t.Fatalf("Check(%s) = %+v, %v", s, c, ok)
	}
	rest := s[len("v3.player.ann.3.1795000000."):]
	for name, bad := range map[string]string{
		"another secret":          NewTokens([]byte("another secret, just as long!!!!")).IssueAt(a, at),
		"a changed role":          "v3.admin.ann.3.1795000000." + rest,
		"a changed epoch":         "v3.player.ann.4.1795000000." + rest,
		"a later issue time":      "v3.player.ann.3.1795043200." + rest,
		"a negative issue time":   "v3.player.ann.3.-1." + rest,
		"a signed issue time":     "v3.player.ann.3.+1795000000." + rest,
		"a leading zero":          "v3.player.ann.03.1795000000." + rest,
		"a v3 token without time": "v3.player.ann.3." + rest,
		"a v2 token with a time":  "v2.player.ann.3.1795000000." + rest,
		"a v1 token":              "v1.player.ann.xyz",
		"empty":                   "",
	} {
		if _, ok := tok.Check(bad); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	revoked := a
	revoked.Epoch++
	if revoked.Admits(c) {
		t.Error("a revoked epoch still admits an old token")
	}
	disabled := a
	disabled.Disabled = true
	if disabled.Admits(c) {
		t.Error("a disabled account admits its token")
	}
}

func TestMayActOnOnlyAssignedTables(t *testing.T) {
	dealer := Account{ID: "d", Role: RoleDealer, Tables: []string{"tiger-live"}}
	for _, c := range []struct {
		a     Account
		table string
		want  bool
	}{
		{dealer, "tiger-live", true},
		{dealer, "mbs-tiger", false},
		{Account{Role: RolePit, Tables: []string{"a"}}, "a", true},
		{Account{Role: RolePit}, "a", false},
		{Account{Role: RoleAdmin}, "anything", true},
		{Account{Role: RolePlayer}, "a", false},
	} {
		if got := c.a.MayActOn(c.table); got != c.want {
			t.Errorf("%s %v on %s: %v", c.a.Role, c.a.Tables, c.table, got)
		}
	}
}

func TestValidateRefusesWhatAnAdminMightMistype(t *testing.T) {
	for name, a := range map[string]Account{
		"a dot in the id":   {ID: "ann.b", Role: RolePlayer},
		"an unknown role":   {ID: "ann", Role: "boss"},
		"a player's tables": {ID: "ann", Role: RolePlayer, Tables: []string{"t"}},
		"a bad table id":    {ID: "d", Role: RoleDealer, Tables: []string{"t 1"}},
		"a control in name": {ID: "d", Role: RoleDealer, Name: "x\x00"},
		"a bidi override":   {ID: "d", Role: RoleDealer, Name: "\u202egnp.exe"},
		"an over-long name": {ID: "d", Role: RoleDealer, Name: string(make([]byte, 65))},
	} {
		if a.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := (Account{ID: "d", Role: RoleDealer, Name: "Lin 林", Tables: []string{"t1"}}).Validate(); err != nil {
		t.Error(err)
	}
}
