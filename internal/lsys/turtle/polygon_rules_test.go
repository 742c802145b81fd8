package turtle

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// TestFig125Leaves: configs/lsys/bush-fig125.l (ABOP fig. 1.25): every leaf is one polygon of six vertices, traced by
// the f moves inside its braces, as cpfg draws it.
func TestFig125Leaves(t *testing.T) {
	sys, err := syntax.ParseFile("../../../configs/lsys/bush-fig125.l")
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: -1})
	if err != nil {
		t.Fatal(err)
	}
	leaves := bytes.Count(d.String.Syms, []byte{'{'})
	if leaves < 100 {
		t.Fatalf("%d leaves", leaves)
	}
	for _, workers := range []int{1, 4} {
		g := interpret(t, sys, d.String, workers)
		if len(g.Polygons) != leaves {
			t.Fatalf("%d polygons for %d leaves", len(g.Polygons), leaves)
		}
		for i, pg := range g.Polygons {
			if pg.Count != 6 {
				t.Fatalf("leaf %d has %d vertices, want 6", i, pg.Count)
			}
			// The leaf is closed: its last f returns to where it began,
			// and its first vertex is one step from there.
			vs := g.PolyVerts[pg.First : pg.First+pg.Count]
			if dist(vs[5], vs[2]) < 1.5 || dist(vs[0], vs[5]) > 1.01 {
				t.Fatalf("leaf %d: %v", i, vs)
			}
		}
		if workers == 1 {
			sameAsReference(t, sys, d.String, g, 1e-6)
		}
	}
}

func dist(a, b [3]float32) float64 {
	var s float64
	for k := range 3 {
		s += float64(a[k]-b[k]) * float64(a[k]-b[k])
	}
	return math.Sqrt(s)
}

// TestPolygonMoves: inside braces F and f add the position they reach, G
// and g add nothing, '.' adds the position; a vertex where the last one is
// adds nothing; outside braces nothing is recorded.
func TestPolygonMoves(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	for _, tc := range []struct {
		src   string
		verts [][3]float32
		segs  int
	}{
		{"{f+f+f}", [][3]float32{pt(0, 1, 0), pt(-1, 1, 0), pt(-1, 0, 0)}, 0},
		{"{.f.+f.+f.}", [][3]float32{pt(0, 0, 0), pt(0, 1, 0), pt(-1, 1, 0), pt(-1, 0, 0)}, 0},
		{"{F+F+F}", [][3]float32{pt(0, 1, 0), pt(-1, 1, 0), pt(-1, 0, 0)}, 3},
		{"{.G+G.+g.+g.}", [][3]float32{pt(0, 0, 0), pt(-1, 1, 0), pt(-1, 0, 0), pt(0, 0, 0)}, 2},
		{"f{G+G+G}", nil, 3}, // no vertex: an empty polygon
		{"F+{f(0).f(0)}", nil, 1},
	} {
		s := parseModules(t, sys, tc.src)
		g := interpret(t, sys, s, 1)
		if len(g.Segments) != tc.segs {
			t.Errorf("%s: %d segments, want %d", tc.src, len(g.Segments), tc.segs)
		}
		if tc.verts == nil {
			if len(g.Polygons) != 0 {
				t.Errorf("%s: %d polygons, want none", tc.src, len(g.Polygons))
			}
			continue
		}
		if len(g.Polygons) != 1 || !equalVerts(g.PolyVerts, tc.verts) {
			t.Errorf("%s: polygons %v vertices %v, want %v", tc.src, g.Polygons, g.PolyVerts, tc.verts)
		}
		sameAsReference(t, sys, s, g, 1e-6)
	}
}

func equalVerts(a, b [][3]float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		for k := range 3 {
			if d := a[i][k] - b[i][k]; d > 1e-6 || d < -1e-6 {
				return false
			}
		}
	}
	return true
}
