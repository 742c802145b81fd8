package rules

import (
	"context"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/progtest"
)

// compileConfig compiles configs/rules/NAME with defines (progtest).
func compileConfig(t testing.TB, name string, defines map[string]string) *Program {
	t.Helper()
	return progtest.CompileConfig(t, name, defines)
}

func compileSrc(t testing.TB, src string) *Program {
	t.Helper()
	return progtest.CompileSrc(t, src)
}

func runCPU(t testing.TB, p *Program, st *States, o Options) *Result {
	t.Helper()
	res, err := CPU{}.Run(context.Background(), p, st, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// field returns field name of state s as ints.
func field(p *Program, st *States, s int, name string) []int32 {
	f := p.Fields[p.FieldByName(name)]
	w := st.State(s)[f.Off : f.Off+f.Size]
	out := make([]int32, len(w))
	for k, v := range w {
		out[k] = int32(v)
	}
	return out
}

func setField(p *Program, st *States, s int, name string, vals []int32) {
	f := p.Fields[p.FieldByName(name)]
	w := st.State(s)[f.Off : f.Off+f.Size]
	for k := range w {
		w[k] = uint32(vals[k])
	}
}
