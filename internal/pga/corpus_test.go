package pga

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// corpusDir holds the OperatorGraph example grammars beside the repository;
// tests that need them skip when it is absent.
const corpusDir = "../../../shared/corpus/pga/grammars"

func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	out := corpusFiles(t)
	if len(out) == 0 {
		t.Skipf("no corpus grammars under %s", corpusDir)
	}
	return out
}

// corpusFiles is the corpus grammars by file name; none when the corpus is
// absent.
func corpusFiles(t testing.TB) map[string][]byte {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "*.pga"))
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

func parseCorpus(t *testing.T, name string) *Grammar {
	t.Helper()
	src, ok := corpus(t)[name]
	if !ok {
		t.Skipf("%s not in corpus", name)
	}
	g, err := Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// axiomSize is the lot each corpus grammar is meant for: the sponge is a
// unit cube, the buildings are tall boxes.
func axiomSize(g *Grammar) Vec3 {
	if strings.HasPrefix(g.File, "menger") {
		return Vec3{1, 1, 1}
	}
	return Vec3{10, 30, 10}
}

func evalOne(t *testing.T, g *Grammar, seed uint64, opt Options) []TerminalShape {
	t.Helper()
	ts, err := g.Evaluate([]Shape{NewAxiom(g.Axioms[0].Kind, axiomSize(g), seed)}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestCorpusParsesAndEvaluates(t *testing.T) {
	for name, src := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			g, err := Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			ts := evalOne(t, g, 1, Options{})
			if len(ts) == 0 {
				t.Fatal("no terminals")
			}
			hist := map[string]int{}
			for _, s := range ts {
				hist[g.TermName(&s)]++
				if _, ok := g.Terminals[g.TermName(&s)]; !ok {
					t.Fatalf("terminal %q not declared", g.TermName(&s))
				}
			}
			t.Logf("%s: %d terminals %v", name, len(ts), hist)
		})
	}
}

// The paper's Tree4,3 and Tree8,4 scenes pin the counts down.
// TestTreeCounts counts the terminals and trunk segments of the paper's
// trees: the shipped configs/pga/tree4_3.pga and tree8_3.pga always, and
// the corpus's 3d_tree_4_3.pga and 3d_tree_8_3.pga where the corpus is
// present. It fails when it checked fewer than the two shipped trees, so a
// moved or renamed config cannot turn it into a test of nothing.
func TestTreeCounts(t *testing.T) {
	corpusSrc := corpusFiles(t)
	checked := 0
	for _, c := range []struct {
		config, corpus string
		want, trunks   int
	}{
		{"tree4_3.pga", "3d_tree_4_3.pga", 283, 121},
		{"tree8_3.pga", "3d_tree_8_3.pga", 22963, 9841},
	} {
		src, err := os.ReadFile(filepath.Join("../../configs/pga", c.config))
		if err != nil {
			t.Fatalf("the shipped tree: %v", err)
		}
		grammars := []struct {
			name string
			src  []byte
		}{{"configs/" + c.config, src}}
		if b, ok := corpusSrc[c.corpus]; ok {
			grammars = append(grammars, struct {
				name string
				src  []byte
			}{"corpus/" + c.corpus, b})
		}
		for _, gr := range grammars {
			t.Run(gr.name, func(t *testing.T) {
				g, err := Parse(gr.name, gr.src)
				if err != nil {
					t.Fatal(err)
				}
				ts := evalOne(t, g, 7, Options{})
				if len(ts) != c.want {
					t.Fatalf("%d terminals, want %d", len(ts), c.want)
				}
				n := 0
				for _, s := range ts {
					if g.TermName(&s) == "Trunk" {
						n++
					}
				}
				if n != c.trunks {
					t.Fatalf("%d trunks, want %d", n, c.trunks)
				}
				checked++
			})
		}
	}
	if checked < 2 {
		t.Fatalf("checked %d trees, want at least the 2 shipped in configs/pga", checked)
	}
}

// sortedKeys renders terminals exactly and sorts them, so two runs can be
// compared as sets of placed shapes.
func sortedKeys(ts []TerminalShape) []string {
	keys := make([]string, len(ts))
	for i, s := range ts {
		keys[i] = fmt.Sprintf("%d %v %v %d", s.Term, s.Transform, s.Size, s.Seed)
	}
	sort.Strings(keys)
	return keys
}

func TestMengerCount(t *testing.T) {
	g := parseCorpus(t, "menger_sponge_3.pga")
	if ts := evalOne(t, g, 1, Options{}); len(ts) != 8000 {
		t.Fatalf("%d cubes, want 20^3", len(ts))
	}
}

func TestDeterminism(t *testing.T) {
	for name, src := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			g, err := Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			var lots []Shape
			for i := uint64(0); i < 6; i++ {
				a := NewAxiom(g.Axioms[0].Kind, axiomSize(g), 100+i)
				a.Transform = Translation(Vec3{float64(i) * 50, 0, 0})
				lots = append(lots, a)
			}
			one, err := g.Evaluate(lots, Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			many, err := g.Evaluate(lots, Options{Workers: 8})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(one, many) {
				t.Fatal("result depends on Workers")
			}
			// Each lot on its own gives the same shapes as the batch.
			var single []TerminalShape
			for i := len(lots) - 1; i >= 0; i-- {
				ts, err := g.Evaluate(lots[i:i+1], Options{})
				if err != nil {
					t.Fatal(err)
				}
				single = append(single, ts...)
			}
			if !reflect.DeepEqual(sortedKeys(one), sortedKeys(single)) {
				t.Fatal("sorted terminals differ between batch and single-lot runs")
			}
		})
	}
}

func TestLimitsNameTheRule(t *testing.T) {
	g := parseCorpus(t, "3d_tree_8_3.pga")
	_, err := g.Evaluate([]Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}, Options{MaxShapes: 1000})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "rule \"") || !strings.Contains(err.Error(), "MaxShapes") {
		t.Fatalf("MaxShapes: got %v", err)
	}
	_, err = g.Evaluate([]Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}, Options{MaxDepth: 5})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MaxDepth") {
		t.Fatalf("MaxDepth: got %v", err)
	}
}
