package access

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

var tokenSecret = []byte("0123456789abcdef0123456789abcdef")

// TestTokensExpire: a player's token works for 12 hours and a staff token for 24, to the
// second; past half its life a token is stale (time to hand out a new one).
func TestTokensExpire(t *testing.T) {
	tok := NewTokens(tokenSecret)
	at := time.Date(2026, 11, 18, 11, 6, 40, 0, time.UTC)
	for _, c := range []struct {
		role Role
		life time.Duration
	}{{RolePlayer, 12 * time.Hour}, {RoleDealer, 24 * time.Hour}, {RolePit, 24 * time.Hour}, {RoleAdmin, 24 * time.Hour}} {
		claim, ok := tok.Check(tok.IssueAt(Account{ID: "x", Role: c.role}, at.Add(999*time.Millisecond)))
		if !ok || !claim.Issued.Equal(at) || !claim.Expires().Equal(at.Add(c.life)) || Lifetime(c.role) != c.life {
			t.Fatalf("%s: %+v %v, want issued %s (to the second) for %s", c.role, claim, ok, at, c.life)
		}
		for _, s := range []struct {
			at             time.Duration
			stale, expired bool
		}{
			{0, false, false},
			{c.life/2 - time.Second, false, false},
			{c.life / 2, true, false},
			{c.life - time.Nanosecond, true, false},
			{c.life, true, true},
			{-time.Hour, false, false}, // issued by a server whose clock is ahead: not expired
		} {
			now := at.Add(s.at)
			if claim.Stale(now) != s.stale || claim.Expired(now) != s.expired {
				t.Errorf("%s token %s after issue: stale %v expired %v, want %v %v", c.role, s.at, claim.Stale(now), claim.Expired(now), s.stale, s.expired)
			}
		}
	}
}

// TestTokensOfTheEarlierFormExpireAfterTheUpgrade: a v2 token (no issue time) still works,
// counted as issued when the server started (Legacy): it is stale at once, so the first
// request replaces it, and it expires one lifetime after the start.
func TestTokensOfTheEarlierFormExpireAfterTheUpgrade(t *testing.T) {
	tok := NewTokens(tokenSecret)
	start := time.Date(2026, 11, 18, 0, 0, 0, 0, time.UTC)
	tok.Legacy = start
	v2 := "v2.player.ann.3." + tok.macV2(RolePlayer, "ann", 3)
	c, ok := tok.Check(v2)
	if !ok || !c.V2 || c.ID != "ann" || c.Epoch != 3 || !c.Issued.Equal(start) {
		t.Fatalf("a v2 token: %+v %v", c, ok)
	}
	if !c.Stale(start) || c.Expired(start.Add(PlayerTokenLife-time.Second)) || !c.Expired(start.Add(PlayerTokenLife)) {
		t.Errorf("a v2 token: stale %v, expired before its time %v, after %v", c.Stale(start),
			c.Expired(start.Add(PlayerTokenLife-time.Second)), c.Expired(start.Add(PlayerTokenLife)))
	}
	if _, ok := NewTokens([]byte("another secret, just as long!!!!")).Check(v2); ok {
		t.Error("a v2 token of another secret was read")
	}
}

// FuzzTokensCheck: whatever a caller sends as a token is read without a panic, and only a
// token this secret issued is taken; an issued token reads back as what was issued.
func FuzzTokensCheck(f *testing.F) {
	tok := NewTokens(tokenSecret)
	good := tok.IssueAt(Account{ID: "ann", Role: RolePlayer, Epoch: 2}, time.Unix(1795000000, 0))
	f.Add(good)
	f.Add("v2.player.ann.3." + tok.macV2(RolePlayer, "ann", 3))
	f.Add("v3.player.ann.2.99999999999999999999.xx")
	f.Add("v3.....")
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := tok.Check(s)
		if !ok {
			return
		}
		var again string
		if c.V2 {
			again = "v2." + string(c.Role) + "." + c.ID + "." + strconv.FormatUint(uint64(c.Epoch), 10) + "." + tok.macV2(c.Role, c.ID, c.Epoch)
		} else {
			again = tok.IssueAt(Account{ID: c.ID, Role: c.Role, Epoch: c.Epoch}, c.Issued)
		}
		if again != s {
			t.Fatalf("took %q, which is not the token of its claim %+v (%q)", s, c, again)
		}
		if strings.Count(s, ".") > 5 {
			t.Fatalf("took %q with more parts than a token has", s)
		}
	})
}
