package wire

import (
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
)

// Snapshot is the table as one caller sees it: the stream's first message (type "snapshot")
// and, without its type, the body of GET /api/tables/{id}. T is how the table itself is
// described (the web layer's lobby entry), which wire leaves to its owner: it knows the
// HTTP layer's settings (video, tournament session, edges) that a message type need not.
type Snapshot[T any] struct {
	Type       Type              `json:"type,omitempty"` // TypeSnapshot on the stream, absent over HTTP
	Table      T                 `json:"table"`
	State      table.State       `json:"state"`
	Roads      roads.View        `json:"roads"`
	Game       games.Description `json:"game"`
	ServerTime time.Time         `json:"server_time"`
	// Names: how the players the state shows (the squeezer) are shown, by handle.
	Names Names `json:"names,omitempty"`
}

// Message is the snapshot as the stream's first message: with its type.
func (s Snapshot[T]) Message() []byte {
	s.Type = TypeSnapshot
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // plain data: cannot happen
	}
	return b
}
