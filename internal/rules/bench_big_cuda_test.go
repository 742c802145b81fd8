//go:build cuda

package rules

import (
	"context"
	"testing"
	"time"
)

// BenchmarkLifeBigBoardCUDA is the board on the GPU: "run" is the engine's
// whole Run (upload, 1000 steps tiled, download), "steps" the device time
// of the steps alone (CUDA events around the launches), the stencil's
// own rate.
func BenchmarkLifeBigBoardCUDA(b *testing.B) {
	c := cudaEngine(b)
	p, init := bigLife(b)
	steps := bigLifeSteps(b)
	b.Run("run", func(b *testing.B) {
		st := &States{N: 1, Words: init.Words, Data: make([]uint32, len(init.Data))}
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			copy(st.Data, init.Data)
			b.StartTimer()
			res, err := c.Run(context.Background(), p, st, Options{Steps: steps, NoFiredPerStep: true})
			if err != nil {
				b.Fatal(err)
			}
			if !res.Tiled || res.Kernel != "generated" {
				b.Fatalf("tiled %v, kernel %s (%s)", res.Tiled, res.Kernel, res.KernelNote)
			}
		}
		reportStencil(b, b.Elapsed().Seconds()/float64(b.N), steps)
	})
	for _, interp := range []bool{false, true} {
		name := map[bool]string{false: "steps/generated", true: "steps/interpreter"}[interp]
		b.Run(name, func(b *testing.B) {
			r, err := newCUDARun(c.Dev, p, init, Compact, LayoutC, steps, interp, !interp)
			if err != nil {
				b.Fatal(err)
			}
			defer r.free()
			if r.tile == nil {
				b.Fatal("not tiled")
			}
			if err := r.launch(0, 1); err != nil { // warm up
				b.Fatal(err)
			}
			var total time.Duration
			b.ResetTimer()
			for range b.N {
				dt, err := c.Dev.Time(func() error { return r.launch(0, steps) })
				if err != nil {
					b.Fatal(err)
				}
				total += dt
			}
			reportStencil(b, total.Seconds()/float64(b.N), steps)
		})
	}
}
