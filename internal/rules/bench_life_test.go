package rules

import (
	"context"
	"fmt"
	"testing"
)

// lifeLoop is the plain loop the rule engine is measured against (the
// issue's C program in Go): one byte per cell, one thread, B3/S23 on a
// w x h torus, gens generations; the board ends in cells.
func lifeLoop(cells, next []byte, w, h, gens int) []byte {
	for range gens {
		for y := range h {
			up, mid, down := (y-1)*w, y*w, (y+1)*w
			if y == 0 {
				up = (h - 1) * w
			}
			if y == h-1 {
				down = 0
			}
			for x := range w {
				l, r := x-1, x+1
				if x == 0 {
					l = w - 1
				}
				if x == w-1 {
					r = 0
				}
				n := cells[up+l] + cells[up+x] + cells[up+r] + cells[mid+l] + cells[mid+r] + cells[down+l] + cells[down+x] + cells[down+r]
				if n == 3 || n == 2 && cells[mid+x] == 1 {
					next[mid+x] = 1
				} else {
					next[mid+x] = 0
				}
			}
		}
		cells, next = next, cells
	}
	return cells
}

// TestLifeLoopMatchesRules: the benchmark's two sides compute the same
// boards (and every CPU path does).
func TestLifeLoopMatchesRules(t *testing.T) {
	const w, h, gens = 37, 23, 30
	p := compileConfig(t, "life.rules", map[string]string{"W": fmt.Sprint(w), "H": fmt.Sprint(h)})
	for _, path := range []CPUPath{PathInterpret, PathBatch} {
		st := Generate(p, 2, 9)
		cells := make([]byte, w*h)
		for k, v := range field(p, st, 1, "c") {
			cells[k] = byte(v)
		}
		want := lifeLoop(cells, make([]byte, w*h), w, h, gens)
		if _, err := (CPU{Path: path}).Run(context.Background(), p, st, Options{Steps: gens}); err != nil {
			t.Fatal(err)
		}
		for k, v := range field(p, st, 1, "c") {
			if byte(v) != want[k] {
				t.Fatalf("path %d: cell %d: %d, want %d", path, k, v, want[k])
			}
		}
	}
}

// BenchmarkLife512 is one Life board of 512x512 cells for 100 generations:
// the plain C loop (built with gcc when there is one), the plain Go byte
// loop, then the rule engine's CPU paths on one worker and on all cores
// (-cpu sets them). ns/cell is wall time per cell update, cpu-ns/cell the
// process's CPU time (a fairer figure on a shared machine, and the C
// program's own measure); run all of them in one go and compare those.
func BenchmarkLife512(b *testing.B) {
	const w, h, gens = 512, 512, 100
	var cpu0 int64
	start := func(b *testing.B) {
		b.ResetTimer()
		cpu0 = cpuNanos()
	}
	perCell := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(w*h*gens), "ns/cell")
		b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N)/(w*h*gens), "cpu-ns/cell")
	}
	p := compileConfig(b, "life.rules", map[string]string{"W": fmt.Sprint(w), "H": fmt.Sprint(h)})
	init := Generate(p, 1, 1)
	cells := make([]byte, w*h)
	for k, v := range init.Data {
		cells[k] = byte(v)
	}
	b.Run("c", func(b *testing.B) {
		dir := b.TempDir()
		bin := buildLifeC(b, dir)
		if bin == "" {
			b.Skip("no gcc")
		}
		var ns int64
		b.ResetTimer()
		for range b.N {
			_, t := runLifeC(b, bin, dir, cells, w, h, gens)
			ns += t
		}
		b.ReportMetric(float64(ns)/float64(b.N)/(w*h*gens), "cpu-ns/cell")
	})
	b.Run("loop", func(b *testing.B) {
		cur := append([]byte(nil), cells...)
		next := make([]byte, w*h)
		start(b)
		for range b.N {
			lifeLoop(cur, next, w, h, gens)
		}
		perCell(b)
	})
	for _, path := range []struct {
		name string
		p    CPUPath
	}{{"batch", PathBatch}, {"interp", PathInterpret}} {
		for _, workers := range []int{1, 0} {
			b.Run(fmt.Sprintf("%s/workers=%d", path.name, workers), func(b *testing.B) {
				st := &States{N: 1, Words: init.Words, Data: append([]uint32(nil), init.Data...)}
				start(b)
				for range b.N {
					if _, err := (CPU{Path: path.p}).Run(context.Background(), p, st, Options{Steps: gens, Workers: workers}); err != nil {
						b.Fatal(err)
					}
				}
				perCell(b)
			})
		}
	}
}
