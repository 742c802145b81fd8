package pga

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/ctxtest"
)

// TestEncodeCancelLatency cancels the mesh writers part way through a large
// city and wants them back with context.Canceled within ctxtest.Limit: they
// format a whole core's share of a mesh between two looks at the context
// no more (3.1 s measured for OBJ on 2 loaded cores).
func TestEncodeCancelLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("meshes 1.5M boxes")
	}
	g, city := city(t)
	var boxes []TerminalShape
	for _, s := range city {
		if s.Kind == Box {
			boxes = append(boxes, s)
		}
	}
	if len(boxes) == 0 {
		t.Fatal("the city has no boxes")
	}
	// One name, so one mesh: a core's share of it was formatted whole.
	ts := make([]TerminalShape, 0, 1_500_000)
	for len(ts)+len(boxes) <= cap(ts) {
		ts = append(ts, boxes...)
	}
	cases := []struct {
		name   string
		encode func(ctx context.Context) error
	}{
		{"obj", func(ctx context.Context) error { return writeOBJ(ctx, io.Discard, g, ts, "c.mtl", nil) }},
		{"glb", func(ctx context.Context) error { return writeGLB(ctx, io.Discard, g, ts, nil) }},
	}
	// Two delays: the cancel lands in the grouping and counting, then in
	// the formatting.
	for _, c := range cases {
		for _, d := range []time.Duration{200 * time.Millisecond, 700 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s after %v", c.name, d), func(t *testing.T) {
				ctxtest.Latency(t, d, c.encode)
			})
		}
	}
}
