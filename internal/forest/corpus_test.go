package forest

import (
	"testing"
)

// The corpus plots load with the options the CLI's flags set (README:
// 4,624 live stems in BCI's census 7; Big Woods' live stems in 2014), and
// the fft method meets the bounds on them. The multires method's
// error against exact is logged (the paper reports 1.72 % mean, 4.1 % max).
func TestCorpusPlots(t *testing.T) {
	for _, c := range []struct {
		name  string
		stems int
		slow  bool
	}{{"bci", 4624, false}, {"bigwoods", 45564, true}} {
		g, trees, species := loadCorpus(t, c.name)
		if len(trees) != c.stems {
			t.Errorf("%s: %d stems, want %d", c.name, len(trees), c.stems)
		}
		if c.slow && testing.Short() {
			continue
		}
		ex := disperse(t, g, trees, species, Options{Method: Exact})
		ff := disperse(t, g, trees, species, Options{Method: FFT})
		mean, worst, cells := relErrors(total(ex), total(ff), 1e-6)
		t.Logf("%s (%dx%d, %d species): fft vs exact on %d cells of the total: mean %.2e max %.2e", c.name, g.NX, g.NY,
			len(species), cells, mean, worst)
		if mean > 1e-4 || worst > 1e-3 {
			t.Errorf("%s: fft mean %.3g max %.3g", c.name, mean, worst)
		}
		for s := range species {
			if m, w, _ := relErrors(ex[s].Density, ff[s].Density, 1e-6); m > 1e-4 || w > 1e-3 {
				t.Errorf("%s %s: fft mean %.3g max %.3g", c.name, species[s].Name, m, w)
			}
		}
		if c.slow {
			continue // multires takes most of a minute on Big Woods: see the benchmarks
		}
		mr := disperse(t, g, trees, species, Options{Method: Multires})
		mean, worst, cells = relErrors(total(ex), total(mr), 1e-6)
		t.Logf("%s: multires vs exact on %d cells of the total: mean %.3g max %.3g", c.name, cells, mean, worst)
	}
}
