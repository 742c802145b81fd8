package turtle

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

const alphabet = "FFFFfG+-+-&^\\/|!#'[[]]X{.}"

// bigCases are strings of many chunks whose chunk boundaries fall inside
// branches, with and without the commands that are not linear.
func bigCases(t testing.TB) map[string]func() (*lsys.System, *lsys.String) {
	return map[string]func() (*lsys.System, *lsys.String){
		"random": func() (*lsys.System, *lsys.String) {
			sys := &lsys.System{Angle: 23, Step: 1, Width: 1}
			return sys, randomString(rand.New(rand.NewPCG(1, 2)), sys, 300_001, alphabet, "")
		},
		"random parametric": func() (*lsys.System, *lsys.String) {
			sys := &lsys.System{Angle: 23, Step: 1, Width: 1}
			return sys, randomString(rand.New(rand.NewPCG(3, 4)), sys, 250_000, alphabet, "F+&!")
		},
		"random tropism": func() (*lsys.System, *lsys.String) {
			sys := &lsys.System{Angle: 23, Step: 1, Width: 1, Tropism: [3]float64{0, -1, 0.2}, Elasticity: 0.05}
			return sys, randomString(rand.New(rand.NewPCG(5, 6)), sys, 200_000, alphabet+"$", "F/")
		},
		"plant": func() (*lsys.System, *lsys.String) {
			sys := &lsys.System{Angle: 22.5, Step: 1, Width: 1}
			str := derive("X", map[byte]string{'X': "F-[[X]+X]+F[+FX]-X", 'F': "FF"}, 7)
			return sys, &lsys.String{Syms: str}
		},
		"plant tropism": func() (*lsys.System, *lsys.String) {
			sys := &lsys.System{Angle: 22.5, Step: 1, Width: 1, Tropism: [3]float64{0, -1, 0}, Elasticity: 0.02}
			str := derive("A", map[byte]string{'A': "[&FL!A]/////'[&FL!A]///////'[&FL!A]", 'F': "S/////F", 'S': "FL", 'L': "['''^^{.-f.+f.+f.-|-f.+f.+f.}]"}, 7)
			return sys, &lsys.String{Syms: str}
		},
		"koch": func() (*lsys.System, *lsys.String) {
			sys := &lsys.System{Angle: 90, Step: 1}
			str := derive("F-F-F-F", map[byte]string{'F': "F-F+F+FF-F-F+F"}, 5)
			return sys, &lsys.String{Syms: str}
		},
	}
}

func TestWorkersAgree(t *testing.T) {
	for name, mk := range bigCases(t) {
		t.Run(name, func(t *testing.T) {
			sys, s := mk()
			if s.Len() < 2*chunkSize {
				t.Fatalf("only %d modules: too few chunks to test", s.Len())
			}
			g1 := interpret(t, sys, s, 1)
			for _, w := range []int{2, 3, 8} {
				if gw := interpret(t, sys, s, w); !reflect.DeepEqual(g1, gw) {
					t.Fatalf("workers %d: geometry differs from workers 1", w)
				}
			}
			sameAsReference(t, sys, s, g1, 1e-5)
			t.Logf("%d modules, %d segments, %d polygons, depth %d", s.Len(), len(g1.Segments), len(g1.Polygons), g1.Stats.MaxDepth)
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		src  string
		want error
	}{
		{"F]F", ErrUnbalanced},
		{"F[F]]", ErrUnbalanced},
		{"F}", ErrUnbalanced},
		{"{.}}", ErrUnbalanced},
		{"F(1e308)F(1e308)", ErrNonFinite},
		{"F(nan)", ErrNonFinite},
		{"!(inf)F", ErrNonFinite},
	}
	for _, tc := range tests {
		sys := &lsys.System{Angle: 90, Step: 1}
		s := parseModules(t, sys, tc.src)
		_, err := CPU{}.Interpret(context.Background(), sys, s, Options{})
		if !errors.Is(err, tc.want) {
			t.Errorf("%q: error %v, want %v", tc.src, err, tc.want)
		}
	}
	sys := &lsys.System{Angle: 90, Step: 1}
	s := parseModules(t, sys, "F(1)F(2)")
	s.Params = s.Params[:1]
	if _, err := (CPU{}).Interpret(context.Background(), sys, s, Options{}); !errors.Is(err, ErrParams) {
		t.Errorf("short parameters: error %v", err)
	}
	s.Params = []float64{1, 2, 3}
	if _, err := (CPU{}).Interpret(context.Background(), sys, s, Options{}); !errors.Is(err, ErrParams) {
		t.Errorf("extra parameters: error %v", err)
	}
	// A ']' that closes nothing deep in a long string is found across chunks.
	str := derive("X", map[byte]string{'X': "F[+X][-X]"}, 14)
	str = append(str, "]]"...)
	_, err := CPU{}.Interpret(context.Background(), &lsys.System{Step: 1}, &lsys.String{Syms: str}, Options{Workers: 2})
	if !errors.Is(err, ErrUnbalanced) {
		t.Errorf("trailing ']': error %v", err)
	}
}

func TestEmpty(t *testing.T) {
	sys := &lsys.System{Angle: 90, Step: 1}
	for _, src := range []string{"", "+-X[]"} {
		g := interpret(t, sys, parseModules(t, sys, src), 0)
		if len(g.Segments) != 0 || g.Stats.Bounds != (Box{}) {
			t.Fatalf("%q: %+v", src, g)
		}
	}
}

// Random strings, balanced or not, with random parameters, never panic.
// TestRandomStrings interprets random strings, balanced or not, with
// parameters that include 0, negatives, NaN, infinities and 1e300, and
// checks each result against what the string alone says: the error it
// must give, or the geometry's counts, lengths, widths, colours, depth,
// polygons and bounds.
func TestRandomStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var ok, failed int
	for i := range 3000 {
		n := rng.IntN(200)
		if i%100 == 0 {
			n = rng.IntN(3 * chunkSize)
		}
		syms := make([]byte, n)
		for k := range syms {
			syms[k] = alphabet[rng.IntN(len(alphabet))]
		}
		if i%2 == 0 { // balanced, so that most get past the bracket check
			syms = randomString(rng, &lsys.System{}, n, alphabet+"$", "").Syms
		}
		sys := &lsys.System{Angle: rng.Float64() * 90, Step: 1, Width: 1}
		if i%3 == 0 {
			sys.Tropism, sys.Elasticity = [3]float64{0, -1, 0}, 0.3
		}
		s := &lsys.String{Syms: syms}
		for _, c := range []byte("F+!'") {
			if rng.IntN(2) == 0 {
				sys.Arity[c] = uint8(1 + rng.IntN(2))
			}
		}
		for _, c := range syms {
			for range sys.Arity[c] {
				s.Params = append(s.Params, []float64{0, -1, 1e300, math.NaN(), math.Inf(1), 2.5}[rng.IntN(6)])
			}
		}
		workers := 1 + i%3
		g, err := CPU{}.Interpret(context.Background(), sys, s, Options{Workers: workers})
		w := expect(sys, s)
		if err != nil {
			failed++
			checkRandomError(t, i, w, err)
			continue
		}
		ok++
		if w.unbalanced || w.drawsWild {
			t.Fatalf("string %d (%q): no error, want one (unbalanced %v, a drawing move with a non-finite or huge parameter %v)",
				i, clip(syms), w.unbalanced, w.drawsWild)
		}
		checkRandomGeometry(t, i, w, g)
		if workers > 1 {
			g1, err := CPU{}.Interpret(context.Background(), sys, s, Options{Workers: 1})
			if err != nil || !reflect.DeepEqual(g, g1) {
				t.Fatalf("string %d: %d workers and 1 differ (err %v)", i, workers, err)
			}
		}
	}
	// Both paths must have been exercised, or the checks above checked nothing.
	t.Logf("%d strings interpreted, %d refused", ok, failed)
	if ok < 300 || failed < 300 {
		t.Fatalf("%d strings interpreted, %d refused: the generator no longer covers both", ok, failed)
	}
}

// expected is what a string alone says its interpretation must give.
type expected struct {
	modules, depth int
	unbalanced     bool // a ']' or '}' closes nothing
	wild           bool // some parameter is NaN, infinite or huge
	drawsWild      bool // an F or G moves by such a parameter
	closes         int  // '}' in the string
	opens          bool // a '{' in the string
	segs           []expectedSeg
}

type expectedSeg struct {
	length, width float64
	color         int32
}

func isWild(v float64) bool { return math.IsNaN(v) || math.Abs(v) > 1e30 }

// expect walks the string's symbols with a stack of widths and colours only
// (no geometry): the cheap half of the turtle, which the interpreter must
// agree with.
func expect(sys *lsys.System, s *lsys.String) expected {
	w := expected{modules: len(s.Syms)}
	type state struct {
		width float64
		color int32
	}
	cur := state{width: sys.Width}
	var stack []state
	polys, po := 0, 0
	for _, c := range s.Syms {
		n := int(sys.Arity[c])
		has := n > 0
		var v float64
		if has {
			v = s.Params[po]
			for _, p := range s.Params[po : po+n] {
				w.wild = w.wild || isWild(p)
			}
		}
		po += n
		switch c {
		case 'F', 'G':
			d := sys.Step
			if has {
				d = v
			}
			w.drawsWild = w.drawsWild || isWild(d)
			w.segs = append(w.segs, expectedSeg{math.Abs(d), cur.width, cur.color})
		case '[':
			stack = append(stack, cur)
			w.depth = max(w.depth, len(stack))
		case ']':
			if len(stack) == 0 {
				w.unbalanced = true
				continue
			}
			cur, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case '{':
			w.opens = true
			polys++
		case '}':
			w.closes++
			if polys--; polys < 0 {
				w.unbalanced = true
			}
		case '!', '#':
			switch {
			case has:
				cur.width = max(v, 0)
				if math.IsNaN(v) {
					cur.width = 0
				}
			case c == '!':
				cur.width = max(cur.width-sys.Width/10, 0)
			default:
				cur.width += sys.Width / 10
			}
		case '\'':
			if has {
				cur.color = int32(min(max(math.Round(v), 0), math.MaxUint16))
				if math.IsNaN(v) {
					cur.color = 0
				}
			} else {
				cur.color = min(cur.color+1, math.MaxUint16)
			}
		}
	}
	return w
}

// checkRandomError checks that a refused string deserved it, with the
// right error.
func checkRandomError(t *testing.T, i int, w expected, err error) {
	t.Helper()
	switch {
	case w.unbalanced:
		if !errors.Is(err, ErrUnbalanced) {
			t.Fatalf("string %d: unbalanced, got %v, want ErrUnbalanced", i, err)
		}
	case !errors.Is(err, ErrNonFinite):
		t.Fatalf("string %d: balanced, got %v, want ErrNonFinite or success", i, err)
	case !w.wild:
		// Small finite parameters over at most 3*chunkSize moves keep
		// every coordinate and width far inside float32.
		t.Fatalf("string %d: %v, but no parameter is NaN, infinite or huge", i, err)
	}
}

// checkRandomGeometry checks a successful interpretation against w.
func checkRandomGeometry(t *testing.T, i int, w expected, g *Geometry) {
	t.Helper()
	st := g.Stats
	if st.Modules != w.modules || st.Segments != len(g.Segments) || len(g.Segments) != len(w.segs) ||
		st.Polygons != len(g.Polygons) || st.MaxDepth != w.depth {
		t.Fatalf("string %d: stats %+v with %d segments and %d polygons; want %d modules, %d segments (its F and G), depth %d",
			i, st, len(g.Segments), len(g.Polygons), w.modules, len(w.segs), w.depth)
	}
	inf := float32(math.Inf(1))
	lo, hi := [3]float32{inf, inf, inf}, [3]float32{-inf, -inf, -inf}
	for k, sg := range g.Segments {
		e := w.segs[k]
		if !finitePoint(sg.A) || !finitePoint(sg.B) || !finite(sg.Width) {
			t.Fatalf("string %d: segment %d %v..%v width %g: not finite", i, k, sg.A, sg.B, sg.Width)
		}
		mag := 1.0
		for c := range 3 {
			mag = max(mag, math.Abs(float64(sg.A[c])), math.Abs(float64(sg.B[c])))
		}
		d := [3]float64{float64(sg.B[0] - sg.A[0]), float64(sg.B[1] - sg.A[1]), float64(sg.B[2] - sg.A[2])}
		if got := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]); math.Abs(got-e.length) > 1e-6*mag {
			t.Fatalf("string %d: segment %d is %g long, its move says %g", i, k, got, e.length)
		}
		if math.Abs(float64(sg.Width)-e.width) > 1e-5*max(1, e.width) || sg.Color != uint16(e.color) {
			t.Fatalf("string %d: segment %d width %g colour %d, want %g and %d", i, k, sg.Width, sg.Color, e.width, e.color)
		}
		lo, hi = grow(lo, hi, sg.A)
		lo, hi = grow(lo, hi, sg.B)
	}
	checkRandomPolygons(t, i, w, g)
	for _, v := range g.PolyVerts {
		lo, hi = grow(lo, hi, v)
	}
	if len(g.Segments) == 0 && len(g.PolyVerts) == 0 {
		lo, hi = [3]float32{}, [3]float32{}
	}
	if st.Bounds != (Box{Min: lo, Max: hi}) {
		t.Fatalf("string %d: bounds %v, want the box of every end point and vertex %v..%v", i, st.Bounds, lo, hi)
	}
}

// checkRandomPolygons: polygons only where the string has '{', at most one
// per '}', each of at least three finite vertices, no two consecutive ones
// the same point, laid out one after another in PolyVerts.
func checkRandomPolygons(t *testing.T, i int, w expected, g *Geometry) {
	t.Helper()
	if (!w.opens && len(g.Polygons) > 0) || len(g.Polygons) > w.closes {
		t.Fatalf("string %d: %d polygons from %d '}' (a '{': %v)", i, len(g.Polygons), w.closes, w.opens)
	}
	next := int32(0)
	for k, pg := range g.Polygons {
		if pg.First != next || pg.Count < 3 {
			t.Fatalf("string %d: polygon %d is %+v, want First %d and Count >= 3", i, k, pg, next)
		}
		next += pg.Count
		vs := g.PolyVerts[pg.First : pg.First+pg.Count]
		for j, v := range vs {
			if !finitePoint(v) || (j > 0 && samePoint(vs[j-1], v)) {
				t.Fatalf("string %d: polygon %d vertex %d %v: not finite, or the previous one again", i, k, j, v)
			}
		}
	}
	if int(next) != len(g.PolyVerts) {
		t.Fatalf("string %d: polygons cover %d of %d vertices", i, next, len(g.PolyVerts))
	}
}

func finitePoint(p [3]float32) bool { return finite(p[0]) && finite(p[1]) && finite(p[2]) }

func clip(b []byte) string { return string(b[:min(len(b), 80)]) }

func FuzzInterpret(f *testing.F) {
	f.Add([]byte("F[+F]F[-F]F"), 25.0, false)
	f.Add([]byte("]{.}}'!#$"), 90.0, true)
	f.Fuzz(func(t *testing.T, syms []byte, angle float64, tropism bool) {
		sys := &lsys.System{Angle: angle, Step: 1, Width: 1}
		if tropism {
			sys.Tropism, sys.Elasticity = [3]float64{1, 0, 0}, 0.5
		}
		s := &lsys.String{Syms: syms}
		g, err := CPU{}.Interpret(context.Background(), sys, s, Options{})
		if err != nil {
			return
		}
		if len(g.Segments) != g.Stats.Segments {
			t.Fatalf("stats %+v for %d segments", g.Stats, len(g.Segments))
		}
	})
}

func TestCancelAndProgress(t *testing.T) {
	sys := &lsys.System{Angle: 22.5, Step: 1}
	s := &lsys.String{Syms: derive("X", map[byte]string{'X': "F-[[X]+X]+F[+FX]-X", 'F': "FF"}, 7)}
	var calls int
	var last, total int64
	_, err := CPU{}.Interpret(context.Background(), sys, s, Options{Workers: 2, Progress: func(d, n int64) {
		calls++
		if d < last {
			t.Errorf("progress went back from %d to %d", last, d)
		}
		last, total = d, n
	}})
	if err != nil || last != int64(s.Len()) || total != int64(s.Len()) || calls < 2 {
		t.Fatalf("err %v, progress %d/%d in %d calls", err, last, total, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (CPU{}).Interpret(ctx, sys, s, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: error %v", err)
	}
}
