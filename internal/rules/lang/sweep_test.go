package lang

import (
	"strings"
	"testing"
)

const sweepSrc = `const N = 8
const P = 0.5
const K = 3
state { int c[N] ~ uniform(0, 1)  float m }
rule r over i in 0..N when rand() < P && c[i] < K { c[i] = c[i] + K }
`

// TestCompileSweptLayout: the declared fields keep the plain compile's
// offsets and the swept constants follow them, typed by their values.
func TestCompileSweptLayout(t *testing.T) {
	plain, err := Compile("s.rules", []byte(sweepSrc), nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := CompileSwept("s.rules", []byte(sweepSrc), nil, map[string]string{"P": "0.25", "K": "2"})
	if err != nil {
		t.Fatal(err)
	}
	for k, f := range plain.Fields {
		if p.Fields[k].Name != f.Name || p.Fields[k].Off != f.Off {
			t.Fatalf("field %s at %d, plainly at %d", f.Name, p.Fields[k].Off, f.Off)
		}
	}
	want := []struct {
		name string
		typ  string
	}{{"K", "int"}, {"P", "float"}}
	if len(p.Fields) != len(plain.Fields)+2 || p.Words != plain.Words+2 {
		t.Fatalf("%d fields, %d words; plainly %d, %d", len(p.Fields), p.Words, len(plain.Fields), plain.Words)
	}
	for k, w := range want {
		f := p.Fields[len(plain.Fields)+k]
		if f.Name != w.name || f.Type.String() != w.typ || f.Off != plain.Words+k || !f.Scalar {
			t.Fatalf("hidden field %d: %+v, want %s %s at %d", k, f, w.typ, w.name, plain.Words+k)
		}
	}
	if _, ok := p.Consts["K"]; ok {
		t.Fatal("a swept constant is still a constant")
	}
}

// TestCompileSweptErrors: uses a sweep cannot serve as separate runs do
// are errors naming the place.
func TestCompileSweptErrors(t *testing.T) {
	cases := []struct {
		name, src string
		swept     map[string]string
		want      string
	}{
		{"size", "const N = 4\nstate { int c[N] }\nrule r over i in 0..4 { c[i] = 1 }\n", map[string]string{"N": "5"},
			"s.rules:2:15: N is swept"},
		{"range", "const N = 4\nstate { int c[4] }\nrule r over i in 0..N { c[i] = 1 }\n", map[string]string{"N": "3"},
			"s.rules:3:21: N is swept"},
		{"folded", "const P = 0.5\nstate { int c[4] }\nrule r over i in 0..4 when rand() < P * 2.0 { c[i] = 1 }\n",
			map[string]string{"P": "0.1"}, "s.rules:3:37: P is swept: it may appear only on its own"},
		{"const", "const P = 0.5\nconst Q = P\nstate { int c[4] }\nrule r over i in 0..4 when rand() < Q { c[i] = 1 }\n",
			map[string]string{"P": "0.1"}, "s.rules:2:11: P is swept"},
		{"uniform", "const H = 5\nstate { int c[4] }\nrule r over i in 0..4 { c[i] = uniform(0, H) }\n",
			map[string]string{"H": "7"}, "s.rules:3:43: H is swept: uniform's bounds"},
		{"unknown", "state { int c[4] }\nrule r over i in 0..4 { c[i] = 1 }\n", map[string]string{"Z": "1"},
			"-D sweeps no constant of the file: Z"},
		{"both", "const P = 1\nstate { int c[4] }\n", map[string]string{"P": "1"}, "given as one value and as a sweep"},
		{"not a number", "const P = 1\nstate { int c[4] }\n", map[string]string{"P": "x"}, `"x" is not a number`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defs := map[string]string{}
			if tc.name == "both" {
				defs["P"] = "2"
			}
			_, err := CompileSwept("s.rules", []byte(tc.src), defs, tc.swept)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
