package live

// A new table: its spec checked, its settings filled in, its first record written.

import (
	"context"

	"github.com/tablehouse/baccarat"
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
	if err := spec.Mirror(); err != nil {
		return err
	}
	if spec.Mode == "" {
		spec.Mode = ModeAuto
	}
	if spec.Currency == "" {
		spec.Currency = PlayMoney
	}
	_ = spec.Mirror() // the defaults into the configuration: the two agree, nothing to refuse
	if err := baccarat.CheckCurrency(string(spec.Currency)); err != nil {
		return err
	}
	if err := h.checkWallet(&spec); err != nil {
		return err
	}
	spec.Schedule = spec.Schedule.withDefaults()
	t, err := table.New(spec.Config)
	if err != nil {
		return err
	}
	spec.Config = t.Config()
	ten, head, err := h.found(ctx, spec.ID, "table "+spec.ID, specRecord, spec, func() error {
		for _, acct := range []string{ledger.InPlay(spec.ID, spec.Currency), ledger.House(spec.Currency)} {
			if err := h.opt.Store.OpenAccount(ctx, acct); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	r := newRunner(h, spec, t, head)
	r.lease = ten
	h.start(r)
	return nil
}

// checkRanges refuses a new table whose settings or schedule are out of their ranges.
func (s *Spec) checkRanges() error {
	m := *s
	_ = m.Mirror() // as Create will: Method C is refused at a dealer's table; a disagreement is Create's to refuse
	if err := m.Config.Check(); err != nil {
		return err
	}
	if err := s.Video.Check(); err != nil {
		return err
	}
	return s.Schedule.Check()
}

// Mirror is the one place a table's mode and currency are set in both their homes: the
// spec, by which the host runs the table and keeps its books, and its configuration, where
// the table itself enforces them (Authorize, the amounts in its messages). Both are
// journalled, inside the spec's one record, in the formats tables have always been written
// in, which is why they are two fields and not one. A side left empty takes the other's
// (journals written before the configuration had them leave it empty); given on both
// sides, they must agree, or Mirror says which differs. Nothing else sets one from the
// other; TestModeAndCurrencyHaveOneValue holds them to it.
func (s *Spec) Mirror() error {
	if s.Config.Mode == "" {
		s.Config.Mode = s.Mode
	}
	if s.Mode == "" {
		s.Mode = s.Config.Mode
	}
	if s.Config.Currency == "" {
		s.Config.Currency = string(s.Currency)
	}
	if s.Currency == "" {
		s.Currency = ledger.Currency(s.Config.Currency)
	}
	switch {
	case s.Config.Mode != s.Mode:
		return baccarat.Errorf(baccarat.CodeBadRequest, "the table's mode is %q but its config says %q: give one", s.Mode, s.Config.Mode)
	case s.Config.Currency != string(s.Currency):
		return baccarat.Errorf(baccarat.CodeBadRequest, "the table's currency is %q but its config says %q: give one", s.Currency, s.Config.Currency)
	}
	return nil
}

// fillConfig is Mirror for a spec read from a journal, which loads as it was written: a
// table journalled with the two disagreeing (before Create refused it) runs on as it ran,
// its table by its configuration and its books by the spec.
func (s *Spec) fillConfig() { _ = s.Mirror() }
