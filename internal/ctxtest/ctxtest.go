// Package ctxtest measures how soon work stops once its context is
// cancelled, on a loaded machine: the house rule is that Ctrl-C ends every
// phase within a second, and a check that is only ever run on an idle
// many-core machine hides loops that look at the context too rarely.
package ctxtest

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Procs is the GOMAXPROCS the measurement runs under: the 2 cores of the
// smallest machine the promise is made for.
const Procs = 2

// Limit is the longest a cancelled call may take to return.
const Limit = time.Second

// Latency runs work with a context that is cancelled after delay, while a
// goroutine spins on one of Procs processors, and returns how long work took
// to return after the cancel. The test fails when work returns before the
// cancel (the input is too small to show anything), returns an error that
// is not context.Canceled, or takes longer than Limit.
func Latency(t testing.TB, delay time.Duration, work func(ctx context.Context) error) time.Duration {
	t.Helper()
	old := runtime.GOMAXPROCS(Procs)
	defer runtime.GOMAXPROCS(old)
	var stop atomic.Bool
	var spin sync.WaitGroup
	spin.Add(1)
	go func() {
		defer spin.Done()
		for n := 0; !stop.Load(); n++ {
			_ = n
		}
	}()
	defer func() { stop.Store(true); spin.Wait() }()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- work(ctx) }()
	var err error
	select {
	case err = <-done:
		t.Fatalf("work returned after less than %v (err %v): make the input larger", delay, err)
	case <-time.After(delay):
	}
	cancel()
	cancelled := time.Now()
	select {
	case err = <-done:
	case <-time.After(10 * Limit):
		t.Fatalf("work still running %v after the cancel", 10*Limit)
	}
	took := time.Since(cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled work returned %v, want context.Canceled", err)
	}
	if took > Limit {
		t.Errorf("cancelled work took %v to return, over %v", took, Limit)
	}
	t.Logf("returned %v after the cancel (GOMAXPROCS %d, one processor busy)", took.Round(time.Millisecond), Procs)
	return took
}
