package pga

import (
	"context"
	"errors"
	"testing"
)

// CompileCUDA reports its work on the lots' polygons (roofs, cuts, slabs,
// tiles) to the end, and a cancelled context stops it with its error
// before that work is done.
func TestCompileCUDAProgressAndStop(t *testing.T) {
	lots := polygonLots(200, 3)
	for _, c := range footprintGrammars {
		if c.name != "tiles" {
			continue
		}
		g, _ := footprintCase(t, c.name, c.src, c.kind, lots)
		var last, total, calls int64
		if _, err := CompileCUDA(context.Background(), g, func(done, n int64) { last, total, calls = done, n, calls+1 }); err != nil {
			t.Fatal(err)
		}
		if total < 200 || last != total || calls < 2 {
			t.Fatalf("progress ended at %d of %d after %d calls, want the whole (at least a roof per lot)", last, total, calls)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		last = 0
		_, err := CompileCUDA(ctx, g, func(done, n int64) { last = done })
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled compile: %v, want context.Canceled", err)
		}
		if last != 0 {
			t.Fatalf("cancelled compile made %d items", last)
		}
		return
	}
	t.Fatal("no grammar \"tiles\" in footprintGrammars")
}
