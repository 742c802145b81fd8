package turtle

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// pipelineSystems are the example systems at their own derivation length
// (skipped without configs/), and ones whose homomorphism cuts, writes
// polygons and widths, or cannot run on a device (contexts with branches).
func pipelineSystems(t *testing.T) map[string]*lsys.System {
	t.Helper()
	out := map[string]*lsys.System{}
	for name, src := range map[string]string{
		"homo-cut":      "axiom: A(0)\nA(x) --> F(x)[+B(x)]A(x+1)\nB(y) --> B(y)\nF(x) --> F(x)\nderivation length: 6\nhomomorphism\nB(y) : y > 2 --> F(y)%F(1)\nB(y) --> !(y)F(y)\n",
		"homo-polygons": "axiom: A\nA --> AB\nB --> A\nderivation length: 8\nhomomorphism\nA --> {.+f.+f.}\nB --> F#\n",
		"homo-branches": "axiom: A[B]C\nA --> AA\nderivation length: 3\nhomomorphism\nA > [B]C --> F\nA --> f\n",
	} {
		sys, err := syntax.Parse(name+".l", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = sys
	}
	files, _ := filepath.Glob(filepath.Join("../../../configs/lsys", "*.l"))
	for _, f := range files {
		sys, err := syntax.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = sys
	}
	return out
}

// runPipeline derives, applies the homomorphism and interprets on p.
func runPipeline(t *testing.T, p Pipeline, sys *lsys.System) (d *lsys.Derivation, final *lsys.String, n int, width, poly bool, g *Geometry) {
	t.Helper()
	ctx := context.Background()
	d, err := p.Derive(ctx, sys, lsys.DeriveOptions{Steps: -1, Seed: 1, Env: Queries{}})
	if err != nil {
		t.Fatalf("derive: %v", err)
	}
	if final, err = p.Final(); err != nil {
		t.Fatalf("final: %v", err)
	}
	if n, err = p.Homomorphism(ctx); err != nil {
		t.Fatalf("homomorphism: %v", err)
	}
	if width, err = p.Has('!', '#'); err == nil {
		poly, err = p.Has('{')
	}
	if err != nil {
		t.Fatalf("has: %v", err)
	}
	if g, err = p.Interpret(ctx, Options{}); err != nil {
		t.Fatalf("interpret: %v", err)
	}
	return d, final, n, width, poly, g
}

// The host pipeline is the three steps the CLI ran before it.
func TestHostPipeline(t *testing.T) {
	ctx := context.Background()
	for name, sys := range pipelineSystems(t) {
		t.Run(name, func(t *testing.T) {
			p := NewPipeline(nil)
			defer p.Close()
			d, final, n, width, poly, g := runPipeline(t, p, sys)
			wd, err := lsys.CPU{}.Derive(ctx, sys, lsys.DeriveOptions{Steps: -1, Seed: 1, Env: Queries{}})
			if err != nil {
				t.Fatal(err)
			}
			ws, err := lsys.ApplyHomomorphism(ctx, sys, wd.String, 0)
			if err != nil {
				t.Fatal(err)
			}
			wg, err := CPU{}.Interpret(ctx, sys, ws, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d, wd) || !reflect.DeepEqual(final, wd.String) || n != ws.Len() {
				t.Fatalf("derivation or homomorphism differ: %d modules, want %d", n, ws.Len())
			}
			if width != hasAny(ws.Syms, "!#") || poly != hasAny(ws.Syms, "{") {
				t.Fatalf("Has: widths %v polygons %v", width, poly)
			}
			if !reflect.DeepEqual(g, wg) {
				t.Fatalf("geometry differs: %+v, want %+v", g.Stats, wg.Stats)
			}
		})
	}
}

func hasAny(b []byte, syms string) bool {
	for _, c := range b {
		for i := range len(syms) {
			if c == syms[i] {
				return true
			}
		}
	}
	return false
}

func TestPipelineOrder(t *testing.T) {
	p := NewPipeline(nil)
	if _, err := p.Final(); !errors.Is(err, errPipelineOrder) {
		t.Fatalf("Final before Derive: %v", err)
	}
	if _, err := p.Homomorphism(context.Background()); !errors.Is(err, errPipelineOrder) {
		t.Fatalf("Homomorphism before Derive: %v", err)
	}
	if _, err := p.Interpret(context.Background(), Options{}); !errors.Is(err, errPipelineOrder) {
		t.Fatalf("Interpret before Homomorphism: %v", err)
	}
	if _, err := p.Has('F'); !errors.Is(err, errPipelineOrder) {
		t.Fatalf("Has before Homomorphism: %v", err)
	}
}
