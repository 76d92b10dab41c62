package wire_test

import (
	"encoding/json"
	"fmt"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/wire"
)

// A round settles: everyone gets the result, each player their own settlements and their
// balance. A page tells the messages apart by their type.
func Example() {
	var e table.Event
	_ = json.Unmarshal([]byte(`{"seq":61,"type":"round_settled","round":12,"result":{"coup":"P 7h 2c | B Kd 9s","winner":"tie",`+
		`"player_total":9,"banker_total":9,"natural":true,"cards":4},"settlements":[{"wager":5,"player":"demo","bet":"tie",`+
		`"stake":100,"outcome":"win","pays":"8:1","net":800,"returned":900}]}`), &e)
	public := e
	public.Settlements = nil
	fmt.Printf("%s\n", wire.Event(&public, nil))
	fmt.Printf("%s\n", wire.NewSettled(&public).For(e.Settlements))
	fmt.Printf("%s\n", wire.Balance(e.Seq, 99990800))
	fmt.Printf("%s\n", wire.Totals(62, 13, map[string]baccarat.Money{"player": 500, "banker": 1000}))
	// Output:
	// {"type":"event","seq":61,"event":{"seq":61,"type":"round_settled","round":12,"result":{"coup":"P 7h 2c | B Kd 9s","winner":"tie","player_total":9,"banker_total":9,"natural":true,"cards":4}}}
	// {"type":"mine","seq":61,"event":{"seq":61,"type":"round_settled","round":12,"result":{"coup":"P 7h 2c | B Kd 9s","winner":"tie","player_total":9,"banker_total":9,"natural":true,"cards":4},"settlements":[{"wager":5,"player":"demo","bet":"tie","stake":100,"outcome":"win","pays":"8:1","net":800,"returned":900}]}}
	// {"type":"balance","seq":61,"balance":99990800}
	// {"type":"totals","seq":62,"round":13,"totals":{"banker":1000,"player":500}}
}
