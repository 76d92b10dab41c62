package web

import "testing"

// TestLongPollsAreCappedPerAddress: a tournament page's long polls hold a connection each,
// so one address may keep only so many waiting (as WebSocket streams are capped).
func TestLongPollsAreCappedPerAddress(t *testing.T) {
	g := &pollGate{byAddr: map[string]int{}}
	for i := 0; i < pollsPerAddress; i++ {
		if !g.enter("10.0.0.1") {
			t.Fatalf("poll %d refused", i+1)
		}
	}
	if g.enter("10.0.0.1") {
		t.Fatal("one poll beyond the cap was let in")
	}
	if !g.enter("10.0.0.2") {
		t.Fatal("another address is refused for the first one's polls")
	}
	g.leave("10.0.0.1")
	if !g.enter("10.0.0.1") {
		t.Fatal("a poll that ended does not make room")
	}
}
