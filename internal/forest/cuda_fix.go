//go:build cuda

package forest

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// The fft method's fix-up on the device. fixCells (fft.go) on the CPU scans
// the densities and error estimates for cells above the tolerance and sums
// those exactly; the CUDA backend used to download both grids, sort the
// parents by y and run that on the host. Here the scan runs on the device
// (cuda/forest_fix.cuh: the same comparisons in the same float64 arithmetic,
// so the same cells), the exact kernels (cuda/forest.cu) sum the 32x32
// tiles that hold flagged cells (a plan for those tiles alone, its work
// items cut to fill the device), a merge writes those cells, and only the
// densities, the rows' statistics and, when cells were fixed, a byte per
// cell (for Accuracy's spans) come back. The fixed cells carry the exact
// kernels' float32 accuracy (cudaExactMaxRel) instead of the CPU's float64
// sum: Accuracy.MaxRel says so.

// fixThreads matches FIX_THREADS in cuda/forest_fix.cuh.
const fixThreads = 256

// fixScan is the scan's result: per row, the fixed cells and the largest
// relative error of the others; on the device, a byte a cell (the mask) and
// a byte a 32x32 tile (flagged tiles), packed four to a word.
type fixScan struct {
	cells       []int32
	rels        []float64
	mask, tiles *gpu.Buffer[uint32]
	tilesX      int
	merge       gpu.Func[fixMergeArgs]
	exactCells  int
	maxRel      float64
}

// scanFix runs the scan of cuda/forest_fix.cuh over the nx x ny densities
// and error estimates on the device.
func (f *cudaFFTRunner) scanFix(dens, errEst *gpu.Buffer[float64]) (*fixScan, error) {
	g, r := f.g, f.r
	nx, ny := g.NX, g.NY
	n := nx * ny
	tx, ty := (nx+cudaExTile-1)/cudaExTile, (ny+cudaExTile-1)/cudaExTile
	maxFn, err := fixMax.Load(r.dev)
	if err != nil {
		return nil, err
	}
	scanFn, err := fixScanK.Load(r.dev)
	if err != nil {
		return nil, err
	}
	mergeFn, err := fixMerge.Load(r.dev)
	if err != nil {
		return nil, err
	}
	maxBits, err1 := cudaBuf(r, r.u32, "fix.max", 2)
	mask, err2 := cudaBuf(r, r.u32, "fix.mask", (n+3)/4) // a byte a cell
	tiles, err3 := cudaBuf(r, r.u32, "fix.tiles", (tx*ty+3)/4)
	rowCells, err4 := cudaBuf(r, r.i32, "fix.rowcells", ny)
	rowRel, err5 := cudaBuf(r, r.f64, "fix.rowrel", ny)
	for _, err := range []error{err1, err2, err3, err4, err5} {
		if err != nil {
			return nil, err
		}
	}
	s := &fixScan{cells: make([]int32, ny), rels: make([]float64, ny), mask: mask, tiles: tiles, tilesX: tx,
		merge: mergeFn}
	b := r.dev.NewBatch()
	gpu.BatchZero(b, maxBits, 2)
	gpu.BatchZero(b, tiles, (tx*ty+3)/4)
	maxFn.Queue(b, gpu.Dim(min((n+fixThreads-1)/fixThreads, 1024)), gpu.Dim(fixThreads), 0,
		fixMaxArgs{dens.Ptr(), int64(n), maxBits.Ptr()})
	scanFn.Queue(b, gpu.Dim((ny+fixThreads-1)/fixThreads), gpu.Dim(fixThreads), 0,
		fixScanArgs{dens.Ptr(), errEst.Ptr(), int32(nx), int32(ny), maxBits.Ptr(), fftFloor,
			f.tol, mask.Ptr(), rowCells.Ptr(), rowRel.Ptr(), tiles.Ptr(), int32(tx)})
	gpu.BatchRead(b, rowCells, s.cells, 0)
	gpu.BatchRead(b, rowRel, s.rels, 0)
	if err := r.stage("fix.scan", b.Run); err != nil {
		return nil, fmt.Errorf("forest: fft fix-up: %w", err)
	}
	for j := range ny {
		s.maxRel = max(s.maxRel, s.rels[j])
		s.exactCells += int(s.cells[j])
	}
	return s, nil
}

// spans reads the mask and the tile flags back: the spans of fixed cells by
// row, as fixCells makes them, and whether each tile holds one.
func (s *fixScan) spans(r *cudaRun, g Grid) ([][]span, func(tile int) bool, error) {
	nx, ny := g.NX, g.NY
	n := nx * ny
	ntiles := s.tilesX * ((ny + cudaExTile - 1) / cudaExTile)
	maskW := make([]uint32, (n+3)/4)
	tileW := make([]uint32, (ntiles+3)/4)
	b := r.dev.NewBatch()
	gpu.BatchRead(b, s.mask, maskW, 0)
	gpu.BatchRead(b, s.tiles, tileW, 0)
	if err := b.Run(); err != nil {
		return nil, nil, fmt.Errorf("forest: fft fix-up: %w", err)
	}
	byteAt := func(w []uint32, k int) bool { return w[k/4]>>(8*(k%4))&0xff != 0 }
	// A span is a run of the mask: fixCells joins flagged cells fewer than
	// 4 apart, so two spans are never adjacent.
	spans := make([][]span, ny)
	for j := range ny {
		for i := 0; i < nx; {
			if !byteAt(maskW, j*nx+i) {
				i++
				continue
			}
			lo := i
			for i < nx && byteAt(maskW, j*nx+i) {
				i++
			}
			spans[j] = append(spans[j], span{lo, i})
		}
	}
	return spans, func(t int) bool { return byteAt(tileW, t) }, nil
}

// fixOnDevice finishes a layer whose densities and error estimates are on
// the device: it returns the densities with the flagged cells summed
// exactly and fills acc's MaxRel, ExactCells and spans as fixCells does.
func (f *cudaFFTRunner) fixOnDevice(ctx context.Context, ps *parentSet, dens, errEst *gpu.Buffer[float64],
	acc *Accuracy) ([]float64, error) {
	s, err := f.scanFix(dens, errEst)
	if err != nil {
		return nil, err
	}
	acc.MaxRel = max(acc.MaxRel, s.maxRel)
	acc.ExactCells += s.exactCells
	if s.exactCells > 0 {
		if err := f.exactTiles(ctx, ps, dens, s, acc); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	out := make([]float64, f.g.Cells())
	if err := dens.ReadAt(out, 0); err != nil {
		return nil, fmt.Errorf("forest: fft: %w", err)
	}
	f.r.hostStage("host.download", start)
	return out, nil
}

// exactTiles sums the parents exactly over the flagged tiles and writes the
// masked cells of dens; it sets acc's spans from the mask.
func (f *cudaFFTRunner) exactTiles(ctx context.Context, ps *parentSet, dens *gpu.Buffer[float64], s *fixScan,
	acc *Accuracy) error {
	g, r, c := f.g, f.r, &f.geom
	n := g.Cells()
	spans, flagged, err := s.spans(r, g)
	if err != nil {
		return err
	}
	acc.fixed = spans
	acc.MaxRel = max(acc.MaxRel, cudaExactMaxRel)
	if len(ps.x) == 0 {
		return nil // no parents (layer returns before): the cells keep the transform's values
	}

	start := time.Now()
	src, cut := ps, 0.0
	if c.torus {
		// The images within reach of each cell, as the table holds them.
		src, cut = torusImages(g, ps, c.reach), c.reach
	}
	var sumW float64
	for _, w := range src.w {
		sumW += w
	}
	acc.MaxAbs += (ps.maxW + 2*sumW) * math.Exp2(-127) // as exactLayer: the terms beyond float range
	p := newCUDAExactPlanFor(g, src, cut, false, r.dev.Info().SMs, flagged)
	r.hostStage("host.plan", start)
	exact, err := cudaBuf(r, r.f64, "exact.out", n)
	if err != nil {
		return err
	}
	if err := r.runExact(ctx, p, p.kernel, exact, n, nil); err != nil {
		return err
	}
	err = r.stage("fix.merge", func() error {
		return s.merge.Launch(gpu.Dim((n+fixThreads-1)/fixThreads), gpu.Dim(fixThreads), 0, fixMergeArgs{dens.Ptr(), exact.Ptr(),
			s.mask.Ptr(), int64(n), ps.maxW})
	})
	if err != nil {
		return fmt.Errorf("forest: fft fix-up: %w", err)
	}
	return nil
}
