package main

import (
	"encoding/json"
	"testing"
)

// TestLoadtestSmall runs the load tool end to end at a small size: a server, real
// WebSocket players, a wager from each every round, every wager acknowledged and every
// result delivered.
func TestLoadtestSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and plays rounds")
	}
	out, errOut, code := runCmd(t, "loadtest", "--players", "20", "--rounds", "1", "--betting", "1s", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Players != 20 || rep.Wagers < 20 || rep.Errors != 0 || rep.Refused != 0 {
		t.Errorf("report %+v: want 20 players, a wager acknowledged from each every round, no errors", rep)
	}
	if rep.ResultsMissed != 0 || rep.ResultMaxms <= 0 {
		t.Errorf("report %+v: every result should reach every player, and be timed", rep)
	}
}
