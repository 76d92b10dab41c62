package verify

import (
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// TestTournamentAuditCatchesPlantedFaults: the audit of a seamless tournament's calls
// against its journal passes a tournament whose calls are right, and names each fault
// planted in them.
func TestTournamentAuditCatchesPlantedFaults(t *testing.T) {
	const stream = "tournament-cup"
	spec := live.TournamentSpec{Config: tournament.Config{ID: "cup", Currency: "EUR"}, Wallet: live.WalletSeamless,
		Bots: []tabletop.Bot{{ID: "bot1", Strategy: "flat"}}}
	events := func() []tournament.Event {
		return []tournament.Event{
			{Seq: 1, Type: tournament.EvRegistrationOpened},
			{Seq: 2, Type: tournament.EvRegistered, Player: "ann", Amount: 1000, Debit: "d1"},
			{Seq: 3, Type: tournament.EvRegistered, Player: "bot1", Amount: 1000},
			{Seq: 4, Type: tournament.EvRegistered, Player: "bob", Amount: 1000, Debit: "d2"},
			{Seq: 5, Type: tournament.EvUnregistered, Player: "bob", Amount: 1000},
			{Seq: 6, Type: tournament.EvRegistered, Player: "cat", Amount: 1000, Debit: "d3"},
			{Seq: 7, Type: tournament.EvStarted},
			{Seq: 8, Type: tournament.EvRebought, Player: "cat", Amount: 500, Count: 1, Debit: "d4"},
			{Seq: 9, Type: tournament.EvFinished, Payments: []tournament.Payment{{Player: "ann", Amount: 2000}, {Player: "bot1", Amount: 1500}}},
		}
	}
	debit := func(tx, player string, item uint64, amount baccarat.Money) journal.WalletCall {
		return journal.WalletCall{Tx: tx, Kind: journal.CallDebit, Player: player, Currency: "EUR", Amount: amount, Table: stream,
			TableWager: item, State: journal.CallPlaced}
	}
	closer := func(kind journal.CallKind, debitTx string, amount baccarat.Money) journal.WalletCall {
		return journal.WalletCall{Tx: string(kind) + "-" + debitTx, Kind: kind, DebitTx: debitTx, Amount: amount, Table: stream, State: journal.CallDone}
	}
	calls := func() []journal.WalletCall {
		return []journal.WalletCall{
			debit("d1", "ann", 2, 1000), debit("d2", "bob", 4, 1000), closer(journal.CallRollback, "d2", 1000),
			debit("d3", "cat", 6, 1000), debit("d4", "cat", 8, 500),
			closer(journal.CallCredit, "d1", 2000), closer(journal.CallCredit, "d3", 0), closer(journal.CallCredit, "d4", 0),
		}
	}
	audit := func(evs []tournament.Event, cs []journal.WalletCall) TournamentCalls {
		return auditTournamentCalls(stream, spec, evs, indexCalls(cs))
	}

	tc := audit(events(), calls())
	if len(tc.Problems) != 0 || tc.Paid != 3500 || tc.Debited != 3500 || tc.Refunded != 1000 || tc.RolledBack != 1000 ||
		tc.Prizes != 2000 || tc.Credited != 2000 || tc.Phase != tournament.PhaseFinished {
		t.Fatalf("a right tournament: %+v", tc)
	}
	faults := []struct {
		name  string
		plant func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall)
		want  string
	}{
		{"a prize credited short", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			cs[5].Amount = 1999
			return evs, cs
		}, "closed by a credit of 1999; the finish owes a credit of 2000"},
		{"a rebuy's debit closed by a rollback at the finish", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			cs[7].Kind = journal.CallRollback
			return evs, cs
		}, "closed by a rollback of 0; the finish owes a credit of 0"},
		{"a debit left open at the finish", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			return evs, cs[:7]
		}, "cat's debit d4 (event 8) is not closed"},
		{"a refund never rolled back", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			return evs, append(cs[:2:2], cs[3:]...)
		}, "bob's debit d2 (event 4) is not closed: the unregistration owes a rollback of 1000"},
		{"a registration without its debit", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			return evs, append(cs[:3:3], cs[4:]...)
		}, "cat's entry (event 6, 1000 EUR) has no placed debit"},
		{"a debit of another amount", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			cs[4].Amount = 5000
			return evs, cs
		}, "the debit placed for it is d4 of 5000 EUR"},
		{"a bot debited at the operator", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			return evs, append(cs, debit("d9", "bot1", 3, 1000))
		}, "bot bot1's entry (event 3) was debited"},
		{"a prize to a player who paid nothing", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			evs[8].Payments = append(evs[8].Payments, tournament.Payment{Player: "dan", Amount: 10})
			return evs, cs
		}, "dan's prize of 10 closes no debit"},
		{"a debit closed before the journal decided it", func(evs []tournament.Event, cs []journal.WalletCall) ([]tournament.Event, []journal.WalletCall) {
			return evs[:8], cs
		}, "which the journal has not decided"},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			tc := audit(f.plant(events(), calls()))
			if !strings.Contains(strings.Join(tc.Problems, "\n"), f.want) {
				t.Fatalf("problems %q; want one with %q", tc.Problems, f.want)
			}
		})
	}
}
