//go:build cuda

package golly

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
	"github.com/procgen-dev/procgen/internal/rules"
)

// TestTreeCUDAMatchesCPU runs compiled trees on the GPU (the kernels
// generated for the rule set, then the interpreter kernels) against the
// CPU, on a torus and on a plane, on several states: a position-weighted
// tree and Golly's Langtons-Loops tree (4,859 code words) where Golly's
// package ships it. Without a GPU it skips (PROCGEN_REQUIRE_GPU=1: fails).
func TestTreeCUDAMatchesCPU(t *testing.T) {
	c := rules.CUDA{Dev: gputest.Device(t, nil)}
	files := []string{buildTree("Weighted", 3, 8, weightedTree(7, 3, 8)), buildTree("Weighted4", 4, 4, weightedTree(8, 4, 4))}
	if data, err := os.ReadFile(filepath.Join("/usr/share/golly/Rules", "Langtons-Loops.rule")); err == nil {
		files = append(files, treeSection(string(data), "T-Langtons-Loops"))
	}
	for _, f := range files {
		tr := mustTree(t, f)
		for _, torus := range []bool{true, false} {
			p, err := CompileTree(tr, Topology{Torus: torus, W: 37, H: 29}, tr.Name+".rule", nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []rules.Options{{Steps: 25, RequireGenerated: true}, {Steps: 25, Interpreter: true}} {
				want := rules.Generate(p, 45, 3)
				got := rules.Generate(p, 45, 3)
				if _, err := (rules.CPU{}).Run(context.Background(), p, want, o); err != nil {
					t.Fatal(err)
				}
				if _, err := c.Run(context.Background(), p, got, o); err != nil {
					t.Fatalf("%s torus %v: %v", tr.Name, torus, err)
				}
				for s := range 45 {
					a, b := want.State(s), got.State(s)
					for k := range a {
						if a[k] != b[k] {
							t.Fatalf("%s torus %v interpreter %v: state %d word %d: GPU %d, CPU %d", tr.Name, torus, o.Interpreter, s, k, b[k], a[k])
						}
					}
				}
			}
		}
	}
}
