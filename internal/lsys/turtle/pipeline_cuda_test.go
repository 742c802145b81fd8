//go:build cuda

package turtle

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// The device pipeline against the host one: the same derivation, derived
// string, homomorphism length and symbols, and the geometry to the CUDA
// interpreter's tolerance.
func TestCUDAPipelineMatchesCPU(t *testing.T) {
	cu := cudaInterpreter(t)
	for name, sys := range pipelineSystems(t) {
		t.Run(name, func(t *testing.T) {
			host, dev := NewPipeline(nil), NewPipeline(cu.Dev)
			defer host.Close()
			defer dev.Close()
			wd, wfinal, wn, wwidth, wpoly, wg := runPipeline(t, host, sys)
			d, final, n, width, poly, g := runPipeline(t, dev, sys)
			if d.String != nil {
				t.Fatal("the device pipeline downloaded the derived string in Derive")
			}
			wd.String = nil
			// A string without parameters may hold a nil or an empty
			// Params slice: the same string.
			for _, s := range []*lsys.String{final, wfinal} {
				if s != nil && len(s.Params) == 0 {
					s.Params = nil
				}
			}
			if !reflect.DeepEqual(d.Steps, wd.Steps) || d.Total != wd.Total {
				t.Fatalf("derivations differ: steps %v total %d, want %v %d", d.Steps, d.Total, wd.Steps, wd.Total)
			}
			if !reflect.DeepEqual(final, wfinal) || n != wn {
				t.Fatalf("derived string or homomorphism differ: %d modules, want %d", n, wn)
			}
			if width != wwidth || poly != wpoly {
				t.Fatalf("Has: widths %v polygons %v, want %v %v", width, poly, wwidth, wpoly)
			}
			sameGeometry(t, wg, g, 1e-5)
		})
	}
}

// InterpretDevice on a derived string left on the device gives exactly the
// geometry Interpret gives on its downloaded copy (same kernels, same
// chunks), without Final ever downloading it.
func TestCUDAInterpretDeviceExact(t *testing.T) {
	cu := cudaInterpreter(t)
	ctx := context.Background()
	for name, sys := range pipelineSystems(t) {
		if lsys.HomomorphismOnGPU(sys) != nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			c := lsys.CUDA{Dev: cu.Dev}
			ds, _, err := c.DeriveOnDevice(ctx, sys, lsys.DeriveOptions{Steps: -1, Seed: 1, Env: Queries{}})
			if err != nil {
				t.Fatal(err)
			}
			hs, err := c.ApplyHomomorphismOnDevice(ctx, sys, ds)
			if err != nil {
				t.Fatal(err)
			}
			defer hs.Free()
			copy, err := hs.Download()
			if err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{0, 16} {
				cu.Chunk = chunk
				want, err := cu.Interpret(ctx, sys, copy, Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, err := cu.InterpretDevice(ctx, sys, hs, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("chunk %d: geometry %+v, want %+v", chunk, got.Stats, want.Stats)
				}
			}
		})
	}
}

// Errors found on a string that never came to the host name the same module
// as the CPU's (the symbols are read back for the message only).
func TestCUDAPipelineErrors(t *testing.T) {
	cu := cudaInterpreter(t)
	ctx := context.Background()
	for _, tail := range []lsys.Symbol{']', '}'} {
		sys, err := syntax.Parse("t.l", []byte("axiom: A\nA --> F[+A][-A]\nderivation length: 9\n"))
		if err != nil {
			t.Fatal(err)
		}
		// The parser keeps successors balanced; one built otherwise makes a
		// string that closes what it never opened.
		sys.Prods[0].Succ = append(sys.Prods[0].Succ, lsys.Module{Sym: tail})
		var errs [2]error
		for i, p := range []Pipeline{NewPipeline(nil), NewPipeline(cu.Dev)} {
			if _, err := p.Derive(ctx, sys, lsys.DeriveOptions{Steps: -1}); err != nil {
				t.Fatal(err)
			}
			if _, err := p.Homomorphism(ctx); err != nil {
				t.Fatal(err)
			}
			_, errs[i] = p.Interpret(ctx, Options{})
			p.Close()
		}
		if !errors.Is(errs[1], ErrUnbalanced) || errs[0] == nil || errs[0].Error() != errs[1].Error() {
			t.Errorf("trailing %q: error %v, CPU %v", tail, errs[1], errs[0])
		}
	}
}

// BenchmarkCUDAPipeline: derive, homomorphism and interpretation with the
// string kept on the device ("resident") against the path the CLI took
// before (Derive downloads the string, the host applies the homomorphism,
// Interpret uploads it again: "roundtrip"). Wall time of the whole chain,
// geometry on the host at the end.
func BenchmarkCUDAPipeline(b *testing.B) {
	cu := cudaInterpreter(b)
	ctx := context.Background()
	for _, bc := range []struct {
		file  string
		steps int
	}{{"koch-island.l", 6}, {"koch-island.l", 7}, {"dragon-curve.l", 20}, {"tree3d.l", 11}} {
		sys, err := syntax.ParseFile(filepath.Join(configDir, bc.file))
		if err != nil {
			b.Fatal(err)
		}
		o := lsys.DeriveOptions{Steps: bc.steps, Seed: 1}
		name := fmt.Sprintf("%s/n=%d", strings.TrimSuffix(bc.file, ".l"), bc.steps)
		b.Run(name+"/resident", func(b *testing.B) {
			for b.Loop() {
				p := NewPipeline(cu.Dev)
				if _, err := p.Derive(ctx, sys, o); err != nil {
					b.Fatal(err)
				}
				if _, err := p.Homomorphism(ctx); err != nil {
					b.Fatal(err)
				}
				if _, err := p.Interpret(ctx, Options{}); err != nil {
					b.Fatal(err)
				}
				p.Close()
			}
		})
		b.Run(name+"/roundtrip", func(b *testing.B) {
			for b.Loop() {
				d, err := lsys.CUDA{Dev: cu.Dev}.Derive(ctx, sys, o)
				if err != nil {
					b.Fatal(err)
				}
				s, err := lsys.ApplyHomomorphism(ctx, sys, d.String, 0)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cu.Interpret(ctx, sys, s, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// symbolSet finds exactly the bytes that occur, at lengths around the
// kernel's block and grid sizes, with every byte value possible.
func TestCUDASymbolSet(t *testing.T) {
	cu := cudaInterpreter(t)
	rng := newRand(7)
	for _, n := range []int{1, 15, 255, 256, 4097, 1 << 20, 3<<20 + 5} {
		for _, alphabet := range []int{1, 3, 40, 256} {
			syms := make([]byte, n)
			base := rng.IntN(256)
			for i := range syms {
				syms[i] = byte(base + rng.IntN(alphabet))
			}
			buf, err := gpu.Upload(cu.Dev, syms)
			if err != nil {
				t.Fatal(err)
			}
			set, err := symbolSet(cu.Dev, buf, n)
			buf.Free()
			if err != nil {
				t.Fatal(err)
			}
			var want [256]bool
			for _, c := range syms {
				want[c] = true
			}
			if *set != want {
				t.Fatalf("n=%d alphabet %d: the set differs", n, alphabet)
			}
		}
	}
}
