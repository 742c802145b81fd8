package pga

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Every kind of every grammar in configs/pga and the corpus has a colour
// of its own: no two closer than 0.12 in linear RGB.
func TestMaterialColorsDistinct(t *testing.T) {
	paths, _ := filepath.Glob("../../configs/pga/*.pga")
	more, _ := filepath.Glob(filepath.Join(corpusDir, "*.pga"))
	for _, p := range append(paths, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Parse(p, src)
		if err != nil {
			t.Fatal(err)
		}
		cs := make([][3]float64, len(g.TermNames))
		for i, n := range g.TermNames {
			cs[i] = g.MaterialColor(n)
			for k := 0; k < 3; k++ {
				if cs[i][k] < 0 || cs[i][k] > 1 {
					t.Fatalf("%s: %s colour %v out of range", p, n, cs[i])
				}
			}
			for j := range cs[:i] {
				d := math.Sqrt((cs[i][0]-cs[j][0])*(cs[i][0]-cs[j][0]) + (cs[i][1]-cs[j][1])*(cs[i][1]-cs[j][1]) + (cs[i][2]-cs[j][2])*(cs[i][2]-cs[j][2]))
				if d < 0.12 {
					t.Errorf("%s: %s %v and %s %v are %.3f apart", filepath.Base(p), n, cs[i], g.TermNames[j], cs[j], d)
				}
			}
		}
	}
}
