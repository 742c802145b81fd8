package rules

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/progtest"
)

// drawPrograms are rule files that draw in every place a draw can sit: a
// let seen by the precondition and the consequence, the precondition, the
// consequence, repeats (nested), a scattered write's index, float and int
// ranges with constant and computed bounds.
var drawPrograms = map[string]string{
	"coin": `const N = 300
state { int c[N]; int heads }
rule flip over i in 0..N
  let u = rand()
  when u < 0.5
{ c[i] = int(u * 1000.0) + 1; heads += 1 }`,
	"walk": `const N = 40
state { int pos[N]; float t[N] = 1.0 }
rule step over i in 0..N {
  repeat 3 {
    pos[i] = pos[i] + uniform(-1, 1)
    repeat 2 { t[i] = t[i] * uniform(0.5, 1.5) }
  }
}`,
	"scatter": `const N = 64
state { int a[N]; int lo[N] ~ uniform(0, 5) }
rule drop over i in 0..N
  when rand() < 0.25
{
  a[uniform(0, N - 1)] = i + 1
  lo[i] = uniform(lo[i], lo[i] + 3)
}`,
	"fires-in-body": `const N = 17
state { int x[N] ~ uniform(0, 3) }
rule grow over i in 0..N
  when x[i] < 10
{ x[i] = x[i] + uniform(1, 4) }`,
}

func compileDraws(t *testing.T, name string) *Program {
	t.Helper()
	p, err := Compile(name+".rules", []byte(drawPrograms[name]), nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// TestDrawKey: a draw is rng.Key over (seed, step, rule, state, index,
// site<<32 | k), the definition the GPU kernels repeat.
func TestDrawKey(t *testing.T) {
	for _, c := range []struct {
		seed    uint64
		t, r, s int
		i       int32
		site    int
		k       uint32
	}{{1, 1, 0, 0, 0, 0, 0}, {99, 7, 3, 12345, -5, 255, 1 << 31}} {
		want := rng.Key(c.seed, uint64(c.t), uint64(c.r), uint64(c.s), uint64(uint32(c.i)), uint64(c.site)<<32|uint64(c.k))
		if got := bytecode.DrawBits(bytecode.StateKey(bytecode.RuleKey(c.seed, c.t, c.r), c.s), c.i, c.site, c.k); got != want {
			t.Errorf("%+v: %#x, want %#x", c, got, want)
		}
	}
	for _, c := range []struct{ u, n, want uint32 }{{0, 7, 0}, {math.MaxUint32, 7, 6}, {1 << 31, 10, 5}, {123, 0, 123}} {
		if got := bytecode.URange(c.u, c.n); got != c.want {
			t.Errorf("urange(%d, %d) = %d, want %d", c.u, c.n, got, c.want)
		}
	}
}

// TestDrawsMatchAcrossCPUPaths: the interpreter, the batch evaluator and
// the batch evaluator split over goroutines draw the same numbers.
func TestDrawsMatchAcrossCPUPaths(t *testing.T) {
	for name := range drawPrograms {
		p := compileDraws(t, name)
		for _, path := range []CPU{{Path: PathBatch}, {Path: PathBatch, parts: 3, minSplit: 1}} {
			o := Options{Steps: 6, Seed: 42, Trace: []int{1}}
			if ok, msg := pathAgrees(path, p, 5, 3, o); !ok {
				t.Errorf("%s: path %+v: %s", name, path, msg)
			}
		}
	}
}

// TestDrawsInRandomPrograms: random programs with draws anywhere (and
// uniform(LO, HI) faults of computed bounds) agree on every CPU path.
func TestDrawsInRandomPrograms(t *testing.T) {
	n, seen, faults := 300, 0, 0
	if testing.Short() {
		n = 100
	}
	g := progtest.New(rand.New(rand.NewPCG(7, 16)), true)
	for k := 0; seen < n && k < 20*n; k++ {
		src := g.Program()
		p, err := Compile("gen.rules", []byte(src), nil)
		if err != nil {
			continue
		}
		if !p.Draws {
			continue
		}
		seen++
		o := Options{Steps: 1 + g.Pick(4), Seed: uint64(k), Trace: []int{0}}
		states := 1 + g.Pick(4)
		for _, path := range []CPU{{Path: PathBatch}, {Path: PathBatch, parts: 1 + g.Pick(5), minSplit: 1}} {
			ok, msg := pathAgrees(path, p, states, uint64(k), o)
			if !ok {
				t.Fatalf("path %+v, program %d:\n%s\n%s", path, k, src, msg)
			}
			if msg == "fault" && path.parts == 0 {
				faults++
			}
		}
	}
	if seen < n {
		t.Fatalf("only %d of the generated programs drew", seen)
	}
	t.Logf("%d programs, %d ending in a runtime error", seen, faults)
}

func runDraws(t *testing.T, p *Program, n int, o Options) *States {
	t.Helper()
	st := Generate(p, n, 1)
	if _, err := (CPU{}).Run(context.Background(), p, st, o); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestDrawsSeeded: the same seed gives the same states, another seed other
// states; a range of the states run alone with FirstState (a shard, a GPU
// of several) draws what the whole run draws for them.
func TestDrawsSeeded(t *testing.T) {
	p := compileDraws(t, "walk")
	a := runDraws(t, p, 6, Options{Steps: 5, Seed: 7})
	b := runDraws(t, p, 6, Options{Steps: 5, Seed: 7})
	c := runDraws(t, p, 6, Options{Steps: 5, Seed: 8})
	if differ(p, a.Data, b.Data) >= 0 {
		t.Error("one seed, two results")
	}
	if differ(p, a.Data, c.Data) < 0 {
		t.Error("seeds 7 and 8 drew the same")
	}
	if differ(p, a.State(0), a.State(1)) < 0 {
		t.Error("states 0 and 1 drew the same")
	}
	part := Generate(p, 6, 1)
	part = &States{N: 4, Words: part.Words, Data: part.Data[2*part.Words:]}
	if _, err := (CPU{}).Run(context.Background(), p, part, Options{Steps: 5, Seed: 7, FirstState: 2}); err != nil {
		t.Fatal(err)
	}
	if k := differ(p, a.Data[2*a.Words:], part.Data); k >= 0 {
		t.Errorf("states 2..5 run alone: word %d differs", k)
	}
	m := Multi{Engines: []Engine{CPU{}, CPU{Path: PathInterpret}, CPU{}}}
	st := Generate(p, 6, 1)
	if _, err := m.Run(context.Background(), p, st, Options{Steps: 5, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if k := differ(p, a.Data, st.Data); k >= 0 {
		t.Errorf("three engines: word %d differs", k)
	}
}

// TestDrawStatistics: rand() is uniform on [0, 1) and uniform(0, 9) on its
// ten values (means and a chi-square test far from its 1e-6 tail), over
// indices, states and steps.
func TestDrawStatistics(t *testing.T) {
	p, err := Compile("stat.rules", []byte(`const N = 1000
state { float u[N]; int d[N] }
rule draw over i in 0..N { u[i] = rand(); d[i] = uniform(0, 9) }`), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := runDraws(t, p, 20, Options{Steps: 3, Seed: 2026})
	uf, df := p.Fields[p.FieldByName("u")], p.Fields[p.FieldByName("d")]
	var sum float64
	var bins [10]int
	var ubins [16]int
	n := 0
	for s := range st.N {
		w := st.State(s)
		for k := range uf.Size {
			u := float64(bytecode.F32(w[uf.Off+k]))
			if u < 0 || u >= 1 {
				t.Fatalf("rand() = %v", u)
			}
			sum += u
			ubins[int(u*16)]++
			d := int32(w[df.Off+k])
			if d < 0 || d > 9 {
				t.Fatalf("uniform(0, 9) = %d", d)
			}
			bins[d]++
			n++
		}
	}
	if mean := sum / float64(n); math.Abs(mean-0.5) > 4*math.Sqrt(1.0/12/float64(n)) {
		t.Errorf("rand(): mean %.5f over %d draws", mean, n)
	}
	chi2 := func(obs []int) float64 {
		e := float64(n) / float64(len(obs))
		x := 0.0
		for _, o := range obs {
			x += (float64(o) - e) * (float64(o) - e) / e
		}
		return x
	}
	// 1e-6 upper tails: chi2(9) 43.0, chi2(15) 57.0.
	if x := chi2(bins[:]); x > 43 {
		t.Errorf("uniform(0, 9): chi-square %.1f, counts %v", x, bins)
	}
	if x := chi2(ubins[:]); x > 57 {
		t.Errorf("rand(): chi-square %.1f over 16 bins, counts %v", x, ubins)
	}
}

// TestDrawsLetsSeenTwice: a let's draw is the same value in the
// precondition and the consequence (the coin's c[i] records u < 0.5).
func TestDrawsLetsSeenTwice(t *testing.T) {
	p := compileDraws(t, "coin")
	st := runDraws(t, p, 3, Options{Steps: 1, Seed: 5})
	cf := p.Fields[p.FieldByName("c")]
	heads := 0
	for s := range st.N {
		for k := range cf.Size {
			v := int32(st.State(s)[cf.Off+k])
			if v > 501 {
				t.Fatalf("state %d cell %d: %d, drawn above 0.5 yet the precondition held", s, k, v)
			}
			if v != 0 {
				heads++
			}
		}
		if got := int(st.State(s)[p.Fields[p.FieldByName("heads")].Off]); got == 0 {
			t.Errorf("state %d: no heads", s)
		}
	}
	if heads < 350 || heads > 550 {
		t.Errorf("%d heads of 900 fair flips", heads)
	}
}

// TestDrawsAndFixedPoints: a precondition that draws has no fixed point
// (--until-fixpoint refused, no state stops early); draws only in
// consequences keep fixed points.
func TestDrawsAndFixedPoints(t *testing.T) {
	p := compileDraws(t, "coin")
	if !p.DrawsInCond {
		t.Fatal("coin: the precondition's let draws")
	}
	st := Generate(p, 2, 1)
	if _, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: 5, UntilFixpoint: true}); !errors.Is(err, ErrDrawsNoFixpoint) {
		t.Errorf("--until-fixpoint: %v", err)
	}
	q := compileDraws(t, "fires-in-body")
	if q.DrawsInCond || !q.Draws {
		t.Fatalf("fires-in-body: Draws %v, DrawsInCond %v", q.Draws, q.DrawsInCond)
	}
	st = Generate(q, 4, 1)
	res, err := (CPU{}).Run(context.Background(), q, st, Options{Steps: 100, UntilFixpoint: true, Seed: 3})
	if err != nil || !res.FixpointReached {
		t.Fatalf("fires-in-body: %v, reached %v", err, res != nil && res.FixpointReached)
	}
	for _, v := range st.Data {
		if int32(v) < 10 || int32(v) > 13 {
			t.Fatalf("cell %d, want 10..13", int32(v))
		}
	}
}

// TestDrawFaultNamed: a fault of computed uniform bounds is named at the
// call on every CPU path (the compile-time draw errors are tested in
// rules/lang).
func TestDrawFaultNamed(t *testing.T) {
	head := "state { int a[4]; float f[4] }\n"
	p, err := Compile("d.rules", []byte(head+"rule r over i in 0..4 { a[i] = uniform(i, 2) }"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []CPUPath{PathInterpret, PathBatch} {
		_, err = (CPU{Path: path}).Run(context.Background(), p, Generate(p, 1, 1), Options{Steps: 1})
		want := "d.rules:2:32: rule r, state 0, index 3, step 1: uniform(LO, HI) with HI below LO"
		if fmt.Sprint(err) != want {
			t.Errorf("path %d: %v, want %s", path, err, want)
		}
	}
}

// TestForestFireConfig: configs/rules/forestfire.rules agrees on every CPU
// path and keeps burning (a precondition that draws: no fixed point).
func TestForestFireConfig(t *testing.T) {
	p := compileConfig(t, "forestfire.rules", map[string]string{"W": "13", "H": "11"})
	if !p.DrawsInCond {
		t.Fatal("forestfire: the precondition draws")
	}
	for _, path := range []CPU{{Path: PathBatch}, {Path: PathBatch, parts: 3, minSplit: 1}} {
		if ok, msg := pathAgrees(path, p, 4, 9, Options{Steps: 60, Seed: 12}); !ok {
			t.Errorf("path %+v: %s", path, msg)
		}
	}
	st := runDraws(t, p, 2, Options{Steps: 60, Seed: 12})
	var count [3]int
	for _, v := range st.Data {
		count[v]++
	}
	if count[0] == 0 || count[1] == 0 {
		t.Errorf("after 60 steps: %v empty, trees, fires", count)
	}
}

// BenchmarkDraws: one draw a cell against the same rule without one
// (batch evaluator, one state of 512x512 cells): ns per cell and step.
func BenchmarkDraws(b *testing.B) {
	for name, body := range map[string]string{
		"uniform": "c[k] = uniform(0, 1)",
		"rand":    "c[k] = int(rand() * 2.0)",
		"nodraw":  "c[k] = (k * 7 + c[k]) & 1",
	} {
		b.Run(name, func(b *testing.B) {
			p, err := Compile("bench.rules", []byte("const N = 262144\nstate { int c[N] }\nrule r over k in 0..N { "+body+" }"), nil)
			if err != nil {
				b.Fatal(err)
			}
			st := Generate(p, 1, 1)
			b.ResetTimer()
			for range b.N {
				if _, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: 1, Seed: 1, NoFiredPerStep: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/262144, "ns/cell")
		})
	}
}
