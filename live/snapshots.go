package live

import (
	"context"
	"encoding/json"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/table"
)

// Snapshots. Where the store keeps them (journal.Snapshots), a table writes its state between
// rounds (table.Snapshot) with the batch that ends a round, every Options.SnapshotEvery
// rounds and when its shoe ends; a host recovering the table restores the latest and
// replays only the records after it, so a restart takes as long after a year of play as
// after a day. The journal stays whole and is the record: `verify` replays it from the first
// event and checks every snapshot against the replay.

// DefaultSnapshotEvery is how many rounds apart a table's snapshots are unless configured.
const DefaultSnapshotEvery = 100

// recallRecords is how many records before its snapshot a recovered table reads again for
// the recall of its last rounds and its streams' recent messages (not for its state).
const recallRecords = 600

// snapshotDue reports whether the batch about to be committed ends with the table between
// rounds and a snapshot due: SnapshotEvery rounds since the last, or the shoe just ended.
func (r *runner) snapshotDue(staged []staged) bool {
	if _, ok := r.h.opt.Store.(journal.Snapshots); !ok || !r.t.CanSnapshot() {
		return false
	}
	for i := range staged {
		for j := range staged[i].events {
			if staged[i].events[j].Type == table.EvShoeEnded {
				return true
			}
		}
	}
	return r.t.Round() >= r.snapRound+uint64(r.h.opt.SnapshotEvery)
}

// snapshotAt is the table's snapshot as of the record at seq (the batch's last), for the
// batch; nil when the table cannot be written down now.
func (r *runner) snapshotAt(seq uint64) *journal.Snapshot {
	s, ok := r.t.Snapshot()
	if !ok || s.Seq+1 != seq { // record seq = event seq + 1 (the spec is record 1)
		return nil
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	return &journal.Snapshot{Table: r.spec.ID, Seq: seq, Data: data}
}

// loadFromSnapshot rebuilds a table from its latest snapshot and the records after it, with
// the records just before it read again for recall; ok false when the store keeps no
// snapshot of it (or one this program cannot read: then the whole journal is replayed).
func (h *Host) loadFromSnapshot(ctx context.Context, id string) (*runner, bool, error) {
	ss, ok := h.opt.Store.(journal.Snapshots)
	if !ok {
		return nil, false, nil
	}
	snap, found, err := ss.LatestSnapshot(ctx, id)
	if err != nil || !found {
		return nil, false, err
	}
	var ts table.Snapshot
	if err := json.Unmarshal(snap.Data, &ts); err != nil || ts.Version != table.SnapshotVersion || ts.Seq+1 != snap.Seq {
		h.opt.Logger.Warn("a table snapshot this program cannot use: replaying the whole journal", "table", id, "seq", snap.Seq, "err", err)
		return nil, false, nil
	}
	first, err := ss.LoadRange(ctx, id, 1, 1)
	if err != nil {
		return nil, false, err
	}
	spec, err := specOf(id, first)
	if err != nil {
		return nil, false, err
	}
	before, err := ss.LoadRange(ctx, id, max(2, snap.Seq-min(snap.Seq, recallRecords)), snap.Seq)
	if err != nil {
		return nil, false, err
	}
	after, err := h.opt.Store.Load(ctx, id, snap.Seq+1)
	if err != nil {
		return nil, false, err
	}
	if len(before) == 0 || before[len(before)-1].Seq != snap.Seq {
		return nil, false, baccarat.Errorf(baccarat.CodeInternal, "table %s: its snapshot stands at record %d, which the journal lacks", id, snap.Seq)
	}
	old, err := decodeEvents(id, before)
	if err != nil {
		return nil, false, err
	}
	events, err := decodeEvents(id, after)
	if err != nil {
		return nil, false, err
	}
	t, err := table.ReplayFrom(&ts, events)
	if err != nil {
		return nil, false, err
	}
	head := before[len(before)-1].Head()
	if len(after) > 0 {
		head = after[len(after)-1].Head()
	}
	r := newRunner(h, spec, t, head)
	r.recovered, r.snapRound = true, ts.Round
	for _, evs := range [][]table.Event{old, events} {
		for i := range evs {
			r.observe(&evs[i])
			r.remember(&evs[i])
		}
	}
	return r, true, nil
}

// specOf reads a table's spec from its first record.
func specOf(id string, recs []journal.Record) (Spec, error) {
	var spec Spec
	isSpec := false
	var err error
	if len(recs) > 0 {
		spec, isSpec, err = DecodeSpec(recs[0])
	}
	if !isSpec {
		return spec, baccarat.Errorf(baccarat.CodeInternal, "table %s: its journal does not start with its spec", id)
	}
	return spec, err
}

// DecodeSpec reads a table's spec from the first record of its journal, its configuration
// filled in from the spec as the table enforces it (journals written before the table knew
// its mode and currency). isSpec is false when rec is no table's spec; err, when it is one
// that does not decode. The host recovers a table by it; package verify audits one, and
// words each failure as its report does.
func DecodeSpec(rec journal.Record) (spec Spec, isSpec bool, err error) {
	if rec.Type != specRecord {
		return spec, false, nil
	}
	if err := json.Unmarshal(rec.Data, &spec); err != nil {
		return spec, true, err
	}
	spec.fillConfig()
	return spec, true, nil
}

// decodeEvents reads table events from their records (none of which is the spec).
func decodeEvents(id string, recs []journal.Record) ([]table.Event, error) {
	events := make([]table.Event, len(recs))
	for i, rec := range recs {
		if err := json.Unmarshal(rec.Data, &events[i]); err != nil {
			return nil, baccarat.Errorf(baccarat.CodeInternal, "table %s record %d: %v", id, rec.Seq, err)
		}
	}
	return events, nil
}
