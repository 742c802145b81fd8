package rules

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// sweepCase is a small forest-fire sweep: P x F x replicates, states per
// run, on a 12 x 10 torus.
type sweepCase struct {
	ps, fs       []string
	reps, states int
	steps        int
	seed         uint64
}

func forestSrc(t testing.TB) (string, []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "configs", "rules", "forestfire.rules")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("configs", "rules", "forestfire.rules")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, src
}

var sweepFixed = map[string]string{"W": "12", "H": "10"}

// sweepStates builds the sweep's states as rulesjob does: group
// (c, r) = c*reps + r holds Generate(plain, states, seed+r) with P and F set.
func (sc sweepCase) build(t testing.TB, swept *Program, plain *Program) (*States, DrawGroups) {
	groups := len(sc.ps) * len(sc.fs) * sc.reps
	st := NewStates(swept, groups*sc.states)
	dg := DrawGroups{Size: sc.states, Seeds: make([]uint64, groups)}
	pf, ff := swept.Fields[swept.FieldByName("P")], swept.Fields[swept.FieldByName("F")]
	if pf.Off < plain.Words || ff.Off < plain.Words {
		t.Fatalf("hidden fields at %d and %d, inside the plain state of %d words", pf.Off, ff.Off, plain.Words)
	}
	for g := range groups {
		c, r := g/sc.reps, g%sc.reps
		dg.Seeds[g] = sc.seed + uint64(r)
		base := Generate(plain, sc.states, sc.seed+uint64(r))
		for s := range sc.states {
			w := st.State(g*sc.states + s)
			copy(w, base.State(s))
			w[pf.Off] = f32bits(t, sc.ps[c/len(sc.fs)])
			w[ff.Off] = f32bits(t, sc.fs[c%len(sc.fs)])
		}
	}
	return st, dg
}

func f32bits(t testing.TB, s string) uint32 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return math.Float32bits(float32(f))
}

// checkSweep runs the sweep on e and each of its runs separately on the
// CPU, and compares every group's final states and recorded counts.
func checkSweep(t *testing.T, e Engine, sc sweepCase, o Options) {
	o.Steps = sc.steps
	path, src := forestSrc(t)
	swept, err := CompileSwept(path, src, sweepFixed, map[string]string{"P": "0.5", "F": "0.5"})
	if err != nil {
		t.Fatal(err)
	}
	plain := compileConfig(t, "forestfire.rules", sweepFixed)
	obs, err := ParseObservable(plain, "count(cell == 1)")
	if err != nil {
		t.Fatal(err)
	}
	st, dg := sc.build(t, swept, plain)
	rec := NewGroupRecorder(plain, []Observable{obs}, len(dg.Seeds), sc.states, sc.steps)
	err = RunSweep(context.Background(), e, swept, st, o, dg,
		func(lo, hi, t int) error { rec.Observe(st, lo, hi, t); return nil })
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for g := range dg.Seeds {
		c, r := g/sc.reps, g%sc.reps
		defs := map[string]string{"W": "12", "H": "10", "P": sc.ps[c/len(sc.fs)], "F": sc.fs[c%len(sc.fs)]}
		p := compileConfig(t, "forestfire.rules", defs)
		one := Generate(p, sc.states, sc.seed+uint64(r))
		res := runCPU(t, p, one, Options{Steps: sc.steps, Seed: sc.seed + uint64(r), Record: []Observable{obs}})
		for s := range sc.states {
			if !slices.Equal(st.State(g*sc.states + s)[:plain.Words], one.State(s)) {
				t.Fatalf("group %d (P=%s F=%s replicate %d) state %d differs from its separate run", g, defs["P"], defs["F"], r, s)
			}
			checked++
		}
		if !reflect.DeepEqual(rec.Rows(g), res.Records) {
			t.Fatalf("group %d: records %v, separate run %v", g, rec.Rows(g), res.Records)
		}
	}
	if checked != len(dg.Seeds)*sc.states {
		t.Fatalf("checked %d states", checked)
	}
}

var smallSweep = sweepCase{ps: []string{"0.02", "0.1", "0.3"}, fs: []string{"0.001", "0.05"}, reps: 2, states: 3, steps: 12, seed: 41}

// TestSweepMatchesSeparateRuns: every state of a sweep ends as its
// separate run's, and records what that run records.
func TestSweepMatchesSeparateRuns(t *testing.T) {
	checkSweep(t, CPU{}, smallSweep, Options{})
	checkSweep(t, CPU{Path: PathInterpret}, smallSweep, Options{})
}

// groupwise hides the CPU engine behind another type, so RunSweep takes
// the path of engines that key draws by one seed: group by group.
type groupwise struct{ CPU }

func TestSweepGroupByGroup(t *testing.T) {
	checkSweep(t, groupwise{}, smallSweep, Options{})
}

// TestSweepDrawsDiffer guards the test above against vacuity: replicates
// and parameters change the boards.
func TestSweepDrawsDiffer(t *testing.T) {
	path, src := forestSrc(t)
	swept, err := CompileSwept(path, src, sweepFixed, map[string]string{"P": "0.5", "F": "0.5"})
	if err != nil {
		t.Fatal(err)
	}
	plain := compileConfig(t, "forestfire.rules", sweepFixed)
	sc := smallSweep
	st, dg := sc.build(t, swept, plain)
	if err := RunSweep(context.Background(), CPU{}, swept, st, Options{Steps: sc.steps}, dg, nil); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for g := range dg.Seeds {
		seen[string(u32bytes(st.State(g * sc.states)[:plain.Words]))] = true
	}
	if len(seen) != len(dg.Seeds) {
		t.Fatalf("%d distinct boards of %d groups", len(seen), len(dg.Seeds))
	}
}

func u32bytes(w []uint32) []byte {
	b := make([]byte, 0, 4*len(w))
	for _, v := range w {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return b
}
