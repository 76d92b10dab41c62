package tournament

import (
	"strconv"

	"github.com/tablehouse/baccarat"
)

// Charge is what a command costs its player: the money the host takes before it applies
// the command, where the money is kept outside the host's own books and must be taken
// first (an operator's wallet).
type Charge struct {
	// Amount in Config.Currency: the entry fee of a registration, the price of a rebuy; 0
	// for a command that costs nothing.
	Amount baccarat.Money `json:"amount"`
	// Ref names the payment, the same for as long as the command would be the same one:
	// "entry/<n>" for a registration that would be entry n (entry numbers are never reused),
	// "rebuy/<n>" for a player's n-th rebuy. It is unique per player within the tournament.
	Ref string `json:"ref,omitempty"`
}

// Charge reports what c would cost its player if it were applied now, or the refusal Apply
// would give it; nothing changes. Register and rebuy are checked as Apply checks them;
// every other command costs nothing and is checked by Apply only.
func (t *Tournament) Charge(c *Command) (Charge, error) {
	switch c.Type {
	case CmdRegister:
		if err := t.mayRegister(c); err != nil {
			return Charge{}, err
		}
		return Charge{Amount: t.cfg.EntryFee, Ref: "entry/" + strconv.Itoa(t.entries+1)}, nil
	case CmdRebuy:
		p, _, err := t.mayRebuy(c)
		if err != nil {
			return Charge{}, err
		}
		return Charge{Amount: t.cfg.Rebuy.Price, Ref: "rebuy/" + strconv.Itoa(p.rebuys+1)}, nil
	}
	return Charge{}, nil
}
