package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// configPath is configs/rules/NAME from the package directory (go test) or
// from the repository root (a test binary run elsewhere).
func configPath(name string) string {
	path := filepath.Join("..", "..", "..", "configs", "rules", name)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("configs", "rules", name)
	}
	return path
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"state { int a[4] }\nrule r over i in 0..4 { a[i] = b }", "2:32: unknown name \"b\""},
		{"state { int a[4] }\nrule r over i in 0..4 { a[i] = 1.5 }", "2:32: cannot assign a float to int \"a\""},
		{"state { int a[4]  float f }\nrule r over i in 0..4 { a[i] = a[i] + f }", "2:37: mismatched types int and float"},
		{"state { int a[4] }\nrule r over i in 0..4 { a[i] = 1 +* 2 }", "2:35: expected an expression, found \"*\""},
		{"state { int a[4] }\nrule r over i 0..4 { }", "2:15: expected \"in\""},
		{"state { int a[4] }\nrule r over i in 0..4 { a = 1 }", "2:25: field \"a\" is an array of 4"},
		{"state { int a[4] }\nrule r over i in 0..4 { a[i] = 1  a[i] += 1 }", "2:35: rule r writes field \"a\" with both = and +="},
		{"state { int a[4] $ }", "1:18: unexpected character '$'"},
		{"rule r over i in 0..4 { }", "1:1: rule before the state block"},
		{"state { int a[0] }", "1:15: array size 0 out of range"},
		{"state { int a[4] }\nrule r over i in 0..4 { i = 2 }", "2:25: cannot assign to the index variable"},
		{"state { int a[4] }\nrule r over i in 0..4 when 1.0 { }", "2:28: the precondition is a float"},
		{"state { int a[4] }\nrule r over i in 0..4 { let x = sin(1.0) }", "2:33: unknown function \"sin\""},
	} {
		_, err := Compile("bad.rules", []byte(tc.src), nil)
		if err == nil || !strings.Contains(err.Error(), "bad.rules:"+tc.want) {
			t.Errorf("%q:\n got %v\nwant bad.rules:%s", tc.src, err, tc.want)
		}
	}
}

func TestDefines(t *testing.T) {
	path := configPath("eca.rules")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(path, src, map[string]string{"N": "10"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Fields[0].Size != 10 {
		t.Fatal(p.Fields[0])
	}
	if _, err := Compile(path, []byte("const A = 1\nstate { int a }"), map[string]string{"B": "2"}); err == nil {
		t.Fatal("unknown define accepted")
	}
}

// TestDrawErrors: wrong arity, bounds below each other, draws in constants,
// too many draw sites (the faults of computed bounds are a run-time matter,
// tested in rules).
func TestDrawErrors(t *testing.T) {
	head := "state { int a[4]; float f[4] }\n"
	for _, c := range []struct{ src, want string }{
		{"rule r over i in 0..4 { a[i] = uniform(5, 3) }", "3:32: uniform(5, 3): the upper bound is below the lower"},
		{"rule r over i in 0..4 { f[i] = rand(1.0) }", "rand takes no arguments"},
		{"rule r over i in 0..4 { a[i] = uniform(1) }", "uniform takes 2 arguments"},
		{"rule r over i in 0..4 { a[i] = rand() }", "cannot assign a float to int"},
		{"rule r over i in 0..4 { a[i] = uniform(1, 2.0) }", "cannot assign a float to int"},
		{"const X = rand()\nrule r over i in 0..4 { a[i] = X }", "2:11"},
		{"rule r over i in 0..4 { let rand = 1 }", "built-in function"},
		{"rule r over i in 0..4 { a[i] = " + strings.Repeat("uniform(0, 1) + ", bytecode.MaxDrawSites+1) + "0 }", "more than 256 rand and uniform calls"},
	} {
		_, err := Compile("d.rules", []byte(head+strings.Replace(c.src, "rule", "\nrule", 1)), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}
