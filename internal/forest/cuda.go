//go:build cuda

package forest

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// CUDA computes dispersal on a GPU: the exact method (cuda/forest.cu) and
// the fft method (cuda/forest_fft.cu, cuda_fft.go) run on the device; the
// multires method runs on the CPU backend (it is kept for comparison with
// the paper, and its tree walk gains nothing from a GPU).
type CUDA struct {
	Dev *gpu.Device
	// Brute makes the exact method evaluate every parent for every cell. By
	// default it skips, per 32x32-cell tile, the bins of parents whose terms
	// together stay below 2^-127 of the largest parent's weight (float
	// underflow: terms the float sums could not hold; see cudaExactReach).
	// The densities are the same either way.
	Brute bool
	// Stages, when set, receives the device time of each stage, by name
	// (for benchmarks: timing synchronises every stage).
	Stages map[string]time.Duration
	// exactKernel overrides the exact kernel's name (tuning benchmarks).
	exactKernel string
}

var _ Engine = CUDA{}

// The exact kernels' accuracy, as Accuracy reports it: float32 terms and
// sums of EX_CHUNK terms (each at most 63 u = 3.8e-6 off, all positive),
// added in float64; measured against float64 sums in TestCUDAExactMatchesReference.
const (
	cudaExactMaxRel = 1e-5
	cudaExactFloor  = 1e-6
)

// Disperse computes one layer per species.
func (c CUDA) Disperse(ctx context.Context, g Grid, trees []Tree, species []Species, o Options) ([]Layer, error) {
	if sp, ok, err := splitMixtures(trees, species); err != nil || ok {
		if err != nil {
			return nil, err
		}
		return sp.run(ctx, g, o, c.Disperse)
	}
	if o.Method == Multires {
		return CPU{}.Disperse(ctx, g, trees, species, o)
	}
	if err := checkRun(g, trees, species, o); err != nil {
		return nil, err
	}
	start := time.Now()
	sets, err := cudaParentSets(trees, species)
	if err != nil {
		return nil, err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	prog := &progress{fn: o.Progress, total: int64(len(species)) * int64(g.NY)}
	torus := o.Boundary == Torus
	r := newCUDARun(c.Dev, c.Stages)
	defer r.free()
	r.hostStage("host.parents", start)
	layers := make([]Layer, len(species))
	order := make([]int, len(species))
	for s := range order {
		order[s] = s
	}
	var fft *cudaFFTRunner
	var rule *fftRunner // the CPU's choice between exact and fft, so both backends choose alike
	if o.Method != Exact {
		fft = newCUDAFFTRunner(r, g, torus, o.Tolerance, workers)
		rule = newFFTRunner(g, torus, o.Tolerance, workers)
		// Species with the same kernel in a row share its spectra.
		slices.SortStableFunc(order, func(a, b int) int { return compareKern(sets[a].k, sets[b].k) })
	}
	for _, s := range order {
		ps := sets[s]
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var dens []float64
		var acc Accuracy
		switch {
		case o.Method == Exact:
			dens, acc, err = r.exactLayer(ctx, g, torus, ps, o.Cutoff, c.Brute, c.exactKernel, prog)
			acc.ExactCells, acc.Method = g.Cells(), Exact
		case exactCost(g, torus, ps) < rule.cost(ps.k, len(ps.x)):
			// Few parents: summing them is quicker than the transforms.
			dens, acc, err = r.exactLayer(ctx, g, torus, ps, 0, c.Brute, "", prog)
			acc.ExactCells, acc.Method = g.Cells(), Exact
		default:
			dens, acc, err = fft.layer(ctx, ps, prog)
			acc.Method = FFT
		}
		if err != nil {
			return nil, err
		}
		if torus {
			acc = completeTorus(g, ps, dens, acc)
		}
		start := time.Now()
		layers[s] = finishLayer(g, s, dens, ps)
		layers[s].Accuracy = acc
		r.hostStage("host.finish", start)
	}
	return layers, nil
}

// cudaParentSets is parentSets (cpu.go) without the sort by y: the device
// needs no order, and the sort is most of a large call's host time (45 ms of
// 1e5 parents). cudaSortParents sorts a set when the CPU's exact sum needs
// it (the fft method's fix-up).
func cudaParentSets(trees []Tree, species []Species) ([]*parentSet, error) {
	sets := make([]*parentSet, len(species))
	counts := make([]int, len(species))
	for _, t := range trees {
		if t.DBH >= species[t.Species].MinDBH {
			counts[t.Species]++
		}
	}
	for s, sp := range species {
		k, err := newKern(sp)
		if err != nil {
			return nil, fmt.Errorf("forest: %w", err)
		}
		n := counts[s]
		sets[s] = &parentSet{sp: sp, k: k, x: make([]float64, 0, n), y: make([]float64, 0, n), w: make([]float64, 0, n)}
	}
	for _, t := range trees {
		sp := species[t.Species]
		if t.DBH < sp.MinDBH {
			continue
		}
		ps := sets[t.Species]
		f := Fecundity(sp, t.DBH)
		w := f / ps.k.eta
		ps.x, ps.y, ps.w = append(ps.x, t.X), append(ps.y, t.Y), append(ps.w, w)
		ps.fecundity += f
		ps.sumW += w
		ps.maxW = math.Max(ps.maxW, w)
	}
	return sets, nil
}

// cudaSortParents orders ps's parents by y, then x, as parentSets does
// (ties keep their order): a counting sort into about n/4 bands of y, then
// each band's few parents by insertion.
func cudaSortParents(g Grid, ps *parentSet) {
	n := len(ps.x)
	nb := max(1, n/4)
	scale := float64(nb) / (float64(g.NY) * g.Cell)
	band := func(i int) int { return min(max(int((ps.y[i]-g.Y0)*scale), 0), nb-1) }
	start := make([]int32, nb+1)
	for i := range n {
		start[band(i)+1]++
	}
	for b := range nb {
		start[b+1] += start[b]
	}
	idx := make([]int32, n)
	next := slices.Clone(start[:nb])
	for i := range n {
		b := band(i)
		idx[next[b]] = int32(i)
		next[b]++
	}
	less := func(a, b int32) bool {
		if ps.y[a] != ps.y[b] {
			return ps.y[a] < ps.y[b]
		}
		return ps.x[a] < ps.x[b] // equal: keep the order, as a stable sort does
	}
	for b := range nb {
		s := idx[start[b]:start[b+1]]
		if len(s) > 32 {
			slices.SortStableFunc(s, func(a, b int32) int {
				return cmp.Or(cmp.Compare(ps.y[a], ps.y[b]), cmp.Compare(ps.x[a], ps.x[b]))
			})
			continue
		}
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && less(s[j], s[j-1]); j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
	}
	x, y, w := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, j := range idx {
		x[i], y[i], w[i] = ps.x[j], ps.y[j], ps.w[j]
	}
	ps.x, ps.y, ps.w = x, y, w
}

// cudaRun owns the device buffers of one Disperse call: named, reused from
// species to species, freed at the end.
type cudaRun struct {
	dev    *gpu.Device
	stages map[string]time.Duration
	f64    map[string]*gpu.Buffer[float64]
	f32    map[string]*gpu.Buffer[float32]
	i32    map[string]*gpu.Buffer[int32]
	u32    map[string]*gpu.Buffer[uint32]
}

func newCUDARun(dev *gpu.Device, stages map[string]time.Duration) *cudaRun {
	return &cudaRun{dev: dev, stages: stages, f64: map[string]*gpu.Buffer[float64]{},
		f32: map[string]*gpu.Buffer[float32]{}, i32: map[string]*gpu.Buffer[int32]{}, u32: map[string]*gpu.Buffer[uint32]{}}
}

func (r *cudaRun) free() {
	for _, b := range r.f64 {
		b.Free()
	}
	for _, b := range r.f32 {
		b.Free()
	}
	for _, b := range r.i32 {
		b.Free()
	}
	for _, b := range r.u32 {
		b.Free()
	}
}

// cudaBuf returns pool[name] with room for n values, reallocating it when
// it is too small. Its contents are undefined.
func cudaBuf[T gpu.Elem](r *cudaRun, pool map[string]*gpu.Buffer[T], name string, n int) (*gpu.Buffer[T], error) {
	if b, ok := pool[name]; ok {
		if b.Len() >= max(n, 1) {
			return b, nil
		}
		b.Free()
		delete(pool, name)
	}
	b, err := gpu.Alloc[T](r.dev, max(n, 1))
	if err != nil {
		return nil, fmt.Errorf("forest: %s: %w", name, err)
	}
	pool[name] = b
	return b, nil
}

// cudaUpload copies v into pool[name].
func cudaUpload[T gpu.Elem](r *cudaRun, pool map[string]*gpu.Buffer[T], name string, v []T) (*gpu.Buffer[T], error) {
	b, err := cudaBuf(r, pool, name, len(v))
	if err != nil {
		return nil, err
	}
	return b, b.Write(v)
}

// hostStage adds the time since start to r.stages[name] when profiling.
func (r *cudaRun) hostStage(name string, start time.Time) {
	if r.stages != nil {
		r.stages[name] += time.Since(start)
	}
}

// stage runs fn, adding its device time to r.stages[name] when profiling.
func (r *cudaRun) stage(name string, fn func() error) error {
	if r.stages == nil {
		return fn()
	}
	dt, err := r.dev.Time(fn)
	r.stages[name] += dt
	return err
}

// Launch shape of the exact kernels; they match cuda/forest.cu.
const (
	cudaExThreads = 128
	cudaExTile    = 32 // cells: a block's tile is cudaExTile x cudaExTile, and bins are tiles
	// cudaExBlocksPerSM is how many exact blocks an SM holds (about 100
	// registers a thread, 35 KiB of shared memory a block).
	cudaExBlocksPerSM = 5
	// cudaExPairsPerLaunch bounds one launch (about 40 ms on an H100), so
	// cancellation and progress are seen between launches.
	cudaExPairsPerLaunch = 1e11
)
