package batch

import (
	"runtime"
	"testing"
)

// TestSplitHoldsOneSnapshot: a board split over many parts allocates one
// snapshot for them all. Each part's evaluator used to allocate one of its
// own that nothing read: 16 parts of a 2^31-cell board would have asked
// for 16 x 8 GiB more than the run was sized for.
func TestSplitHoldsOneSnapshot(t *testing.T) {
	const w, h, parts = 1024, 1024, 8
	p := compileConfig(t, "life.rules", map[string]string{"W": "1024", "H": "1024"})
	board := uint64(w * h * 4)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := NewSplit(p, nil, parts, MinSplit)
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	if got := after.TotalAlloc - before.TotalAlloc; got > 2*board {
		t.Fatalf("a split of %d parts allocated %d bytes: more than twice the board's %d", parts, got, board)
	}
}
