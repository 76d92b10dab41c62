package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCoalescerReadsWhatIsAskedMeanwhileTogether: while one read is under way, the keys asked
// for wait and go in the next read together, at most max at a time and never two groups in
// one read; each caller gets its own key's value.
func TestCoalescerReadsWhatIsAskedMeanwhileTogether(t *testing.T) {
	gate := make(chan struct{})
	var mu sync.Mutex
	var reads [][]string
	c := &coalescer[string, string]{max: 40, limit: time.Minute,
		group: func(k string) string { return k[:1] },
		read: func(_ context.Context, keys []string) ([]string, error) {
			mu.Lock()
			reads = append(reads, append([]string(nil), keys...))
			first := len(reads) == 1
			mu.Unlock()
			if first {
				<-gate // the first read holds on until every other key is asked
			}
			out := make([]string, len(keys))
			for i, k := range keys {
				out[i] = "v" + k
			}
			return out, nil
		}}
	var wg sync.WaitGroup
	ask := func(k string) {
		defer wg.Done()
		v, err := c.get(t.Context(), k)
		if err != nil || v != "v"+k {
			t.Errorf("get(%s) = %q, %v", k, v, err)
		}
	}
	wg.Add(1)
	go ask("a-first")
	eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(reads) == 1 })
	for i := range 100 {
		wg.Add(2)
		go ask(fmt.Sprintf("a%d", i))
		go ask(fmt.Sprintf("b%d", i))
	}
	wg.Add(1)
	go ask("a-first") // asked again while it is being read: joins that read
	eventually(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return len(c.queued) == 200 })
	close(gate)
	wg.Wait()
	if len(reads) > 1+3+3 { // the first, then 100 a-keys and 100 b-keys, 40 at a time
		t.Errorf("%d reads for 202 asks: %v", len(reads), reads)
	}
	for _, r := range reads {
		if len(r) > 40 {
			t.Errorf("a read of %d keys", len(r))
		}
		for _, k := range r {
			if k[0] != r[0][0] {
				t.Errorf("two groups in one read: %v", r)
				break
			}
		}
	}
	eventually(t, func() bool { // the reading goroutine ends with nothing left
		c.mu.Lock()
		defer c.mu.Unlock()
		return !c.reading && len(c.loads) == 0
	})
}

// TestCoalescerGivesEveryWaiterTheReadsError, and a caller whose context ends stops waiting.
func TestCoalescerGivesEveryWaiterTheReadsError(t *testing.T) {
	boom := errors.New("store out of reach")
	c := &coalescer[string, int]{max: 10, limit: time.Minute,
		read: func(context.Context, []string) ([]int, error) { return nil, boom }}
	if _, err := c.get(t.Context(), "x"); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	block := make(chan struct{})
	defer close(block)
	slow := &coalescer[string, int]{max: 10, limit: time.Minute,
		read: func(context.Context, []string) ([]int, error) { <-block; return []int{1}, nil }}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := slow.get(ctx, "y"); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "cancel") {
		t.Fatalf("a cancelled caller: %v", err)
	}
}

// eventually waits until ok, failing the test after a minute.
func eventually(t *testing.T, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("timed out waiting")
		}
	}
}
