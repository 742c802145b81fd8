package turtle

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

func pt(x, y, z float32) [3]float32 { return [3]float32{x, y, z} }

func TestShapes(t *testing.T) {
	tests := []struct {
		name  string
		angle float64
		src   string
		want  [][2][3]float32
	}{
		{"forward", 90, "FF", [][2][3]float32{{pt(0, 0, 0), pt(0, 1, 0)}, {pt(0, 1, 0), pt(0, 2, 0)}}},
		{"left is -X", 90, "+F", [][2][3]float32{{pt(0, 0, 0), pt(-1, 0, 0)}}},
		{"right is +X", 90, "-F", [][2][3]float32{{pt(0, 0, 0), pt(1, 0, 0)}}},
		{"square", 90, "F+F+F+F", [][2][3]float32{
			{pt(0, 0, 0), pt(0, 1, 0)}, {pt(0, 1, 0), pt(-1, 1, 0)},
			{pt(-1, 1, 0), pt(-1, 0, 0)}, {pt(-1, 0, 0), pt(0, 0, 0)}}},
		{"pitch down is -Z", 90, "&F", [][2][3]float32{{pt(0, 0, 0), pt(0, 0, -1)}}},
		{"pitch up is +Z", 90, "^F", [][2][3]float32{{pt(0, 0, 0), pt(0, 0, 1)}}},
		// Rolling left by 90° dips the left side: L becomes the old -U, so a
		// following left turn heads down (-Z).
		{"roll left then turn", 90, "\\+F", [][2][3]float32{{pt(0, 0, 0), pt(0, 0, -1)}}},
		{"roll right then turn", 90, "/+F", [][2][3]float32{{pt(0, 0, 0), pt(0, 0, 1)}}},
		{"turn around", 90, "F|F", [][2][3]float32{{pt(0, 0, 0), pt(0, 1, 0)}, {pt(0, 1, 0), pt(0, 0, 0)}}},
		{"move", 90, "fFg G", [][2][3]float32{{pt(0, 1, 0), pt(0, 2, 0)}, {pt(0, 3, 0), pt(0, 4, 0)}}},
		{"push pop", 90, "F[+F]F[-F]F", [][2][3]float32{
			{pt(0, 0, 0), pt(0, 1, 0)}, {pt(0, 1, 0), pt(-1, 1, 0)}, {pt(0, 1, 0), pt(0, 2, 0)},
			{pt(0, 2, 0), pt(1, 2, 0)}, {pt(0, 2, 0), pt(0, 3, 0)}}},
		{"parameters", 45, "F(2)+(90)F(3)-(90)F(0.5)", [][2][3]float32{
			{pt(0, 0, 0), pt(0, 2, 0)}, {pt(0, 2, 0), pt(-3, 2, 0)}, {pt(-3, 2, 0), pt(-3, 2.5, 0)}}},
		{"unclosed bracket", 90, "F[+F", [][2][3]float32{{pt(0, 0, 0), pt(0, 1, 0)}, {pt(0, 1, 0), pt(-1, 1, 0)}}},
		{"ignored symbols", 90, "XAF%Y", [][2][3]float32{{pt(0, 0, 0), pt(0, 1, 0)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sys := &lsys.System{Angle: tc.angle, Step: 1, Width: 1}
			s := parseModules(t, sys, tc.src)
			g := interpret(t, sys, s, 1)
			if len(g.Segments) != len(tc.want) {
				t.Fatalf("%d segments %v, want %d", len(g.Segments), g.Segments, len(tc.want))
			}
			for i, w := range tc.want {
				sg := g.Segments[i]
				for k := range 3 {
					if math.Abs(float64(sg.A[k]-w[0][k])) > 1e-6 || math.Abs(float64(sg.B[k]-w[1][k])) > 1e-6 {
						t.Fatalf("segment %d: %v -> %v, want %v -> %v", i, sg.A, sg.B, w[0], w[1])
					}
				}
			}
			sameAsReference(t, sys, s, g, 1e-6)
		})
	}
}

// A quadratic Koch island (ABOP section 1.3) lands on exact integers and
// closes on itself.
func TestKochIsland(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	str := derive("F-F-F-F", map[byte]string{'F': "F-F+F+FF-F-F+F"}, 3)
	s := &lsys.String{Syms: str}
	g := interpret(t, sys, s, 4)
	if want := 4 * 8 * 8 * 8; len(g.Segments) != want {
		t.Fatalf("%d segments, want %d", len(g.Segments), want)
	}
	for i, sg := range g.Segments {
		for k := range 3 {
			if sg.B[k] != float32(math.Round(float64(sg.B[k]))) {
				t.Fatalf("segment %d ends off the grid: %v", i, sg.B)
			}
		}
		if i > 0 && sg.A != g.Segments[i-1].B {
			t.Fatalf("segment %d does not continue the curve", i)
		}
	}
	if last := g.Segments[len(g.Segments)-1].B; last != pt(0, 0, 0) {
		t.Fatalf("the island does not close: ends at %v", last)
	}
	sameAsReference(t, sys, s, g, 1e-6)
}

func TestFrameStaysOrthonormal(t *testing.T) {
	f := startFrame()
	for i := range 100000 {
		s, c := sincosDeg(float64(i%7) * 13.7)
		f.h, f.l = rot2(f.h, f.l, c, s)
		f.h, f.u = rot2(f.h, f.u, c, -s)
		f.l, f.u = rot2(f.l, f.u, c, s)
	}
	for _, v := range []vec3{f.h, f.l, f.u} {
		if math.Abs(dot(v, v)-1) > 1e-9 {
			t.Fatalf("frame drifted: %v", f)
		}
	}
	if u := cross(f.h, f.l); math.Abs(dot(u, f.u)-1) > 1e-9 {
		t.Fatalf("H × L != U: %v", f)
	}
}

func TestTropismBendsTowardsT(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1, Tropism: [3]float64{1, 0, 0}, Elasticity: 0.1}
	s := parseModules(t, sys, "FFFFFFFFFFFFFFFFFFFF")
	g := interpret(t, sys, s, 1)
	prevDX := float32(-1)
	for i, sg := range g.Segments {
		dx := sg.B[0] - sg.A[0]
		if dx < prevDX || sg.B[2] != 0 {
			t.Fatalf("segment %d does not bend further towards +X: %v", i, sg)
		}
		prevDX = dx
	}
	// The first step is straight; the bend starts after it. The heading
	// converges on T.
	if g.Segments[0].B != pt(0, 1, 0) || g.Segments[1].B[0] <= 0 {
		t.Fatalf("first segments %v", g.Segments[:2])
	}
	if last := g.Segments[len(g.Segments)-1]; last.B[0]-last.A[0] < 0.9 {
		t.Fatalf("heading after 20 steps %v, want close to +X", last)
	}
	sameAsReference(t, sys, s, g, 1e-6)
}

func TestLevel(t *testing.T) {
	sys := &lsys.System{Angle: 30, Step: 1}
	// Tilt and roll the turtle arbitrarily, level it, then turn: a turn
	// about a vertical-ish U after $ keeps L horizontal.
	s := parseModules(t, sys, "&\\\\+&$F")
	sameAsReference(t, sys, s, interpret(t, sys, s, 1), 1e-6)
	f := startFrame()
	f.h, f.u = rot2(f.h, f.u, math.Cos(0.5), math.Sin(0.5))
	f.l, f.u = rot2(f.l, f.u, math.Cos(1), math.Sin(1))
	f.l, f.u = level(f.h, f.l, f.u)
	if math.Abs(f.l.y) > 1e-12 || f.u.y < 0 {
		t.Fatalf("after $: L %v U %v", f.l, f.u)
	}
}

func TestWidthAndColor(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1, Width: 2}
	s := parseModules(t, sys, "F!F!F#F'F''F")
	g := interpret(t, sys, s, 1)
	wantW := []float32{2, 1.8, 1.6, 1.8, 1.8, 1.8}
	wantC := []uint16{0, 0, 0, 0, 1, 3}
	for i, sg := range g.Segments {
		if math.Abs(float64(sg.Width-wantW[i])) > 1e-6 || sg.Color != wantC[i] {
			t.Fatalf("segment %d: width %v colour %d, want %v %d", i, sg.Width, sg.Color, wantW[i], wantC[i])
		}
	}
	sys = &lsys.System{Angle: 90, Step: 1, Width: 2}
	s = parseModules(t, sys, "!(5)F'(7)F!(-1)F[!(3)'(2)F]F'(1e9)F")
	g = interpret(t, sys, s, 1)
	wantW = []float32{5, 5, 0, 3, 0, 0}
	wantC = []uint16{0, 7, 7, 2, 7, 65535}
	for i, sg := range g.Segments {
		if sg.Width != wantW[i] || sg.Color != wantC[i] {
			t.Fatalf("segment %d: width %v colour %d, want %v %d", i, sg.Width, sg.Color, wantW[i], wantC[i])
		}
	}
}

func TestPolygons(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	// A leaf: a polygon opened inside a branch and closed outside it (ABOP
	// fig. 5.5 style), a nested polygon, a too-small one, a stray '.'.
	s := parseModules(t, sys, ".{.f.+f[{.f.+f.}].+f.}{.f.}'{.f.")
	g := interpret(t, sys, s, 1)
	if len(g.Polygons) != 2 || len(g.Segments) != 0 {
		t.Fatalf("polygons %v", g.Polygons)
	}
	inner := g.PolyVerts[g.Polygons[0].First:][:g.Polygons[0].Count]
	outer := g.PolyVerts[g.Polygons[1].First:][:g.Polygons[1].Count]
	if len(inner) != 3 || len(outer) != 4 {
		t.Fatalf("inner %v outer %v", inner, outer)
	}
	if outer[0] != pt(0, 0, 0) || outer[1] != pt(0, 1, 0) || outer[2] != pt(-1, 1, 0) || outer[3] != pt(-1, 0, 0) {
		t.Fatalf("outer polygon %v", outer)
	}
	if g.Stats.Bounds.Min != pt(-2, 0, 0) || g.Stats.Bounds.Max != pt(0, 1, 0) {
		t.Fatalf("bounds %v", g.Stats.Bounds)
	}
	sameAsReference(t, sys, s, g, 1e-6)
}
