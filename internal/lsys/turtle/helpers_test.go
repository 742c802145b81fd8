package turtle

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// parseModules reads a test string like "F(2)+F[-(30)F]": symbols, each
// optionally followed by a parenthesised, comma-separated parameter list.
// It sets each symbol's arity in sys from the string.
func parseModules(t testing.TB, sys *lsys.System, src string) *lsys.String {
	t.Helper()
	s := &lsys.String{}
	seen := [256]bool{}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == ' ' {
			continue
		}
		var args []float64
		if i+1 < len(src) && src[i+1] == '(' {
			end := strings.IndexByte(src[i:], ')')
			if end < 0 {
				t.Fatalf("unclosed ( in %q", src)
			}
			for _, f := range strings.Split(src[i+2:i+end], ",") {
				v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
				if err != nil {
					t.Fatalf("bad parameter %q in %q", f, src)
				}
				args = append(args, v)
			}
			i += end
		}
		if seen[c] && int(sys.Arity[c]) != len(args) {
			t.Fatalf("symbol %q with %d and %d parameters in %q", c, sys.Arity[c], len(args), src)
		}
		seen[c] = true
		sys.Arity[c] = uint8(len(args))
		s.Syms = append(s.Syms, c)
		s.Params = append(s.Params, args...)
	}
	return s
}

// derive rewrites axiom n times with the non-parametric rules, for
// benchmarks and large tests (the derivation package is someone else's).
func derive(axiom string, rules map[byte]string, n int) []byte {
	cur := []byte(axiom)
	for range n {
		var next []byte
		for _, c := range cur {
			if r, ok := rules[c]; ok {
				next = append(next, r...)
			} else {
				next = append(next, c)
			}
		}
		cur = next
	}
	return cur
}

// randomString makes n random modules over alphabet with brackets and braces
// balanced except that some stay open at the end. Symbols in parametric
// get one parameter.
func randomString(rng *rand.Rand, sys *lsys.System, n int, alphabet, parametric string) *lsys.String {
	for _, c := range []byte(parametric) {
		sys.Arity[c] = 1
	}
	s := &lsys.String{Syms: make([]byte, 0, n)}
	depth, poly := 0, 0
	for len(s.Syms) < n {
		c := alphabet[rng.IntN(len(alphabet))]
		switch c {
		case ']':
			if depth == 0 {
				continue
			}
			depth--
		case '[':
			depth++
		case '}':
			if poly == 0 {
				continue
			}
			poly--
		case '{':
			poly++
		}
		s.Syms = append(s.Syms, c)
		if sys.Arity[c] > 0 {
			v := 0.2 + rng.Float64()
			if c != 'F' && c != 'f' && c != '!' {
				v = rng.Float64()*120 - 60
			}
			s.Params = append(s.Params, v)
		}
	}
	return s
}

// refTurtle is a plain sequential interpreter written from the package
// documentation with axis-angle rotations, as an independent check.
type refTurtle struct {
	p, h, l, u vec3
	w          float64
	c          int32
}

type refResult struct {
	segs  []Segment
	polys [][][3]float32
}

// rot rotates v about axis (right-handed) by deg degrees. The axis is
// normalised: Rodrigues' formula with a slightly long axis lengthens v, and
// the error compounds exponentially over thousands of turns.
func rot(v, axis vec3, deg float64) vec3 {
	s, c := math.Sincos(deg * math.Pi / 180)
	return rodrigues(v, axis.scale(1/math.Sqrt(dot(axis, axis))), c, s)
}

func reference(sys *lsys.System, s *lsys.String, winc float64) refResult {
	if winc == 0 {
		winc = max(sys.Width, 0) / 10
	}
	t := refTurtle{h: vec3{0, 1, 0}, l: vec3{-1, 0, 0}, u: vec3{0, 0, 1}, w: max(sys.Width, 0)}
	var stack []refTurtle
	var polys [][][3]float32
	var res refResult
	// cpfg's polygons: '.', F and f add the turtle's position to the
	// innermost open polygon, unless it is where the last vertex is.
	addVertex := func() {
		if k := len(polys) - 1; k >= 0 {
			if vs := polys[k]; len(vs) == 0 || vs[len(vs)-1] != t.p.f32() {
				polys[k] = append(vs, t.p.f32())
			}
		}
	}
	po := 0
	for _, c := range s.Syms {
		n := int(sys.Arity[c])
		has := n > 0
		var v float64
		if has {
			v = s.Params[po]
		}
		po += n
		ang := sys.Angle
		if has {
			ang = v
		}
		dist := sys.Step
		if has {
			dist = v
		}
		switch c {
		case 'F', 'G', 'f', 'g':
			a := t.p
			t.p = t.p.add(t.h.scale(dist))
			if c == 'F' || c == 'f' {
				addVertex()
			}
			if c == 'F' || c == 'G' {
				res.segs = append(res.segs, Segment{A: a.f32(), B: t.p.f32(), Width: float32(t.w), Color: uint16(t.c)})
				tv := vec3{sys.Tropism[0], sys.Tropism[1], sys.Tropism[2]}
				if ax := cross(t.h, tv); sys.Elasticity != 0 && dot(ax, ax) > 0 {
					n := math.Sqrt(dot(ax, ax))
					k := ax.scale(1 / n)
					deg := sys.Elasticity * n * 180 / math.Pi
					t.h, t.l, t.u = rot(t.h, k, deg), rot(t.l, k, deg), rot(t.u, k, deg)
				}
			}
		case '+', '-':
			if c == '-' {
				ang = -ang
			}
			t.h, t.l = rot(t.h, t.u, ang), rot(t.l, t.u, ang)
		case '&', '^':
			if c == '^' {
				ang = -ang
			}
			t.h, t.u = rot(t.h, t.l, ang), rot(t.u, t.l, ang)
		case '\\', '/':
			if c == '\\' {
				ang = -ang
			}
			t.l, t.u = rot(t.l, t.h, ang), rot(t.u, t.h, ang)
		case '|':
			t.h, t.l = t.h.scale(-1), t.l.scale(-1)
		case '$':
			if l := cross(vec3{0, 1, 0}, t.h); dot(l, l) > 1e-24 {
				t.l = l.scale(1 / math.Sqrt(dot(l, l)))
				t.u = cross(t.h, t.l)
			}
		case '[':
			stack = append(stack, t)
		case ']':
			t = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		case '!', '#':
			switch {
			case has:
				t.w = max(v, 0)
			case c == '!':
				t.w = max(t.w-winc, 0)
			default:
				t.w += winc
			}
		case '\'':
			if has {
				t.c = int32(min(max(math.Round(v), 0), 65535))
			} else {
				t.c = min(t.c+1, 65535)
			}
		case '{':
			polys = append(polys, nil)
		case '.':
			addVertex()
		case '}':
			vs := polys[len(polys)-1]
			polys = polys[:len(polys)-1]
			if len(vs) >= 3 {
				res.polys = append(res.polys, vs)
			}
		}
	}
	return res
}

func interpret(t testing.TB, sys *lsys.System, s *lsys.String, workers int) *Geometry {
	t.Helper()
	g, err := CPU{}.Interpret(context.Background(), sys, s, Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// sameAsReference compares g with the reference interpreter to within tol
// of the drawing's extent.
func sameAsReference(t *testing.T, sys *lsys.System, s *lsys.String, g *Geometry, tol float64) {
	t.Helper()
	ref := reference(sys, s, 0)
	if len(ref.segs) != len(g.Segments) {
		t.Fatalf("%d segments, reference has %d", len(g.Segments), len(ref.segs))
	}
	b := g.Stats.Bounds
	ext := 1.0
	for k := range 3 {
		ext = max(ext, float64(b.Max[k]-b.Min[k]))
	}
	eps := tol * ext
	near := func(what string, i int, a, b [3]float32) {
		for k := range 3 {
			if math.Abs(float64(a[k]-b[k])) > eps {
				t.Fatalf("%s %d: %v, reference %v", what, i, a, b)
			}
		}
	}
	for i, sg := range g.Segments {
		r := ref.segs[i]
		near("segment A", i, sg.A, r.A)
		near("segment B", i, sg.B, r.B)
		if math.Abs(float64(sg.Width-r.Width)) > 1e-5*max(1, float64(r.Width)) || sg.Color != r.Color {
			t.Fatalf("segment %d: width %v colour %d, reference %v %d", i, sg.Width, sg.Color, r.Width, r.Color)
		}
	}
	if len(ref.polys) != len(g.Polygons) {
		t.Fatalf("%d polygons, reference has %d", len(g.Polygons), len(ref.polys))
	}
	for i, pg := range g.Polygons {
		if int(pg.Count) != len(ref.polys[i]) {
			t.Fatalf("polygon %d: %d vertices, reference %d", i, pg.Count, len(ref.polys[i]))
		}
		for j, v := range g.PolyVerts[pg.First : pg.First+pg.Count] {
			near("polygon vertex", j, v, ref.polys[i][j])
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

// mustView is a named view for tests.
func mustView(name string) View {
	v, ok := namedView(name)
	if !ok {
		panic("no view " + name)
	}
	return v
}
