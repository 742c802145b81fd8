package forest

import (
	"math"
	"slices"
)

// Bytes a run allocates per grid cell, measured (go1.26, linux/amd64) on
// 1M-cell grids and rounded up:
//   - memoryLayerBytes per cell and layer: the density the caller keeps
//     (with --realize also the int64 count);
//   - memoryOutputBytes per cell: the caller's encoders (CSV, ASC and PNG
//     text and images of one layer at a time) and the collector's headroom;
//   - memoryQuadBytes per cell: the multires quadtree (six values a node,
//     the pyramid a third more, and the binning cursor), rebuilt per species;
//   - memoryBaseBytes: the runtime, the stems and the kernel tables.
const (
	memoryLayerBytes  = 8
	memoryOutputBytes = 64
	memoryQuadBytes   = 72
	memoryBaseBytes   = 16 << 20
)

// MemoryEstimate is the peak bytes of Disperse on g with these trees and
// species and of writing its layers (one per species and their total;
// with realize each also drawn as counts),
// before any grid is allocated. The FFT's lattice depends on each species'
// kernel reach, so it is sized here as prepare sizes it: two real lattices
// and four spectra, the error estimate per cell, and a lattice of another
// size beside the last one where species' kernels differ.
func MemoryEstimate(g Grid, trees []Tree, species []Species, o Options, realize bool) (float64, error) {
	cells := float64(g.NX) * float64(g.NY)
	layers := float64(len(species) + 1)
	per := memoryLayerBytes * layers
	if realize {
		per *= 2
	}
	est := memoryBaseBytes + cells*(per+memoryOutputBytes)
	switch o.Method {
	case Multires:
		est += cells * memoryQuadBytes
	case FFT, "":
		sets, err := gatherParents(trees, species, false) // only counts and kernels matter here
		if err != nil {
			return 0, err
		}
		var lattices []float64
		for _, ps := range sets {
			if len(ps.x) == 0 || exactCost(g, o.Boundary == Torus, ps) < (&fftRunner{g: g, torus: o.Boundary == Torus}).cost(ps.k, len(ps.x)) {
				continue // summed exactly: no lattice
			}
			c, err := newConvGeom(g, o.Boundary == Torus, ps.k, len(ps.x))
			if err != nil {
				return 0, err
			}
			lat := float64(c.px) * float64(c.py)
			spec := float64(c.px/2+1) * float64(c.py)
			lattices = append(lattices, lat*2*8+spec*(2*16+2*8))
		}
		if len(lattices) > 0 {
			slices.Sort(lattices)
			est += lattices[len(lattices)-1] + cells*8 // errEst
			if len(lattices) > 1 {
				est += lattices[len(lattices)-2]
			}
		}
	}
	if math.IsNaN(est) {
		return math.Inf(1), nil
	}
	return est, nil
}
