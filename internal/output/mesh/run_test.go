package mesh

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestEachOrdered: then runs in order of i after its fn, while later fns
// still run; a failure of fn (at any index) or of then ends the run with
// that error and without a hang; a cancelled context ends it too.
func TestEachOrdered(t *testing.T) {
	var order []int
	var ran atomic.Int64
	err := eachOrdered(context.Background(), 4, 50, func(i int) error {
		time.Sleep(time.Duration((50-i)%7) * time.Millisecond) // later ones often finish first
		ran.Add(1)
		return nil
	}, func(i int) error {
		order = append(order, i)
		return nil
	})
	if err != nil || ran.Load() != 50 {
		t.Fatalf("err %v, %d ran", err, ran.Load())
	}
	want := make([]int, 50)
	for i := range want {
		want[i] = i
	}
	if !slices.Equal(order, want) {
		t.Fatalf("then ran in order %v", order)
	}
	boom := errors.New("boom")
	for _, bad := range []int{0, 7, 49} {
		err := eachOrdered(context.Background(), 3, 50, func(i int) error {
			if i == bad {
				return boom
			}
			return nil
		}, func(i int) error {
			if i >= bad {
				t.Errorf("then(%d) ran after fn(%d) failed", i, bad)
			}
			return nil
		})
		if !errors.Is(err, boom) {
			t.Errorf("fn %d failing: err %v", bad, err)
		}
	}
	err = eachOrdered(context.Background(), 3, 50, func(int) error { return nil }, func(i int) error {
		if i == 5 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("then failing: err %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := eachOrdered(ctx, 2, 10, func(int) error { return nil }, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v", err)
	}
}
