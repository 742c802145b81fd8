package shard

import (
	"fmt"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules"
)

// Owned keeps the items of a batch that shard sh owns, slot giving each
// item's position in the batch.
func Owned[T any](sh Shard, items []T, slot func(T) int) []T {
	var own []T
	for _, it := range items {
		if sh.Owns(slot(it)) {
			own = append(own, it)
		}
	}
	return own
}

// Frames keeps the frames of an animation that are this shard's: frame i of
// the run (whatever its time or file number) is item i of the batch. Each
// frame's image depends on its genome and the seed only, so a frame
// rendered by any shard is the frame one run writes.
func Frames(times []float64, numbers []int, sh Shard) ([]float64, []int) {
	if !sh.Active() {
		return times, numbers
	}
	var t []float64
	var n []int
	for i := range times {
		if sh.Owns(i) {
			t, n = append(t, times[i]), append(n, numbers[i])
		}
	}
	return t, n
}

// Range is the items [lo, hi) of shard sh of n items cut into Count
// contiguous ranges in shard order (rules run's states, whose CSV rows
// concatenate in shard order into one run's).
func Range(n int, sh Shard) (lo, hi int) {
	if !sh.Active() {
		return 0, n
	}
	lo = int(int64(n) * int64(sh.Index) / int64(sh.Count))
	hi = int(int64(n) * int64(sh.Index+1) / int64(sh.Count))
	return lo, hi
}

// RulesStates is shard sh's Range of the states (sharing st's words).
func RulesStates(st *rules.States, sh Shard) *rules.States {
	lo, hi := Range(st.N, sh)
	if lo == 0 && hi == st.N {
		return st
	}
	return &rules.States{N: hi - lo, Words: st.Words, Data: st.Data[lo*st.Words : hi*st.Words]}
}

// PartPath is pattern with the shard's index for its one printf verb
// (final.%03d.csv), so the tasks of an array, which share one command line,
// write distinct files; ok is false unless pattern has exactly such a verb.
func PartPath(pattern string, sh Shard) (path string, ok bool) {
	a, b := fmt.Sprintf(pattern, 0), fmt.Sprintf(pattern, 1)
	if !strings.Contains(pattern, "%") || a == b || strings.Contains(a, "%!") {
		return "", false
	}
	return fmt.Sprintf(pattern, sh.Index), true
}
