//go:build cuda

package pga

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

func TestCUDAEquivalenceBilateral(t *testing.T) {
	for _, c := range bilateralGrammars {
		t.Run(c.name, func(t *testing.T) {
			g, err := Parse(c.name+".pga", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			runEquivalence(t, g, facadeAxioms(300), 0)
		})
	}
	t.Run("balconies.pga", func(t *testing.T) {
		g := cudaGrammar(t, "balconies.pga")
		lots := gridLots(t, 40, 3, 0, 0, 10, 30)
		runEquivalenceOpt(t, g, LotAxioms(Box, lots, 1, 20), Options{LotAttrs: LotAttrValues(lots)}, 0)
	})
}

// Thousands of ancestor records in one phase outgrow the first buffer: it
// grows, the phase runs again, and records of the first phase serve the
// queries of the second.
func TestCUDABilateralRecordsGrow(t *testing.T) {
	g, err := Parse("grow.pga", []byte(growGrammar))
	if err != nil {
		t.Fatal(err)
	}
	axioms := facadeAxioms(300)
	cpu, err := g.Evaluate(axioms, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCUDA(gputest.Device(t, nil), g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, m := range cudaModes[:2] {
		c.pc.ancCap = 0
		opt := m.opt
		opt.KeepTerminals = true
		r, err := c.Evaluate(context.Background(), axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		sameTerminals(t, cpu, r.Terminals)
		if first := 1024 + 4*len(axioms); c.pc.ancCap <= first || c.pc.ancN <= first {
			t.Fatalf("%s: %d records in room for %d: nothing grew", m.name, c.pc.ancN, c.pc.ancCap)
		}
		t.Logf("%s: %d ancestor records", m.name, c.pc.ancN)
	}
}

// Errors inside a re-derivation are the CPU's: a target too deep below its
// ancestor, and MaxShapes counting the re-derived shapes.
func TestCUDABilateralErrors(t *testing.T) {
	g, deep := tooDeepGrammar(t)
	ax := []Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}
	_, cpuErr := g.Evaluate(ax, Options{})
	c, err := NewCUDA(gputest.Device(t, nil), g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, m := range cudaModes[:2] {
		_, err := c.Evaluate(context.Background(), ax, m.opt)
		want := strings.TrimPrefix(cpuErr.Error(), "pga: axiom 0: ")
		if err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Fatalf("%s: got %v, want ...%s", m.name, err, want)
		}
	}
	g2, err := Parse("ok.pga", []byte(strings.Replace(deep, "L1 = Replicate() { L2 };", "L1 = L2;", 1)))
	if err != nil {
		t.Fatal(err)
	}
	runEquivalence(t, g2, ax, 2)
}

// Statistics kept on the device still name the lots buildings overflow,
// as the CPU measures them.
func TestCUDAOverflowsWithoutDownload(t *testing.T) {
	for _, name := range []string{"Residential", "CrossTowers"} {
		g := cudaGrammar(t, scenes[name].file)
		lots, err := Grid{Cols: 3, Rows: 2, Seed: 1, LotWidth: scenes[name].grid.LotWidth, LotDepth: scenes[name].grid.LotDepth}.Lots()
		if err != nil {
			t.Fatal(err)
		}
		axioms, opt := LotAxioms(g.Axioms[0].Kind, lots, 1, 20), Options{LotAttrs: LotAttrValues(lots)}
		cpu, err := g.Evaluate(axioms, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := g.Overflows(cpu, lots, 0.01)
		c, err := NewCUDA(gputest.Device(t, nil), g)
		if err != nil {
			t.Fatal(err)
		}
		opt.Mesh, opt.Lots, opt.OverflowTol = true, lots, 0.01
		res, err := c.Evaluate(context.Background(), axioms, opt)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Overflows) != len(want) {
			t.Fatalf("%s: device %+v, CPU %+v", name, res.Overflows, want)
		}
		for i := range want {
			if res.Overflows[i].Lot != want[i].Lot || !cudaNear(res.Overflows[i].Outside, want[i].Outside) {
				t.Fatalf("%s: device %+v, CPU %+v", name, res.Overflows, want)
			}
		}
		t.Logf("%s: %d of %d lots overflow", name, len(want), len(lots))
	}
}

// BenchmarkCUDABilateralBalconies: balconies.pga on the device (evaluation
// and mesh, device time), with its bilateral query (the *_ask kernels) and
// with the query answered 0 (the plain kernels).
func BenchmarkCUDABilateralBalconies(b *testing.B) {
	g := cudaGrammar(b, "balconies.pga")
	src, err := cudaFind("balconies.pga")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10, 40} {
		lots, err := Grid{Cols: n, Rows: n, Seed: 1}.Lots()
		if err != nil {
			b.Fatal(err)
		}
		axioms, opt := LotAxioms(Box, lots, 1, 20), Options{LotAttrs: LotAttrValues(lots)}
		for _, v := range []struct {
			name string
			g    *Grammar
		}{{"query", g}, {"noquery", balconiesNoQuery(b, src)}} {
			for _, m := range cudaModes[:2] {
				b.Run(fmt.Sprintf("%dx%d/%s/%s", n, n, v.name, m.name), func(b *testing.B) {
					c, err := NewCUDA(gputest.Device(b, nil), v.g)
					if err != nil {
						b.Fatal(err)
					}
					defer c.Close()
					o := opt
					o.CUDATuning, o.Mesh = m.opt.CUDATuning, true
					var dev time.Duration
					var terms int
					for b.Loop() {
						r, err := c.Evaluate(context.Background(), axioms, o)
						if err != nil {
							b.Fatal(err)
						}
						dev += r.DeviceTime
						terms = r.Stats.Terminals
					}
					b.ReportMetric(float64(dev.Microseconds())/1e3/float64(b.N), "device-ms")
					b.ReportMetric(float64(terms), "terminals")
				})
			}
		}
	}
}
