package refwallet

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/seamless"
)

func unknown(err error) bool {
	var ue *seamless.OutcomeUnknownError
	return errors.As(err, &ue)
}

// waitFor polls the report until tx is recorded.
func (w *wallet) waitFor(tx string) TxReport {
	w.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, x := range w.report().Txs {
			if x.Tx == tx {
				return x
			}
		}
	}
	w.t.Fatalf("tx %s never recorded", tx)
	return TxReport{}
}

// TestOperatorFaultSlow: a call held past the client's timeout is an unknown outcome. Rolled
// back while still held, the debit is refused when its turn comes; rolled back after it
// was taken, its stake comes back. Either way the player ends where they began.
func TestOperatorFaultSlow(t *testing.T) {
	ctx := context.Background()
	t.Run("rollback before the held debit is taken", func(t *testing.T) {
		w := newWallet(t, Faults{SlowMS: 500, SlowP: 1})
		w.player("ann", 1000)
		w.client.Timeout = 50 * time.Millisecond
		d := debit("d-1", "ann", 300)
		if _, err := w.client.Debit(ctx, d); !unknown(err) {
			t.Fatalf("a debit held 500 ms with a 50 ms timeout: %v", err)
		}
		w.client.Timeout = 0 // from here on, answers are awaited
		if err := w.srv.SetFaults(Faults{}); err != nil {
			t.Fatal(err)
		}
		if a, err := w.client.Rollback(ctx, rollback("r-1", d)); err != nil || a.Balance != 1000 {
			t.Fatalf("rollback: %+v, %v", a, err)
		}
		if x := w.waitFor("d-1"); x.Error != string(seamless.CodeRolledBack) || x.Moved != 0 {
			t.Errorf("the late debit: %+v, want refused rolled_back", x)
		}
		if rep := w.balanced(); rep.Players[0].Balance != 1000 {
			t.Errorf("balance %d, want 1000", rep.Players[0].Balance)
		}
	})
	t.Run("rollback after the held debit was taken", func(t *testing.T) {
		w := newWallet(t, Faults{SlowMS: 100, SlowP: 1})
		w.player("ann", 1000)
		w.client.Timeout = 20 * time.Millisecond
		d := debit("d-1", "ann", 300)
		if _, err := w.client.Debit(ctx, d); !unknown(err) {
			t.Fatalf("a debit held 100 ms with a 20 ms timeout: %v", err)
		}
		w.client.Timeout = 0 // from here on, answers are awaited
		if x := w.waitFor("d-1"); x.Moved != -300 {
			t.Fatalf("the held debit: %+v, want taken", x)
		}
		if err := w.srv.SetFaults(Faults{}); err != nil {
			t.Fatal(err)
		}
		if a, err := w.client.Rollback(ctx, rollback("r-1", d)); err != nil || a.Balance != 1000 {
			t.Fatalf("rollback: %+v, %v; want the stake back, balance 1000", a, err)
		}
		w.balanced()
	})
}

// TestOperatorFaultFail: a 500 before taking the call records nothing, so the retry with
// the same tx id is taken, once.
func TestOperatorFaultFail(t *testing.T) {
	w := newWallet(t, Faults{FailP: 1})
	w.player("ann", 1000)
	ctx := context.Background()
	d := debit("d-1", "ann", 300)
	if _, err := w.client.Debit(ctx, d); !unknown(err) {
		t.Fatalf("a failed debit: %v, want outcome unknown", err)
	}
	if rep := w.balanced(); len(rep.Txs) != 0 {
		t.Fatalf("a failed call was recorded: %+v", rep.Txs)
	}
	if err := w.admin.SetFaults(ctx, Faults{}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if a, err := w.client.Debit(ctx, d); err != nil || a.Balance != 700 {
			t.Fatalf("the retry: %+v, %v", a, err)
		}
	}
	if rep := w.balanced(); len(rep.Txs) != 1 || rep.Players[0].Balance != 700 {
		t.Fatalf("after the retries: %+v", rep)
	}
}

// TestOperatorFaultLose: a call taken whose answer is lost is an unknown outcome; the
// rollback gives the stake back, and the debit's retry gets its first answer without
// being taken again.
func TestOperatorFaultLose(t *testing.T) {
	w := newWallet(t, Faults{LoseP: 1})
	w.player("ann", 1000)
	ctx := context.Background()
	d := debit("d-1", "ann", 300)
	if _, err := w.client.Debit(ctx, d); !unknown(err) {
		t.Fatalf("a debit whose answer was lost: %v, want outcome unknown", err)
	}
	if rep := w.balanced(); rep.Players[0].Balance != 700 {
		t.Fatalf("the lost debit was not taken: balance %d", rep.Players[0].Balance)
	}
	if _, err := w.client.Rollback(ctx, rollback("r-1", d)); !unknown(err) {
		t.Fatalf("a rollback whose answer was lost: %v", err)
	}
	if err := w.admin.SetFaults(ctx, Faults{}); err != nil {
		t.Fatal(err)
	}
	if a, err := w.client.Rollback(ctx, rollback("r-1", d)); err != nil || a.Balance != 1000 {
		t.Fatalf("the rollback's retry: %+v, %v", a, err)
	}
	if a, err := w.client.Debit(ctx, d); err != nil || a.Balance != 700 {
		t.Fatalf("the debit's retry: %+v, %v; want its first answer, 700", a, err)
	}
	if rep := w.balanced(); rep.Players[0].Balance != 1000 || len(rep.Txs) != 2 {
		t.Fatalf("after the retries: %+v", rep)
	}
}

// TestOperatorFaultsSeeded: fault decisions come from the Source, so a seed replays them.
func TestOperatorFaultsSeeded(t *testing.T) {
	rolls := func() string {
		s := switches{f: Faults{SlowMS: 5, SlowP: 0.5, FailP: 0.5, LoseP: 0.5}, rng: NewSource(42)}
		out := ""
		for range 64 {
			r := s.roll()
			out += fmt.Sprintf("%d%t%t ", r.slow, r.fail, r.lose)
		}
		return out
	}
	a, b := rolls(), rolls()
	if a != b {
		t.Fatalf("the same seed rolled differently:\n%s\n%s", a, b)
	}
	s := switches{f: Faults{SlowMS: 5}, rng: NewSource(42)}
	if r := s.roll(); r != (roll{}) {
		t.Errorf("all probabilities 0 rolled %+v", r)
	}
}

// TestOperatorConcurrentDebits: many goroutines debit one player, each debit delivered
// twice at once: the balance never goes below zero, exactly as many debits are taken as
// the money allows, each once, and both deliveries get the same answer.
func TestOperatorConcurrentDebits(t *testing.T) {
	w := newWallet(t, Faults{})
	w.player("ann", 1000)
	const workers, each, amount = 16, 12, baccarat.Money(7)
	var mu sync.Mutex
	taken := map[string]baccarat.Money{}
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				d := debit(fmt.Sprintf("d-%d-%d", g, i), "ann", amount)
				var answers [2]string
				var twice sync.WaitGroup
				for k := range 2 {
					twice.Add(1)
					go func() {
						defer twice.Done()
						a, err := w.client.Debit(context.Background(), d)
						answers[k] = fmt.Sprintf("%+v %v", a, code(err))
						if err == nil {
							mu.Lock()
							taken[d.Tx] = a.Balance
							mu.Unlock()
						}
					}()
				}
				twice.Wait()
				if answers[0] != answers[1] {
					t.Errorf("%s: two deliveries, two answers: %s / %s", d.Tx, answers[0], answers[1])
				}
			}
		}()
	}
	wg.Wait()
	rep := w.balanced()
	applied := 0
	for _, x := range rep.Txs {
		if x.Moved != 0 {
			applied++
			if _, ok := taken[x.Tx]; !ok {
				t.Errorf("%s taken but its caller was told otherwise", x.Tx)
			}
		}
	}
	if want := int(1000 / amount); applied != want || len(taken) != want || rep.Players[0].Balance != 1000-baccarat.Money(want)*amount {
		t.Fatalf("%d debits taken (%d answered OK), balance %d; want %d taken, balance %d", applied, len(taken),
			rep.Players[0].Balance, want, 1000-baccarat.Money(want)*amount)
	}
	if len(rep.Txs) != workers*each {
		t.Errorf("%d txs recorded, want %d", len(rep.Txs), workers*each)
	}
}

// TestOperatorChaos: game servers as the package documentation says they behave (roll back
// a debit whose outcome is unknown; retry a credit or rollback with its tx id until it is
// answered) against a wallet that holds, fails and loses calls at random. At the end the
// books add up, and the wallet's balance is what the game servers believe it is: the
// opening, less every debit answered OK, plus every credit.
func TestOperatorChaos(t *testing.T) {
	w := newWallet(t, Faults{SlowMS: 400, SlowP: 0.15, FailP: 0.15, LoseP: 0.15})
	w.player("ann", 5000)
	w.client.Timeout = 250 * time.Millisecond // held calls time out; others answer, even under -race on a busy machine
	const workers, each = 8, 12
	var mu sync.Mutex
	believed := baccarat.Money(5000)
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				d := debit(fmt.Sprintf("d-%d-%d", g, i), "ann", baccarat.Money(100+i))
				d.Round, d.Wager = uint64(g+1), uint64(i+1)
				delta, err := wager(w.client, d, baccarat.Money((g+i)%3)*d.Amount)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				believed += delta
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := w.srv.SetFaults(Faults{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.srv.Idle(ctx); err != nil { // calls still held land (and are refused, or were rolled back)
		t.Fatal(err)
	}
	rep := w.balanced()
	if rep.Players[0].Balance != believed {
		t.Fatalf("the wallet holds %d, the game servers believe %d", rep.Players[0].Balance, believed)
	}
	kinds := map[string]int{}
	for _, x := range rep.Txs {
		kinds[x.Kind+" "+x.Error]++
	}
	t.Logf("txs by kind and refusal: %v", kinds)
}

// wager is one bet as a game server places it: debit; on an unknown outcome roll back,
// retrying until answered; on OK credit the return, retrying until answered. It returns
// what the player's balance moved by, as the game server sees it.
func wager(c *seamless.Client, d seamless.DebitRequest, win baccarat.Money) (baccarat.Money, error) {
	ctx := context.Background()
	_, err := c.Debit(ctx, d)
	switch {
	case unknown(err):
		return 0, until(func() error { _, err := c.Rollback(ctx, rollback("r"+d.Tx[1:], d)); return err })
	case err != nil:
		return 0, nil // refused: nothing moved
	}
	return win - d.Amount, until(func() error { _, err := c.Credit(ctx, credit("c"+d.Tx[1:], d, win)); return err })
}

func until(call func() error) error {
	for range 200 {
		if err := call(); !unknown(err) {
			return err
		}
	}
	return errors.New("no answer after 200 tries")
}
