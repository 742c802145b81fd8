package forest

import (
	"bytes"
	"math"
	"os"
	"testing"
)

// FuzzReadStems feeds arbitrary bytes to the stem map reader, in every
// delimiter mode and with a filter: nothing may panic or hang, and what it
// accepts is finite with positive DBH.
func FuzzReadStems(f *testing.F) {
	for _, s := range []string{
		"x,y,sp,dbh\n1,2,a,3\n",
		"X\tY\tSpecies\tDiam\n10.5\t20\tPl\t31.2\n",
		"gx gy sp dbh status\n1 2 a 30 A\n3 4 b NA D\n",
		"\ufeffx;y;species;dbh\r\n1;2;\"a;b\";3\r\n",
		"x,y,sp,dbh\n1,\"2,a,3\n",
		"x,y,sp,dbh\nNaN,1e309,a,-0\n",
	} {
		f.Add([]byte(s))
	}
	conds := []Condition{{Column: "status", Op: "!=", Values: []string{"D"}}}
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, o := range []StemOptions{{}, {Delimiter: ' ', DBHUnit: "mm"}, {Delimiter: ',', Girth: true},
			{Where: conds}} {
			m, err := ReadStems(bytes.NewReader(doc), "fuzz.csv", o)
			if err != nil {
				continue
			}
			for _, s := range m.Stems {
				if math.IsNaN(s.X) || math.IsInf(s.X, 0) || math.IsNaN(s.Y) || math.IsInf(s.Y, 0) ||
					!(s.DBH > 0) || math.IsInf(s.DBH, 0) || s.Species == "" {
					t.Fatalf("accepted a bad stem %+v", s)
				}
			}
		}
	})
}

// FuzzParseSpecies feeds arbitrary bytes to the species file parser:
// nothing may panic or hang, and species it resolves validate.
func FuzzParseSpecies(f *testing.F) {
	if b, err := os.ReadFile("../../configs/forest/bc-sbs.yaml"); err == nil {
		f.Add(b)
	}
	for _, s := range []string{
		goodSpecies,
		familyFile,
		"species:\n  \"*\": {str: 1, d: 1e-4, theta: 3}\n",
		"defaults: &d {theta: 3}\nspecies:\n  a: {<<: *d, str: 1, d: 1}\n  b: *d\n",
		"species:\n  a: {kernel: lognormal, str: 1, x0: 5, xb: 0.5, names: [A, B]}\n",
		"species: {a: [1,2], b: !!binary aGVsbG8=}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		tab, err := ParseSpecies(bytes.NewReader(doc), "fuzz.yaml")
		if err != nil {
			return
		}
		var names []string
		for _, e := range tab.Entries {
			names = append(names, e.Name)
		}
		res, err := tab.Resolve(append(names, "unnamed"), true)
		if err != nil {
			return
		}
		for _, s := range res.Species {
			if err := s.Validate(); err != nil {
				t.Fatalf("resolved an invalid species: %v", err)
			}
		}
	})
}
