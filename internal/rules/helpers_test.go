package rules

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// compileConfig compiles configs/rules/NAME with defines.
func compileConfig(t testing.TB, name string, defines map[string]string) *Program {
	t.Helper()
	// From the package directory (go test), or from the repository root
	// (a test binary run on the GPU machine).
	path := filepath.Join("..", "..", "configs", "rules", name)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("configs", "rules", name)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(path, src, defines)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func compileSrc(t testing.TB, src string) *Program {
	t.Helper()
	p, err := Compile("test.rules", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
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
