package tournament

import (
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
)

// SessionRecord is one table's session: who played, with what, and how it ended.
type SessionRecord struct {
	Round   int           `json:"round"`
	Table   int           `json:"table"`
	Session int           `json:"session"`
	Seats   []SessionSeat `json:"seats"`
	// Hands counted toward the session's length; Voided hands reported void.
	Hands     int       `json:"hands"`
	Voided    int       `json:"voided"`
	StartedAt time.Time `json:"started_at,omitzero"`
	EndedAt   time.Time `json:"ended_at,omitzero"`
	Ended     bool      `json:"ended"`
	// Reason the session ended: "hands" (its number of hands), "time" (its time was up),
	// "no_players" (everyone at the table was eliminated), or the reason an organiser gave.
	Reason string `json:"reason,omitempty"`
}

// SessionSeat is one player's chips through a session.
type SessionSeat struct {
	Player string         `json:"player"`
	Start  baccarat.Money `json:"start"`  // chips when the session started
	Rebuys baccarat.Money `json:"rebuys"` // chips bought during the session
	Net    baccarat.Money `json:"net"`    // the sum of the hands' reported changes
	End    baccarat.Money `json:"end"`    // chips when the session ended (journalled then)
}

// Accounting is a session's chip account: the chips that came to the table (at its start
// and by rebuys) either are on it at the end or went to the house, which lost what the
// players won. Balanced: ChipsStart + RebuyChips = ChipsEnd + HouseNet.
type Accounting struct {
	ChipsStart baccarat.Money `json:"chips_start"`
	RebuyChips baccarat.Money `json:"rebuy_chips"`
	ChipsEnd   baccarat.Money `json:"chips_end"`
	HouseNet   baccarat.Money `json:"house_net"` // the house's result: −(players' net)
	Balanced   bool           `json:"balanced"`
}

// Accounting adds up a finished session. ChipsEnd comes from the chip counts journalled at
// the session's end, HouseNet from the hand reports: two records kept apart, so a change
// lost or applied twice shows as an unbalanced session.
func (s SessionRecord) Accounting() Accounting {
	var a Accounting
	for _, st := range s.Seats {
		a.ChipsStart += st.Start
		a.RebuyChips += st.Rebuys
		a.ChipsEnd += st.End
		a.HouseNet -= st.Net
	}
	a.Balanced = s.Ended && a.ChipsStart+a.RebuyChips == a.ChipsEnd+a.HouseNet
	return a
}

func (s SessionRecord) clone() SessionRecord {
	s.Seats = slices.Clone(s.Seats)
	return s
}

func (s *SessionRecord) seat(id string) *SessionSeat {
	for i := range s.Seats {
		if s.Seats[i].Player == id {
			return &s.Seats[i]
		}
	}
	return nil
}
