package access

import "testing"

func TestTokensNameAnAccountAndItsEpoch(t *testing.T) {
	tok := NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	a := Account{ID: "ann", Role: RolePlayer, Epoch: 3}
	s := tok.Issue(a)
	c, ok := tok.Check(s)
	if !ok || c != (Claim{ID: "ann", Role: RolePlayer, Epoch: 3}) || !a.Admits(c) {
		t.Fatalf("Check(%s) = %+v, %v", s, c, ok)
	}
	for name, bad := range map[string]string{
		"another secret":  NewTokens([]byte("another secret, just as long!!!!")).Issue(a),
		"a changed role":  "v2.admin.ann.3." + s[len("v2.player.ann.3."):],
		"a changed epoch": "v2.player.ann.4." + s[len("v2.player.ann.3."):],
		"a v1 token":      "v1.player.ann.xyz",
		"empty":           "",
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
