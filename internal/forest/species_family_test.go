package forest

import (
	"strings"
	"testing"
)

// familyFile sets every new kernel as the literature names its parameters.
const familyFile = `defaults:
  min_dbh: 10
  clumping: 0.8
species:
  oak: {kernel: 2dt, str: 20, p: 1.2, u: 45}
  pine: {kernel: exppow, str: 30, a: 12, b: 0.6}
  beech: {kernel: exponential, str: 10, a: 7, clumping: 0}
  maple: {kernel: gaussian, str: 10, a: 9}
  birch:
    kernel: mixture
    str: 50
    w: 0.9
    first: {kernel: gaussian, a: 6}
    second: {kernel: 2dt, p: 0.8, u: 400}
`

func TestParseSpeciesFamilies(t *testing.T) {
	tab, err := ParseSpecies(strings.NewReader(familyFile), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.Resolve([]string{"oak", "pine", "beech", "maple", "birch"}, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Species{}
	for _, s := range res.Species {
		got[s.Name] = s
	}
	base := Species{Beta: 2, MinDBH: 10, Clumping: 0.8}
	with := func(s Species, f func(*Species)) Species { f(&s); return s }
	want := map[string]Species{
		"oak":   with(base, func(s *Species) { s.Name, s.Kernel, s.STR, s.P, s.U = "oak", TwoDt, 20, 1.2, 45 }),
		"pine":  with(base, func(s *Species) { s.Name, s.Kernel, s.STR, s.A, s.B = "pine", ExpPower, 30, 12, 0.6 }),
		"beech": with(base, func(s *Species) { s.Name, s.Kernel, s.STR, s.A, s.Clumping = "beech", Exponential, 10, 7, 0 }),
		"maple": with(base, func(s *Species) { s.Name, s.Kernel, s.STR, s.A = "maple", Gaussian, 10, 9 }),
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %+v, want %+v", name, got[name], w)
		}
	}
	b := got["birch"]
	if b.Kernel != Mixture || b.Mix == nil || b.Mix.W != 0.9 ||
		b.Mix.First != (Species{Kernel: Gaussian, A: 6}) || b.Mix.Second != (Species{Kernel: TwoDt, P: 0.8, U: 400}) {
		t.Errorf("birch: %+v %+v", b, b.Mix)
	}
}

// Bad family parameters are reported at file:line:col (parse errors) or
// the entry's file:line (values out of range, found on use).
func TestParseSpeciesFamilyErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"species:\n  a: {kernel: 2dt, str: 1, p: x, u: 3}\n", `e.yaml:2:31: p: "x" is not a number`},
		{"species:\n  a: {kernel: 2dt, str: 1, u: 3}\n", `e.yaml:2: species "a": p and u not set`},
		{"species:\n  a: {kernel: 2dt, str: 1, p: -1, u: 3}\n", `e.yaml:2: species "a": invalid p -1`},
		{"species:\n  a: {kernel: exppow, str: 1, a: 3}\n", `e.yaml:2: species "a": a and b not set`},
		{"species:\n  a: {kernel: exppow, str: 1, a: 3, b: 50}\n", `e.yaml:2: species "a": invalid b 50`},
		{"species:\n  a: {kernel: gaussian, str: 1}\n", `e.yaml:2: species "a": a not set`},
		{"species:\n  a: {kernel: mixture, str: 1, w: 0.5, first: {kernel: gaussian, a: 1}}\n",
			`e.yaml:2: species "a": w, first and second not set`},
		{"species:\n  a:\n    kernel: mixture\n    str: 1\n    w: 0.5\n    first: {a: 1}\n",
			`e.yaml:6:12: first: kernel not set`},
		{"species:\n  a:\n    kernel: mixture\n    first: {kernel: gaussian, a: 1, str: 4}\n",
			`e.yaml:4:37: first: str belongs to the species`},
		{"species:\n  a:\n    kernel: mixture\n    second: {kernel: mixture}\n",
			`e.yaml:4:13: second: a mixture's components cannot be mixtures`},
		{"species:\n  a:\n    kernel: mixture\n    second: {kernel: 2dt, p: 1}\n",
			`e.yaml:4:13: second: p and u not set`},
		{"species:\n  a:\n    kernel: mixture\n    second: [1]\n", `e.yaml:4:13: second: want a mapping`},
		{"species:\n  a: {kernel: mixture, str: 1, w: 1.5, first: {kernel: gaussian, a: 1}, second: {kernel: gaussian, a: 9}}\n",
			`e.yaml:2: species "a": invalid w 1.5`},
		{"species:\n  a: {kernel: mixture, str: 1, w: 0.5, first: {kernel: gaussian, a: -1}, second: {kernel: gaussian, a: 9}}\n",
			`e.yaml:2: species "a (first component)": invalid a -1`},
		{"species:\n  a: {str: 1, d: 1e-4, theta: 3, clumping: -2}\n", `e.yaml:2: species "a": invalid clumping -2`},
		{"species:\n  a: {kernel: cauchy}\n", `e.yaml:2:15: kernel "cauchy": want weibull, lognormal, 2dt, exppow`},
	} {
		tab, err := ParseSpecies(strings.NewReader(c.doc), "e.yaml")
		if err == nil {
			_, err = tab.Resolve([]string{"a"}, false)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.doc, err, c.want)
		}
	}
}

// An entry's mixture does not write through the defaults' (entries start
// as copies of the defaults).
func TestMixtureDefaultsNotShared(t *testing.T) {
	doc := "defaults: {kernel: mixture, w: 0.5, first: {kernel: gaussian, a: 1}, second: {kernel: gaussian, a: 20}}\n" +
		"species:\n  a: {str: 1, w: 0.2}\n  b: {str: 1}\n"
	tab, err := ParseSpecies(strings.NewReader(doc), "d.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.Resolve([]string{"a", "b"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Species[0].Mix.W != 0.2 || res.Species[1].Mix.W != 0.5 {
		t.Errorf("weights %g and %g, want 0.2 and 0.5", res.Species[0].Mix.W, res.Species[1].Mix.W)
	}
}
