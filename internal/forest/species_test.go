package forest

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

const goodSpecies = `# a comment
defaults:
  theta: 3
  min_dbh: 15
species:
  lodgepole-pine:
    names: [Pl, Pinus contorta]
    str: 80
    d: 2.8e-4
  aspen: {str: 40, d: 3.8e-5, beta: 1.5, min_dbh: 10}
  willow: {kernel: lognormal, str: 5, x0: 8, xb: 0.8}
  fir:
    str: ~
    d: 1.32e-4
`

func TestParseSpecies(t *testing.T) {
	tab, err := ParseSpecies(strings.NewReader(goodSpecies), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Entries) != 4 || tab.Other != nil {
		t.Fatalf("entries %+v", tab.Entries)
	}
	res, err := tab.Resolve([]string{"PL", "aspen", "pinus contorta", "willow"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Species) != 3 || res.Index["PL"] != res.Index["pinus contorta"] {
		t.Fatalf("resolution %+v", res)
	}
	want := map[string]Species{
		"aspen":          {Name: "aspen", Kernel: Weibull, STR: 40, Beta: 1.5, D: 3.8e-5, Theta: 3, MinDBH: 10},
		"lodgepole-pine": {Name: "lodgepole-pine", Kernel: Weibull, STR: 80, Beta: 2, D: 2.8e-4, Theta: 3, MinDBH: 15},
		"willow":         {Name: "willow", Kernel: Lognormal, STR: 5, Beta: 2, X0: 8, Xb: 0.8, Theta: 3, MinDBH: 15},
	}
	for _, s := range res.Species {
		if s != want[s.Name] {
			t.Errorf("%s: %+v, want %+v", s.Name, s, want[s.Name])
		}
	}
	// fir has no str: using it fails, naming the line and what str is.
	_, err = tab.Resolve([]string{"fir"}, false)
	if err == nil || !strings.Contains(err.Error(), "p.yaml:12: species \"fir\": str is not set") ||
		!strings.Contains(err.Error(), "30 cm parent") {
		t.Errorf("missing str: %v", err)
	}
	// An unknown species lists what the file names; --skip-unknown drops it.
	_, err = tab.Resolve([]string{"aspen", "oak", "birch"}, false)
	if err == nil || !strings.Contains(err.Error(), `does not name 2 species of the stem map: "birch", "oak"`) ||
		!strings.Contains(err.Error(), `"lodgepole-pine", "aspen", "willow", "fir"`) {
		t.Errorf("unknown species: %v", err)
	}
	res, err = tab.Resolve([]string{"aspen", "oak"}, true)
	if err != nil || len(res.Species) != 1 || len(res.Skipped) != 1 || res.Skipped[0] != "oak" {
		t.Errorf("skip unknown: %+v %v", res, err)
	}
}

func TestParseSpeciesOther(t *testing.T) {
	tab, err := ParseSpecies(strings.NewReader(`species:
  "*": {str: 10, d: 1e-4, theta: 3}
  oak: {str: 20, d: 2e-4, theta: 3}
`), "o.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.Resolve([]string{"oak", "elm", "ash"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Species) != 3 || res.Species[0].Name != "ash" || res.Species[0].STR != 10 || res.Species[2].STR != 20 {
		t.Errorf("%+v", res.Species)
	}
}

// Errors name the file and line and say what was expected.
func TestParseSpeciesErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"", `e.yaml: empty species file`},
		{"species: [1, 2]\n", `e.yaml:1:1: species: want a mapping`},
		{"species:\n  a: {str: 1, d: 1e-4, theta: 3\n", `e.yaml:2: invalid YAML: did not find expected ',' or '}' (in the mapping or list that starts on this line)`},
		{"species:\n  a: 1\n   b: 2\n", `e.yaml:3: invalid YAML: mapping values are not allowed`},
		{"species:\n  a:\n    str: 1\n    dd: 3\n", `e.yaml:4:5: unknown key "dd"`},
		{"species:\n  a:\n    str: lots\n", `e.yaml:3:10: str: "lots" is not a number`},
		{"species:\n  a: {str: 1}\n  b: {names: [A]}\n", `e.yaml:3:3: species "b": the name "A" is already used at line 2`},
		{"defaults: {names: [x]}\nspecies: {a: {str: 1}}\n", `e.yaml:1:12: names belong to a species`},
		{"specie: {}\n", `e.yaml:1:1: unknown key "specie"`},
		{"species:\n  a: {kernel: cauchy}\n", `e.yaml:2:15: kernel "cauchy": want weibull, lognormal, 2dt`},
		{"\t- x", `e.yaml:1: invalid YAML: `},
	} {
		_, err := ParseSpecies(strings.NewReader(c.doc), "e.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.doc, err, c.want)
		}
	}
	// Values are checked when a species is used, with its line.
	tab, err := ParseSpecies(strings.NewReader("species:\n  a: {str: 1, d: -1, theta: 3}\n"), "v.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tab.Resolve([]string{"a"}, false); err == nil || !strings.Contains(err.Error(), "v.yaml:2: species \"a\": invalid d -1") {
		t.Errorf("bad d: %v", err)
	}
}

// The presets parse, name the four BC species with the published D and
// fail, clearly, until STR is set.
func TestBCPresets(t *testing.T) {
	f, err := os.Open("../../configs/forest/bc-sbs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := ParseSpecies(f, "bc-sbs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	wantD := map[string]float64{"interior-spruce": 3.0e-5, "lodgepole-pine": 2.8e-4, "subalpine-fir": 1.32e-4,
		"trembling-aspen": 3.8e-5}
	for _, e := range tab.Entries {
		if e.D != wantD[e.Name] || e.Theta != 3 || e.MinDBH != 15 || e.Beta != 2 || e.HasSTR {
			t.Errorf("%s: %+v", e.Name, e)
		}
	}
	if len(tab.Entries) != 4 {
		t.Fatalf("%d species", len(tab.Entries))
	}
	_, err = tab.Resolve([]string{"Pl", "Bl"}, false)
	if err == nil || !regexp.MustCompile(`bc-sbs.yaml:\d+: species "lodgepole-pine": str is not set`).MatchString(err.Error()) {
		t.Errorf("presets without str: %v", err)
	}
}
