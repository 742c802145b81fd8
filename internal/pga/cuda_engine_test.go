//go:build cuda

package pga

import (
	"context"
	"errors"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

// Through the Engine interface, the CUDA engine gives what the CPU engine
// gives: with KeepTerminals the same terminals (as a set), without them the
// same statistics (with Mesh) and, either way, the same overflows.
func TestCUDAEngineMatchesCPU(t *testing.T) {
	g, axioms, opt := scenes["Skyscrapers"].load(t, 6, 5)
	grid := scenes["Skyscrapers"].grid
	grid.Seed, grid.Cols, grid.Rows = 1, 6, 5
	lots, err := grid.Lots()
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCUDA(gputest.Device(t, nil), g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	engines := []Engine{CPU{Grammar: g}, c}
	opt.Lots, opt.OverflowTol = lots, 0.01
	for _, keep := range []bool{true, false} {
		o := opt
		o.KeepTerminals, o.Mesh = keep, !keep
		var res [2]*Result
		for i, e := range engines {
			if res[i], err = e.Evaluate(context.Background(), axioms, o); err != nil {
				t.Fatalf("KeepTerminals %v, engine %d: %v", keep, i, err)
			}
		}
		cpu, dev := res[0], res[1]
		if keep {
			if len(cpu.Terminals) == 0 {
				t.Fatal("the scene made no terminals")
			}
			sameTerminals(t, cpu.Terminals, dev.Terminals)
		} else {
			a, b := cpu.Stats, dev.Stats
			if a.Terminals == 0 || a.Terminals != b.Terminals || a.Vertices != b.Vertices || a.Triangles != b.Triangles || len(a.ByName) != len(b.ByName) {
				t.Fatalf("statistics: CPU %+v, CUDA %+v", a, b)
			}
		}
		if cpu.Stats.Terminals != dev.Stats.Terminals {
			t.Fatalf("KeepTerminals %v: CPU counted %d terminals, CUDA %d", keep, cpu.Stats.Terminals, dev.Stats.Terminals)
		}
		if len(cpu.Overflows) != len(dev.Overflows) {
			t.Fatalf("KeepTerminals %v: CPU overflows %v, CUDA %v", keep, cpu.Overflows, dev.Overflows)
		}
		for i := range cpu.Overflows {
			if cpu.Overflows[i].Lot != dev.Overflows[i].Lot {
				t.Fatalf("KeepTerminals %v: CPU overflows %v, CUDA %v", keep, cpu.Overflows, dev.Overflows)
			}
		}
	}
}

// The kernels do not check geometry as the CPU does: the CUDA engine checks
// the terminals it returns, so both engines refuse NaN or infinite ones.
func TestCUDAEngineNonFinite(t *testing.T) {
	for _, src := range []string{
		"axiom Box Lot;\nterminal Mass (1, 0);\nLot = Scale(0/0, 1, 1) Mass;\n",
		"axiom Box Lot;\nterminal Mass (1, 0);\nLot = Translate(1/0, 0, 0) Mass;\n",
	} {
		g, err := Parse("n.pga", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCUDA(gputest.Device(t, nil), g)
		if err != nil {
			t.Fatal(err)
		}
		ax := []Shape{NewAxiom(Box, Vec3{10, 10, 10}, 1)}
		_, err = c.Evaluate(context.Background(), ax, Options{KeepTerminals: true})
		c.Close()
		if !errors.Is(err, ErrNonFinite) {
			t.Errorf("%q: CUDA: %v, want ErrNonFinite", src, err)
		}
	}
}
