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
func TestRandomStringsDoNotPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
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
		_, _ = CPU{}.Interpret(context.Background(), sys, s, Options{Workers: 1 + i%3})
	}
}

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
