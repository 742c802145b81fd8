//go:build cuda

package forest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// The device's fix-up scan flags exactly the cells fixCells flags (the
// same spans, cell count and largest relative error, bit for bit, NaN
// included) on grids that are not multiples of the tile, with values at the
// floor and exactly at the tolerance, and gaps of 3 and 4 cells between
// flagged cells; its tile flags mark exactly the tiles holding a span.
func TestCUDAFixScanMatchesCPU(t *testing.T) {
	e := cudaEngine(t)
	k, err := newKern(cudaTestSpecies[0])
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		nx, ny int
		fill   string
	}{
		{1, 1, "random"}, {33, 7, "random"}, {100, 65, "random"}, {257, 40, "random"}, {64, 64, "gaps"},
		{40, 3, "zero"}, {40, 3, "zero-err"}, {70, 33, "none"}, {50, 20, "negzero"},
	} {
		t.Run(fmt.Sprintf("%dx%d-%s", tc.nx, tc.ny, tc.fill), func(t *testing.T) {
			g := Grid{X0: 0, Y0: 0, Cell: 1, NX: tc.nx, NY: tc.ny}
			n := g.Cells()
			tol := defaultTolerance
			dens, errEst := make([]float64, n), make([]float64, n)
			for i := range dens {
				switch tc.fill {
				case "random":
					dens[i] = rng.Float64() * math.Pow(10, -float64(rng.IntN(14)))
					switch rng.IntN(5) {
					case 0:
						errEst[i] = tol * dens[i] // exactly at the tolerance: not fixed
					case 1:
						errEst[i] = 2 * tol * dens[i]
					case 2:
						errEst[i] = 0.5 * tol * dens[i]
					case 3:
						errEst[i] = rng.Float64() * 1e-9
					}
				case "gaps":
					dens[i] = 1
					if c := i % g.NX; c%5 == 0 || c%9 == 0 { // gaps of 3 and 4 among others
						errEst[i] = 1
					}
				case "zero-err":
					if i%7 == 0 {
						errEst[i] = 1e-3
					}
				case "negzero": // -0 from the transform's clamp, and small densities
					dens[i] = math.Copysign(0, -1)
					if i%3 == 0 {
						dens[i], errEst[i] = 1e-300*float64(i), 1e-299
					}
				case "none":
					dens[i], errEst[i] = 1+rng.Float64(), 1e-6*rng.Float64()
				}
			}
			maxF := 0.0
			for _, v := range dens {
				maxF = max(maxF, v)
			}
			var want Accuracy
			ps := &parentSet{k: k}
			cpuDens := append([]float64(nil), dens...)
			if err := fixCells(context.Background(), g, &convGeom{}, ps, cpuDens, errEst, maxF, tol, 1, &want); err != nil {
				t.Fatal(err)
			}

			r := newCUDARun(e.Dev, nil)
			defer r.free()
			f := newCUDAFFTRunner(r, g, false, 0, 1)
			db, err := gpu.Upload(e.Dev, dens)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Free()
			eb, err := gpu.Upload(e.Dev, errEst)
			if err != nil {
				t.Fatal(err)
			}
			defer eb.Free()
			s, err := f.scanFix(db, eb)
			if err != nil {
				t.Fatal(err)
			}
			if s.exactCells != want.ExactCells || math.Float64bits(s.maxRel) != math.Float64bits(want.MaxRel) &&
				!(math.IsNaN(s.maxRel) && math.IsNaN(want.MaxRel)) {
				t.Fatalf("%d exact cells, max rel %g; CPU %d, %g", s.exactCells, s.maxRel, want.ExactCells, want.MaxRel)
			}
			if want.ExactCells == 0 {
				return
			}
			spans, flagged, err := s.spans(r, g)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(spans, want.fixed) {
				t.Fatalf("spans differ from the CPU's")
			}
			tx := (g.NX + cudaExTile - 1) / cudaExTile
			wantTile := map[int]bool{}
			for j, row := range spans {
				for _, sp := range row {
					for i := sp.lo; i < sp.hi; i++ {
						wantTile[(j/cudaExTile)*tx+i/cudaExTile] = true
					}
				}
			}
			for tile := range tx * ((g.NY + cudaExTile - 1) / cudaExTile) {
				if flagged(tile) != wantTile[tile] {
					t.Fatalf("tile %d flagged %v, want %v", tile, flagged(tile), wantTile[tile])
				}
			}
		})
	}
}

// A plan for some tiles lists, for each of them, exactly the full plan's
// parent runs, with work items covering them, and nothing for the others
// (no device needed).
func TestCUDAExactPlanForTiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := Grid{X0: 10, Y0: 5, Cell: 1, NX: 200, NY: 150}
	trees := cudaRandomPlot(rng, g, 3000, 1)
	sets, err := parentSets(g, trees, cudaTestSpecies[:1])
	if err != nil {
		t.Fatal(err)
	}
	ps := sets[0]
	full := newCUDAExactPlan(g, ps, 0, false, 132)
	tx, ty := (g.NX+cudaExTile-1)/cudaExTile, (g.NY+cudaExTile-1)/cudaExTile
	for _, pick := range []func(int) bool{
		func(tile int) bool { return tile%3 == 0 },
		func(tile int) bool { return tile == tx*ty-1 },
		func(int) bool { return false },
	} {
		p := newCUDAExactPlanFor(g, ps, 0, false, 132, pick)
		if !reflect.DeepEqual(p.xy, full.xy) || !reflect.DeepEqual(p.w, full.w) || p.kernel != full.kernel {
			t.Fatal("the parents differ from the full plan's")
		}
		covered := make([]int, tx*ty)
		for i := 0; i < len(p.items); i += 4 {
			covered[p.items[i]] += int(p.items[i+2] - p.items[i+1])
		}
		for tile := range tx * ty {
			runs := func(q *cudaExactPlan) []int32 { return q.ranges[2*q.roff[tile] : 2*q.roff[tile+1]] }
			want := []int32{}
			if pick(tile) {
				want = runs(full)
			}
			got := runs(p)
			count := 0
			for r := 1; r < len(got); r += 2 {
				count += int(got[r])
			}
			if !reflect.DeepEqual(append([]int32{}, got...), append([]int32{}, want...)) || covered[tile] != count {
				t.Fatalf("tile %d (picked %v): runs %v, want %v; items cover %d of %d", tile, pick(tile), got, want,
					covered[tile], count)
			}
		}
	}
}
