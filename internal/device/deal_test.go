package device

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// Every job runs once, on some worker; the failures come back, each once.
func TestDealRunsEveryJobOnce(t *testing.T) {
	const n = 100
	var ran [n]atomic.Int32
	finished := 0
	errs := Deal(context.Background(), []int{0, 1, 2}, n, func(_, j int) error {
		ran[j].Add(1)
		if j%10 == 7 {
			return fmt.Errorf("job %d", j)
		}
		return nil
	}, func(int, error) { finished++ })
	for j := range ran {
		if got := ran[j].Load(); got != 1 {
			t.Fatalf("job %d ran %d times", j, got)
		}
	}
	if finished != n || len(errs) != n/10 {
		t.Fatalf("finished %d of %d, %d errors", finished, n, len(errs))
	}
}

// After a cancellation no job starts, and the cancellation is the error.
func TestDealCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran atomic.Int32
	errs := Deal(ctx, []int{0, 1}, 1000, func(int, int) error { ran.Add(1); return nil }, func(int, error) {})
	// The queue's select picks at random among ready cases: it may hand out
	// a few jobs before it sees ctx.Done, but not a hundred (p = 2^-100).
	if ran.Load() >= 100 || len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
		t.Fatalf("ran %d jobs, errors %v", ran.Load(), errs)
	}
}
