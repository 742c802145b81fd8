package forest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The benchmarks report ms per run (besides ns/op) for every method on the
// CPU, on the paper's two largest synthetic cases (5e4 cells x 1e4 trees and
// 5e5 cells x 1e5 trees: uniform plots with the four BC species) and on the
// corpus plots (skipped without ../shared).
//
// exact and multires at 5e5 x 1e5 take about 30 s and 100 s on two cores: a
// benchmark runs them once (b.N = 1 already exceeds -benchtime), e.g.
//
//	go test ./internal/forest -run '^$' -bench 'Synthetic500k/(exact|multires)'
//
// From 5e4 x 1e4 to 5e5 x 1e5 the exact sum grows by 10x in cells and, at
// the same stem density, by the share of a parent's underflow disc that
// falls on the larger plot (about 2.5x here): measured 1.2 s -> 32 s.
func benchDisperse(b *testing.B, g Grid, trees []Tree, species []Species, m Method) {
	b.Helper()
	o := Options{Method: m}
	var worst Accuracy
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		layers, err := CPU{}.Disperse(context.Background(), g, trees, species, o)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range layers {
			worst.ExactCells += l.Accuracy.ExactCells
		}
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "cores")
	if m == FFT {
		b.ReportMetric(float64(worst.ExactCells)/float64(b.N), "exact-cells")
	}
}

func benchSynthetic(b *testing.B, nx, ny, n int) {
	g, trees := synthPlot(nx, ny, n, 1)
	for _, m := range []Method{FFT, Exact, Multires} {
		b.Run(string(m), func(b *testing.B) { benchDisperse(b, g, trees, bcSpecies(), m) })
	}
}

// 5e4 cells x 1e4 trees.
func BenchmarkSynthetic50k(b *testing.B) { benchSynthetic(b, 250, 200, 10_000) }

// 5e5 cells x 1e5 trees.
func BenchmarkSynthetic500k(b *testing.B) { benchSynthetic(b, 1000, 500, 100_000) }

// corpusDir is ../shared/corpus/forest from this package, or "".
func corpusDir(tb testing.TB) string {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "forest")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("no corpus at %s", dir)
	}
	return dir
}

// corpusSpecies gives every species of a corpus plot one parameter set: a
// Weibull with the BC fir's D (a mid-range kernel), theta 3, beta 2, parents
// from 10 cm.
const corpusSpecies = `
species:
  "*": {str: 100, d: 1.32e-4, theta: 3, min_dbh: 10}
`

// loadCorpus reads a corpus plot the way the CLI does with flags.
func loadCorpus(tb testing.TB, name string) (Grid, []Tree, []Species) {
	tb.Helper()
	dir := corpusDir(tb)
	var o StemOptions
	var file string
	switch name {
	case "bci":
		file = "bci_hec37_ViewFullTable.tsv"
		o = StemOptions{DBHUnit: "mm"}
		for _, w := range []string{"Status=alive", "PlotCensusNumber=7"} {
			c, err := ParseCondition(w)
			if err != nil {
				tb.Fatal(err)
			}
			o.Where = append(o.Where, c)
		}
	case "bigwoods":
		file = "bigwoods2015.csv"
		o = StemOptions{DBH: "gbh14", Girth: true}
		c, err := ParseCondition("gbh14>0")
		if err != nil {
			tb.Fatal(err)
		}
		o.Where = []Condition{c}
	}
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	m, err := ReadStems(f, file, o)
	if err != nil {
		tb.Fatal(err)
	}
	table, err := ParseSpecies(strings.NewReader(corpusSpecies), "corpus.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	res, err := table.Resolve(m.Species(), false)
	if err != nil {
		tb.Fatal(err)
	}
	b, _ := BoundsOf(m.Stems, 1)
	g, err := GridFor(b, 1)
	if err != nil {
		tb.Fatal(err)
	}
	trees, outside := Trees(m.Stems, res, g)
	if outside != 0 {
		tb.Fatalf("%d stems outside their own bounds", outside)
	}
	return g, trees, res.Species
}

func benchCorpus(b *testing.B, name string) {
	g, trees, species := loadCorpus(b, name)
	for _, m := range []Method{FFT, Exact, Multires} {
		b.Run(string(m), func(b *testing.B) { benchDisperse(b, g, trees, species, m) })
	}
}

func BenchmarkBCI(b *testing.B)      { benchCorpus(b, "bci") }
func BenchmarkBigWoods(b *testing.B) { benchCorpus(b, "bigwoods") }
