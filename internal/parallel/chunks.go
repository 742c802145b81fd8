// Package parallel holds the multi-core CPU primitives the CPU backends share,
// and which are the CPU twins of internal/gpu's device primitives: exclusive
// scan, stable compaction and reductions.
package parallel

import (
	"runtime"
	"sync"
)

// minChunk is the smallest amount of work worth a goroutine: below it the
// cost of starting and joining one exceeds the work.
const minChunk = 1 << 15

// Chunks splits [0, n) into at most GOMAXPROCS contiguous ranges of at least
// grain elements and returns their bounds: range i is [b[i], b[i+1]).
func Chunks(n, grain int) []int { return ChunksN(n, grain, runtime.GOMAXPROCS(0)) }

// ChunksN is Chunks with at most workers ranges.
func ChunksN(n, grain, workers int) []int {
	if grain < 1 {
		grain = 1
	}
	k := workers
	if maxK := n / grain; maxK < k {
		k = maxK
	}
	if k < 1 {
		k = 1
	}
	b := make([]int, k+1)
	for i := 0; i <= k; i++ {
		b[i] = int(int64(n) * int64(i) / int64(k))
	}
	return b
}

// For runs fn over the ranges of Chunks(n, grain) in parallel and waits. fn
// gets the range's index too, so callers can keep per-range results without
// locks; the ranges, and so any per-range result, depend only on n, grain and
// GOMAXPROCS.
func For(n, grain int, fn func(chunk, lo, hi int)) { ForN(n, grain, runtime.GOMAXPROCS(0), fn) }

// ForN is For with at most workers ranges, for callers that must show their
// result does not depend on the split.
func ForN(n, grain, workers int, fn func(chunk, lo, hi int)) {
	b := ChunksN(n, grain, workers)
	if len(b) == 2 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for i := 0; i+1 < len(b); i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			fn(i, b[i], b[i+1])
		}(i)
	}
	wg.Wait()
}
