package turtle

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/ctxtest"
)

// bigGeometry is n short segments and n quads scattered over a unit cube.
func bigGeometry(n int) *Geometry {
	rng := newRand(5)
	g := &Geometry{Segments: make([]Segment, n), Polygons: make([]Polygon, n), PolyVerts: make([][3]float32, 0, 4*n)}
	p := func() [3]float32 { return [3]float32{rng.Float32(), rng.Float32(), rng.Float32()} }
	for i := range g.Segments {
		a := p()
		g.Segments[i] = Segment{A: a, B: [3]float32{a[0] + 0.01, a[1] + 0.02, a[2]}, Width: 0.002, Color: uint16(i % 4)}
	}
	for i := range g.Polygons {
		a := p()
		g.Polygons[i] = Polygon{First: int32(len(g.PolyVerts)), Count: 4, Color: uint16(i % 3)}
		g.PolyVerts = append(g.PolyVerts, a, [3]float32{a[0] + 0.01, a[1], a[2]},
			[3]float32{a[0] + 0.01, a[1] + 0.01, a[2]}, [3]float32{a[0], a[1] + 0.01, a[2]})
	}
	return g
}

// TestCancelLatency cancels the OBJ and GLB writers and the preview
// renderer part way through a large geometry and wants them back with
// context.Canceled within ctxtest.Limit. Each had a loop over all segments
// or all polygons that never looked at the context (2.0 s for a write, 1.6 s
// for a preview, on 2 loaded cores).
func TestCancelLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("draws and writes two million segments and polygons")
	}
	g := bigGeometry(2_000_000)
	cases := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"obj tubes", func(ctx context.Context) error {
			return writeOBJ(ctx, io.Discard, g, objOptions{Sides: 8, Caps: true, Normals: true, MTLLib: "m.mtl"})
		}},
		{"obj lines", func(ctx context.Context) error {
			return writeOBJ(ctx, io.Discard, g, objOptions{})
		}},
		{"glb", func(ctx context.Context) error {
			return writeGLB(ctx, io.Discard, g, glbOptions{Caps: true})
		}},
		{"preview", func(ctx context.Context) error {
			_, err := Render(ctx, g, RenderOptions{Width: 2048, Height: 2048, View: mustView("front"), WidthScale: 20})
			return err
		}},
	}
	for _, c := range cases {
		for _, d := range []time.Duration{100 * time.Millisecond, 400 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s after %v", c.name, d), func(t *testing.T) {
				ctxtest.Latency(t, d, c.run)
			})
		}
	}
}
