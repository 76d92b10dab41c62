// Package verify is the offline audit of a whole database, the way an operator or a
// regulator would run it (baccarat verify; baccarat reconcile and the admin's
// reconciliation endpoint): every journal's hash chain, every table replayed and its
// snapshots checked, the books, the in-play accounts, the tournaments' chips and pools, and
// our side of every call to an operator's seamless wallet against the journals. It reads
// what the live host wrote and changes nothing. It imports live for the formats the host
// writes (a table's spec, a tournament's journal, the pool's account) and live never
// imports it: the host cannot lean on the check that judges it.
//
// Recomputing each settlement from its cards is package audit's, one table's history at a
// time, with pay tables of its own; Database runs it over every table and adds what no
// single history shows (the books, the wallet calls, a table or tournament that stopped).
package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/audit"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// Report is what Database checked and every problem it found.
type Report struct {
	Tables   int      `json:"tables"`
	Records  int      `json:"records"`
	Rounds   int      `json:"rounds"`
	Voids    int      `json:"voids"`
	Sessions int      `json:"sessions"`
	Wagers   int      `json:"wagers"`
	Accounts int      `json:"accounts"`
	Problems []string `json:"problems"`
	// Paused lists tables in the middle of a round that no server hosts: they resume when
	// one starts (not a problem).
	Paused []string `json:"paused,omitempty"`

	// Tournaments whose journals were checked (tournament.go).
	Tournaments int `json:"tournaments,omitempty"`

	// WalletCalls is how many calls to the operator's wallet were checked (wallet.go);
	// Undelivered lists those still waiting for an answer, and debits still pending.
	WalletCalls int          `json:"wallet_calls,omitempty"`
	Undelivered []string     `json:"undelivered,omitempty"`
	wallet      *walletAudit // the calls, read once
	// Resolved lists the refused calls an admin resent or settled by hand, with who, when
	// and why: not problems, closed calls with their audit (wallet.go).
	Resolved []string `json:"resolved,omitempty"`
}

// OK reports whether nothing was wrong.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// Database audits a database the way an operator or regulator would: every table's hash
// chain, every settled round recomputed from its cards and wagers, every table's in-play
// account against the stakes its journal says are in play, and the books (every currency
// sums to zero, every balance equals its postings).
//
// An automatic table that a server hosts (its lease is held) but that has not moved for
// longer than its schedule allows is reported stuck: a wedged table is a problem even when
// its books are right. now is the time to judge that by.
func Database(ctx context.Context, store live.Store, now time.Time) (Report, error) {
	rep := Report{Problems: []string{}}
	ids, err := store.Tables(ctx)
	if err != nil {
		return rep, err
	}
	for _, id := range ids {
		if isTournamentStream(id) {
			if err := verifyTournament(ctx, store, id, now, &rep); err != nil {
				return rep, err
			}
			continue
		}
		if err := verifyTable(ctx, store, id, now, &rep); err != nil {
			return rep, err
		}
	}
	if err := verifyCalls(ctx, store, &rep); err != nil {
		return rep, err
	}
	accts, err := store.Accounts(ctx, "")
	if err != nil {
		return rep, err
	}
	rep.Accounts = len(accts)
	if err := store.Check(ctx); err != nil {
		rep.Problems = append(rep.Problems, "ledger: "+err.Error())
	}
	return rep, nil
}

func verifyTable(ctx context.Context, store live.Store, id string, now time.Time, rep *Report) error {
	recs, err := store.Load(ctx, id, 1)
	if err != nil {
		return err
	}
	rep.Tables++
	rep.Records += len(recs)
	bad := func(format string, args ...any) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("table %s: ", id)+fmt.Sprintf(format, args...))
	}
	if err := journal.Verify(recs); err != nil {
		bad("hash chain: %v", err)
		return nil
	}
	var spec live.Spec
	isSpec := false
	if len(recs) > 0 {
		spec, isSpec, err = live.DecodeSpec(recs[0])
	}
	if !isSpec {
		bad("the journal does not start with the table's spec")
		return nil
	}
	if err != nil {
		bad("spec: %v", err)
		return nil
	}
	checkTournamentLink(spec, bad)
	events := make([]table.Event, len(recs)-1)
	for i, rec := range recs[1:] {
		if err := json.Unmarshal(rec.Data, &events[i]); err != nil {
			bad("record %d: %v", rec.Seq, err)
			return nil
		}
		if events[i].Seq != rec.Seq-1 {
			bad("record %d holds event %d", rec.Seq, events[i].Seq)
		}
	}
	found, err := audit.Table(spec.Config.Game, events)
	if err != nil {
		bad("%v", err)
		return nil
	}
	rep.Rounds += found.Rounds
	rep.Voids += found.Voids
	rep.Sessions += found.Sessions
	rep.Wagers += found.Wagers
	for _, p := range found.Problems {
		bad("%s", p)
	}
	t, err := replayChecking(ctx, store, spec, events, bad)
	if err != nil {
		bad("replay: %v", err)
		return nil
	}
	if err := checkMoving(ctx, store, spec, t.Status(), recs[len(recs)-1].At, now, rep); err != nil {
		return err
	}
	if spec.Wallet == live.WalletSeamless {
		return verifySeamless(ctx, store, spec, events, rep, bad)
	}
	var held baccarat.Money
	for _, f := range t.State().Funds {
		held += f.Held
	}
	inplay, err := store.Balance(ctx, ledger.InPlay(id, spec.Currency))
	if err != nil {
		bad("in-play account: %v", err)
	} else if inplay != held {
		bad("in-play account holds %d, the journal's wagers in play total %d", inplay, held)
	}
	return nil
}

// replayChecking replays a table's events from the first and checks each of its snapshots
// (the host's, live/snapshots.go) against the replay at the record it stands at: a snapshot
// that differs, or stands beyond the journal, is a problem (recovery would start from a
// state the journal does not give).
func replayChecking(ctx context.Context, store live.Store, spec live.Spec, events []table.Event, bad func(string, ...any)) (*table.Table, error) {
	ss, ok := store.(journal.Snapshots)
	if !ok {
		return table.Replay(spec.Config, events)
	}
	snaps, err := ss.SnapshotsOf(ctx, spec.ID)
	if err != nil || len(snaps) == 0 {
		return table.Replay(spec.Config, events)
	}
	t, err := table.New(spec.Config)
	if err != nil {
		return nil, err
	}
	next := 0
	for i := range events {
		if err := t.Restore(&events[i]); err != nil {
			return nil, err
		}
		for ; next < len(snaps) && snaps[next].Seq <= uint64(i+2); next++ { // event i is record i+2
			checkSnapshot(t, snaps[next], uint64(i+2), bad)
		}
	}
	for ; next < len(snaps); next++ {
		bad("a snapshot stands at record %d, beyond the journal's last (%d)", snaps[next].Seq, len(events)+1)
	}
	return t, nil
}

// checkSnapshot compares a stored snapshot with the replayed table at its record.
func checkSnapshot(t *table.Table, s journal.Snapshot, at uint64, bad func(string, ...any)) {
	var stored table.Snapshot
	if s.Seq != at || json.Unmarshal(s.Data, &stored) != nil {
		bad("the snapshot at record %d does not read as the table at that record", s.Seq)
		return
	}
	replayed, ok := t.Snapshot()
	want, _ := json.Marshal(replayed)
	got, _ := json.Marshal(&stored)
	if !ok || string(got) != string(want) {
		bad("the snapshot at record %d differs from the replay of the journal to it", s.Seq)
	}
}

// checkTournamentLink reports a table that plays for a tournament's chips without being one
// of its session tables, and one with a session table's id that its tournament did not
// create: either could take chips out of a tournament or pass for one of its sessions.
func checkTournamentLink(spec live.Spec, bad func(string, ...any)) {
	if spec.Currency.IsChips() && (spec.Tournament == nil || spec.Currency != ledger.Chips(spec.Tournament.Tournament)) {
		bad("plays for %s, a tournament's chips, but is not one of that tournament's session tables", spec.Currency)
	}
	if t, round, tableNo, session, ok := tabletop.ParseTableID(spec.ID); ok && !spec.Tournament.Links(t, round, tableNo, session) {
		bad("has the id of round %d table %d session %d of tournament %s, but that tournament did not create it", round, tableNo, session, t)
	}
}

// checkMoving reports an automatic table that is hosted but has not moved for longer than
// its schedule allows (live.Schedule.StuckAfter, the line the host's stalled-table gauge
// draws too), and notes one mid-round that nobody hosts.
func checkMoving(ctx context.Context, store live.Store, spec live.Spec, st table.Status, last, now time.Time, rep *Report) error {
	if spec.Mode != live.ModeAuto || st.Stopped() {
		return nil // a dealer sets the pace, or the pit stopped the table
	}
	allowed := spec.Schedule.StuckAfter()
	idle := now.Sub(last)
	if idle <= allowed {
		return nil
	}
	lease, err := store.Lease(ctx, spec.ID)
	if err != nil {
		return err
	}
	midRound := st.Phase == table.PhaseBetting || st.Phase == table.PhaseClosed || st.Phase == table.PhaseDealing
	switch {
	case lease.Held(now):
		rep.Problems = append(rep.Problems, fmt.Sprintf("table %s: stuck: server %s hosts it, but round %d has been %s for %s (its schedule allows %s)",
			spec.ID, lease.Owner, st.Round, st.Phase, idle.Round(time.Second), allowed))
	case midRound:
		rep.Paused = append(rep.Paused, fmt.Sprintf("table %s: round %d %s since %s; no server hosts it (it resumes when one starts)",
			spec.ID, st.Round, st.Phase, last.Format(time.RFC3339)))
	}
	return nil
}

// isTournamentStream reports whether a journal is a tournament's rather than a table's.
func isTournamentStream(id string) bool { return strings.HasPrefix(id, tabletop.StreamPrefix) }
