package baccarat

import (
	"encoding/json"
	"testing"
)

// TestRefusalParamsCrossServersExact: an error's params survive the JSON a cluster answer
// carries them in, an amount past 2^53 exact (not a float64 written back as 1e+16), and an
// error without params carries no "params" at all.
func TestRefusalParamsCrossServersExact(t *testing.T) {
	big := Money(1<<53 + 1)
	in := Refuse(CodeAboveMaximum, Params{"bet": "banker", "max": big}.Money("VND"), "the maximum on Banker is %d", big)
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Error
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(&out)
	if string(again) != string(b) {
		t.Fatalf("sent %s, read back and sent on %s", b, again)
	}
	if out.Params["max"] != int64(big) || out.Params["minor_units"] != int64(0) || out.Params["currency"] != "VND" {
		t.Errorf("params read back %#v", out.Params)
	}
	plain, _ := json.Marshal(Errorf(CodeBettingClosed, "no more bets"))
	if string(plain) != `{"code":"betting_closed","message":"no more bets"}` {
		t.Errorf("an error without params is %s", plain)
	}
}
