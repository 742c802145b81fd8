package rules

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

func mustObservables(t *testing.T, p *Program, texts ...string) []Observable {
	t.Helper()
	var obs []Observable
	for _, s := range texts {
		o, err := ParseObservable(p, s)
		if err != nil {
			t.Fatal(err)
		}
		obs = append(obs, o)
	}
	return obs
}

// direct computes observable o over every state of st, element by element.
func direct(p *Program, o Observable, st *States) float64 {
	f := p.Fields[o.Field]
	sum, n, lo, hi := 0.0, 0, math.Inf(1), math.Inf(-1)
	for s := range st.N {
		for _, w := range st.State(s)[f.Off : f.Off+f.Size] {
			x := float64(int32(w))
			if f.Type == Float {
				x = float64(bytecode.F32(w))
			}
			switch {
			case o.Cmp == "==":
				x = float64(bytecode.B2U(x == o.Than))
			case o.Cmp == ">":
				x = float64(bytecode.B2U(x > o.Than))
			case o.Cmp != "":
				panic("direct: " + o.Cmp)
			case o.Reduce == ReduceCount:
				x = float64(bytecode.B2U(x != 0))
			}
			sum, n, lo, hi = sum+x, n+1, math.Min(lo, x), math.Max(hi, x)
		}
	}
	return map[Reduce]float64{ReduceSum: sum, ReduceCount: sum, ReduceMean: sum / float64(n), ReduceMin: lo, ReduceMax: hi}[o.Reduce]
}

// TestRecordMatchesStepByStep: the recorded values of every step equal the
// observables computed directly on the states after running that many
// steps, on every CPU path, through Multi, and with states that stop at
// their fixed points early (their values held).
func TestRecordMatchesStepByStep(t *testing.T) {
	p := compileConfig(t, "life.rules", map[string]string{"W": "9", "H": "8"})
	obs := mustObservables(t, p, "sum(c)", "count(c == 1)", "mean(c)", "min(c)", "max(c)", " count( c > 0 ) ", "count(c)")
	const steps, states = 30, 7
	want := make([][]float64, steps+1)
	st := Generate(p, states, 4)
	for t0 := 0; t0 <= steps; t0++ {
		for _, o := range obs {
			want[t0] = append(want[t0], direct(p, o, st))
		}
		if _, err := (CPU{Path: PathInterpret}).Run(context.Background(), p, st, Options{Steps: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for name, e := range map[string]Engine{"interpreter": CPU{Path: PathInterpret}, "batch": CPU{},
		"split": CPU{parts: 3, minSplit: 1}, "multi": Multi{Engines: []Engine{CPU{}, CPU{Path: PathInterpret}, CPU{}}}} {
		st := Generate(p, states, 4)
		res, err := e.Run(context.Background(), p, st, Options{Steps: steps, Record: obs, NoFiredPerStep: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Records) != steps+1 {
			t.Fatalf("%s: %d rows, want %d", name, len(res.Records), steps+1)
		}
		for t0, row := range res.Records {
			for k, o := range obs {
				if got := o.Value(row[k]); got != want[t0][k] {
					t.Errorf("%s: step %d, %s = %v, want %v", name, t0, o.Text, got, want[t0][k])
				}
			}
		}
	}
	// Until the fixed point: the rows end at the run's last step.
	st = Generate(p, states, 4)
	res, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: 500, UntilFixpoint: true, Record: obs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != res.Steps+1 {
		t.Errorf("until-fixpoint: %d rows for %d steps", len(res.Records), res.Steps)
	}
	last := res.Records[len(res.Records)-1]
	for k, o := range obs {
		if got, w := o.Value(last[k]), direct(p, o, st); got != w {
			t.Errorf("until-fixpoint: last row %s = %v, final states give %v", o.Text, got, w)
		}
	}
}

// TestRecordFloats: float fields and comparisons with a float.
func TestRecordFloats(t *testing.T) {
	p := compileSrc(t, "state { float m[5] = 1.5; int k }\nrule grow over i in 0..5 { m[i] = m[i] * 2.0 }")
	obs := mustObservables(t, p, "sum(m)", "max(m)", "count(m > 5.9)", "mean(m)")
	st := Generate(p, 2, 1)
	res, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: 3, Record: obs})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{15, 1.5, 0, 1.5}, {30, 3, 0, 3}, {60, 6, 10, 6}, {120, 12, 10, 12}}
	for t0, row := range res.Records {
		for k, o := range obs {
			if got := o.Value(row[k]); got != want[t0][k] {
				t.Errorf("step %d %s = %v, want %v", t0, o.Text, got, want[t0][k])
			}
		}
	}
	if obs[0].IntValued(p) || !obs[2].IntValued(p) {
		t.Error("sum of a float field is a float, a count an int")
	}
}

func TestParseObservableErrors(t *testing.T) {
	p := compileConfig(t, "life.rules", nil)
	for text, want := range map[string]string{
		"c":               "column 1: want REDUCE(FIELD)",
		"avg(c)":          `unknown reduction "avg"`,
		"sum(d)":          `column 5: unknown field "d" (fields: c)`,
		"sum()":           "column 5: want a field name",
		"count(c == one)": `column 12: want a number after ==, not "one"`,
	} {
		_, err := ParseObservable(p, text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// FuzzParseObservable: no --record text crashes the parser, and what
// parses names a field of the program and evaluates.
func FuzzParseObservable(f *testing.F) {
	for _, s := range []string{"sum(c)", "count(c == 1)", " mean( c ) ", "max(c >= -2.5e3)", "min(c!=0)", "count(", "sum(c ==)", ")("} {
		f.Add(s)
	}
	p, err := Compile("life.rules", []byte("state { int c[6]  float m[2] }\nrule r over i in 0..6 { c[i] = 1 - c[i] }"), nil)
	if err != nil {
		f.Fatal(err)
	}
	st := Generate(p, 2, 1)
	f.Fuzz(func(t *testing.T, text string) {
		o, err := ParseObservable(p, text)
		if err != nil {
			return
		}
		if o.Field < 0 || o.Field >= len(p.Fields) {
			t.Fatalf("%q: field %d", text, o.Field)
		}
		var a Acc
		o.observe(p, st.State(0), &a)
		_ = o.Value(a)
	})
}

// TestAccOfMatchesObserve: the accumulator AccOf makes from the counts of
// 0s and 1s of a two-state field is, bit for bit, the one the engine makes
// walking the cells (every reduction, with and without comparisons, over
// several states, including boards all dead or all alive).
func TestAccOfMatchesObserve(t *testing.T) {
	p := compileConfig(t, "life.rules", map[string]string{"W": "9", "H": "8"})
	obs := mustObservables(t, p, "sum(c)", "count(c == 1)", "mean(c)", "min(c)", "max(c)", "count(c > 0)", "count(c)",
		"min(c == 0)", "max(c > 5)", "mean(c == 0)")
	f := p.Fields[obs[0].Field]
	for _, fill := range []int{-1, 0, 1} {
		st := Generate(p, 5, 9)
		if fill >= 0 {
			for s := range st.N {
				for i := range f.Size {
					st.State(s)[f.Off+i] = uint32(fill)
				}
			}
		}
		var ones int64
		for s := range st.N {
			for _, w := range st.State(s)[f.Off : f.Off+f.Size] {
				ones += int64(w)
			}
		}
		res, err := (CPU{}).Run(context.Background(), p, st, Options{Steps: 0, Record: obs})
		if err != nil {
			t.Fatal(err)
		}
		cells := int64(st.N * f.Size)
		for k, o := range obs {
			got := o.AccOf(p, []uint32{0, 1}, []int64{cells - ones, ones})
			if want := res.Records[0][k]; got != want {
				t.Errorf("fill %d, %s: AccOf %+v, observe %+v", fill, o.Text, got, want)
			}
		}
	}
}
