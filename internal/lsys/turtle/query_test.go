package turtle

import (
	"context"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// pruneSrc grows a bush inside a circle of radius 2.5, as ABOP's fig. 1.40
// prunes a tree to a shape: a bud A grows while the ?P after it says it is
// inside, and becomes a dead bud B outside. Each growing bud puts new buds
// (each with its own ?P) to its left, right and front, one unit away.
const pruneSrc = `angle: 90
axiom: F A ?P(0,0)
A > ?P(x,y) : x*x + y*y <= 6.25 --> [+F A ?P(0,0)] [-F A ?P(0,0)] F A
A > ?P(x,y) : x*x + y*y > 6.25 --> B
`

func deriveQueries(t *testing.T, src string, n int, seed uint64) *lsys.String {
	t.Helper()
	sys, err := syntax.Parse("q.l", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: n, Seed: seed, Env: Queries{}})
	if err != nil {
		t.Fatal(err)
	}
	return d.String
}

// queryValues lists the parameters of every module sym in s, in order.
func queryValues(s *lsys.String, arity *[256]uint8, sym lsys.Symbol) [][]float64 {
	var out [][]float64
	po := 0
	for _, c := range s.Syms {
		n := int(arity[c])
		if c == sym {
			out = append(out, append([]float64(nil), s.Params[po:po+n]...))
		}
		po += n
	}
	return out
}

func TestQueryPrunesToCircle(t *testing.T) {
	sys, err := syntax.Parse("q.l", []byte(pruneSrc))
	if err != nil {
		t.Fatal(err)
	}
	// Worked by hand. w0 = F A ?P: the bud stands at (0,1) heading +Y.
	// w1: buds at (-1,1) heading -X, (1,1) heading +X, (0,2) heading +Y.
	// w2: each grows left, right and ahead: (-1,0) (-1,2) (-2,1), then
	// (1,2) (1,0) (2,1), then (-1,2) (1,2) (0,3), in string order. In
	// w3 the bud at (0,3) (r² = 9) is outside and dies; the other eight
	// (r² 1 or 5) grow three buds each.
	want := map[int][][]float64{
		0: {{0, 1}},
		1: {{-1, 1}, {1, 1}, {0, 2}},
		2: {{-1, 0}, {-1, 2}, {-2, 1}, {1, 2}, {1, 0}, {2, 1}, {-1, 2}, {1, 2}, {0, 3}},
	}
	for n, w := range want {
		got := queryValues(deriveQueries(t, pruneSrc, n, 1), &sys.Arity, lsys.SymQueryP)
		if len(got) != len(w) {
			t.Fatalf("w%d: %d query modules, want %d", n, len(got), len(w))
		}
		for i := range w {
			if math.Abs(got[i][0]-w[i][0]) > 1e-12 || math.Abs(got[i][1]-w[i][1]) > 1e-12 {
				t.Errorf("w%d: ?P #%d = %v, want %v", n, i, got[i], w[i])
			}
		}
	}
	s := deriveQueries(t, pruneSrc, 3, 1)
	count := map[byte]int{}
	for _, c := range s.Syms {
		count[c]++
	}
	if count['A'] != 24 || count['B'] != 1 {
		t.Errorf("w3 has %d A and %d B, want 24 and 1 (eight buds grow, one is pruned)", count['A'], count['B'])
	}
}

// TestQueryVectors checks ?P, ?H, ?U and ?L against the interpreter's own
// geometry for a turtle turned in 3D: ?P is where the segment drawn just
// before ends, ?H its direction, and H, L, U an orthonormal frame with
// H × L = U. A two-parameter query gets the first two coordinates.
func TestQueryVectors(t *testing.T) {
	src := "axiom: &(30) +(45) /(20) F(2) ^(10) F(3) ?P(0,0,0) ?H(0,0,0) ?U(0,0,0) ?L(0,0,0)\n"
	sys, err := syntax.Parse("q.l", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := deriveQueries(t, src, 0, 1)
	g, err := CPU{}.Interpret(context.Background(), sys, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Segments) != 2 {
		t.Fatalf("%d segments, want 2", len(g.Segments))
	}
	seg := g.Segments[1]
	q := func(sym lsys.Symbol, k int) vec3 {
		v := queryValues(s, &sys.Arity, sym)[k]
		return vec3{v[0], v[1], v[2]}
	}
	p, h, u, l := q(lsys.SymQueryP, 0), q(lsys.SymQueryH, 0), q(lsys.SymQueryU, 0), q(lsys.SymQueryL, 0)
	end := vec3{float64(seg.B[0]), float64(seg.B[1]), float64(seg.B[2])}
	start := vec3{float64(seg.A[0]), float64(seg.A[1]), float64(seg.A[2])}
	near := func(what string, a, b vec3, tol float64) {
		if d := a.add(b.neg()); math.Sqrt(dot(d, d)) > tol {
			t.Errorf("%s = %v, want %v", what, a, b)
		}
	}
	near("?P", p, end, 1e-5) // the segment is float32
	near("?H", h, end.add(start.neg()).scale(1.0/3), 1e-5)
	near("H × L", cross(h, l), u, 1e-12)
	for _, c := range []struct {
		what string
		v    float64
	}{{"|H|", dot(h, h)}, {"|L|", dot(l, l)}, {"|U|", dot(u, u)}} {
		if math.Abs(c.v-1) > 1e-12 {
			t.Errorf("%s² = %v, want 1", c.what, c.v)
		}
	}
	if dot(h, l) > 1e-12 || dot(h, u) > 1e-12 {
		t.Errorf("frame not orthogonal: H·L %v, H·U %v", dot(h, l), dot(h, u))
	}
	if h.z == 0 || l.z == 0 {
		t.Errorf("the turtle never left the plane (H %v, L %v): the test checks nothing in 3D", h, l)
	}
	src2 := "axiom: &(30) +(45) /(20) F(2) ^(10) F(3) ?P(0,0)\n"
	sys2, err := syntax.Parse("q.l", []byte(src2))
	if err != nil {
		t.Fatal(err)
	}
	p2 := queryValues(deriveQueries(t, src2, 0, 1), &sys2.Arity, lsys.SymQueryP)
	if len(p2) != 1 || p2[0][0] != p.x || p2[0][1] != p.y {
		t.Errorf("?P(x,y) = %v, want the first two of %v", p2, p)
	}
}

func TestQueryNeedsEnvironment(t *testing.T) {
	sys, err := syntax.Parse("q.l", []byte(pruneSrc))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (lsys.CPU{}).Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 1}); err == nil {
		t.Fatal("a system with query modules derived without an environment")
	}
}
