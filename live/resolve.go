package live

import (
	"context"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// An admin's answer to a call the operator refused for good. Reading the calls, their
// totals and what is still open is the offline audit's (package verify: Reconcile); acting
// on one is the host's, since a resent call is the deliverer's to send.

// Resolved is what came of an admin's action on a refused call: the call as resolved and,
// for a resend, the call that carries it on.
type Resolved struct {
	Call   journal.WalletCall  `json:"call"`
	Resent *journal.WalletCall `json:"resent,omitempty"`
}

// ResolveCall does what an admin decided for a credit or rollback the operator refused for
// good (state failed), recording r (who, when, why) with the call:
//
//   - journal.ActionResend: the call is sent again under a new tx id (ResendTx), due at
//     once. The protocol answers a repeated tx id with its first answer, so the same id
//     would be refused for ever. The player is never paid twice: the refused call moved
//     nothing (a definite refusal applies nothing), our books allow one live closer per
//     debit (the refused call becomes resent, never sent again), and the operator closes a
//     debit once, so a second closer of a debit it had closed would be refused
//     (debit_closed) rather than paid.
//   - journal.ActionSettle: the call is closed as settled (the operator paid the player, or
//     gave the stake back, some other way), with the reason, and never sent again.
//
// A call that is not a refused credit or rollback is bad_state, and nothing changes.
// The deliverer of a running server sends a resent call at its next look (Outbox.Every);
// Host.ResolveCall wakes it at once.
func ResolveCall(ctx context.Context, store any, tx string, r journal.Resolution) (*Resolved, error) {
	calls, ok := store.(journal.WalletCalls)
	if !ok {
		return nil, baccarat.Errorf(baccarat.CodeInternal, "this store keeps no wallet calls")
	}
	if err := baccarat.CheckID("wallet call tx", tx); err != nil {
		return nil, err
	}
	c, err := calls.Call(ctx, tx)
	if err != nil {
		return nil, err
	}
	if !c.Refused() {
		return nil, journal.CallNotRefused(c)
	}
	r.ResentAs = ""
	if r.Action == journal.ActionResend {
		r.ResentAs = ResendTx(c)
	}
	got, err := calls.ResolveCall(ctx, tx, r)
	if err != nil {
		return nil, err
	}
	out := &Resolved{Call: got}
	if r.Action == journal.ActionResend {
		n, err := calls.Call(ctx, r.ResentAs)
		if err != nil {
			return nil, err
		}
		out.Resent = &n
	}
	return out, nil
}

// ResendTx is the tx id of the call that carries a refused call on: derived from the
// refused call's, so the same resend always has the same id.
func ResendTx(c journal.WalletCall) string {
	return txID(string(c.Kind[:1]), "resend", c.Tx)
}

// ResolveCall is the package's ResolveCall on the host's store; a resent call is sent at
// once.
func (h *Host) ResolveCall(ctx context.Context, tx string, r journal.Resolution) (*Resolved, error) {
	out, err := ResolveCall(ctx, h.opt.Store, tx, r)
	if err == nil && out.Resent != nil {
		h.kickDelivery()
	}
	return out, err
}
