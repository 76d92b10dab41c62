package live

// A new table: its spec checked, its settings filled in, its first record written.

import (
	"context"
	"encoding/json"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
)

// Create journals a new table and starts it.
func (h *Host) Create(ctx context.Context, spec Spec) error {
	if err := baccarat.CheckID("table id", spec.ID); err != nil {
		return err
	}
	if err := baccarat.CheckNames("names", spec.Names); err != nil {
		return err
	}
	if err := h.checkTableID(&spec); err != nil {
		return err
	}
	if spec.Tournament == nil { // a tournament's tables follow its config, checked when it was created
		if err := spec.checkRanges(); err != nil {
			return err
		}
	}
	if spec.Mode == "" {
		spec.Mode = ModeAuto
	}
	if spec.Currency == "" {
		spec.Currency = PlayMoney
	}
	if err := baccarat.CheckCurrency(string(spec.Currency)); err != nil {
		return err
	}
	if err := h.checkWallet(&spec); err != nil {
		return err
	}
	if spec.Config.Mode != "" && spec.Config.Mode != spec.Mode {
		return baccarat.Errorf(baccarat.CodeBadRequest, "the table's mode is %q but its config says %q: give one", spec.Mode, spec.Config.Mode)
	}
	spec.fillConfig()
	spec.Schedule = spec.Schedule.withDefaults()
	t, err := table.New(spec.Config)
	if err != nil {
		return err
	}
	spec.Config = t.Config()
	head, err := h.opt.Store.Head(ctx, spec.ID)
	if err != nil {
		return err
	}
	if head.Seq != 0 {
		return baccarat.Errorf(baccarat.CodeConflict, "table %s already exists", spec.ID)
	}
	if ok, err := h.opt.Store.Acquire(ctx, spec.ID, h.opt.Owner, h.opt.LeaseTTL, h.opt.Clock.Now()); err != nil {
		return err
	} else if !ok {
		return baccarat.Errorf(baccarat.CodeConflict, "table %s is owned by another server", spec.ID)
	}
	for _, acct := range []string{ledger.InPlay(spec.ID, spec.Currency), ledger.House(spec.Currency)} {
		if err := h.opt.Store.OpenAccount(ctx, acct); err != nil {
			return err
		}
	}
	var ten tenure
	if err := ten.start(h, spec.ID, h.opt.Clock.Now()); err != nil {
		return err
	}
	data, _ := json.Marshal(spec)
	rec := journal.Seal(journal.Head{}, journal.Record{Table: spec.ID, Seq: 1, Type: specRecord, Data: data, At: h.opt.Clock.Now()})
	if err := h.opt.Store.Commit(ctx, journal.Batch{Fence: ten.fence(h, spec.ID), Records: []journal.Record{rec}}); err != nil {
		return err
	}
	r := newRunner(h, spec, t, rec.Head())
	r.lease = ten
	h.start(r)
	return nil
}

// checkRanges refuses a new table whose settings or schedule are out of their ranges.
func (s *Spec) checkRanges() error {
	cfg := s.Config
	if cfg.Mode == "" {
		cfg.Mode = s.Mode // as fillConfig will: Method C is refused at a dealer's table
	}
	if err := cfg.Check(); err != nil {
		return err
	}
	if err := s.Video.Check(); err != nil {
		return err
	}
	return s.Schedule.Check()
}

// fillConfig copies the table's mode and currency into its configuration, where the table
// itself enforces them.
func (s *Spec) fillConfig() {
	if s.Config.Mode == "" {
		s.Config.Mode = s.Mode
	}
	if s.Config.Currency == "" {
		s.Config.Currency = string(s.Currency)
	}
}
