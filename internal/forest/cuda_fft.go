//go:build cuda

package forest

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// The fft method on the device: the CPU's scheme (fft.go, fftkernel.go)
// with the tables, the binning, the FFTs and the products on the GPU, in
// float64. The lattice geometry (newConvGeom) is the CPU backend's own
// function, and the tables are device twins of convGeom.kernelTable and
// errorTable (TestCUDAFFTTablesMatchCPU), so both backends convolve the
// same lattice and agree up to FFT round-off. The exact fix-up of the cells
// whose error bound exceeds the tolerance runs on the device too
// (cuda_fix.go), with the exact method's kernels.

// Launch shape of the FFT kernels.
const (
	cudaFFTThreads = 256
	// cudaFFTCols is how many columns a column-pass block transforms: 4
	// complex doubles are 64 contiguous bytes of each row.
	cudaFFTCols = 4
)

// cudaFFTPlan is one transform length: the radices (4 first, then 2, 3,
// 5, 7, then any other prime), the digit-reversal permutation that the
// decimation-in-time passes need, and the n roots of unity.
type cudaFFTPlan struct {
	plan    gpuFFTPlan
	perm    []int32
	tw      []float64 // (re, im) of exp(-2 pi i j / n)
	generic bool
}

func newCUDAFFTPlan(n int) cudaFFTPlan {
	p := cudaFFTPlan{plan: gpuFFTPlan{N: int32(n)}}
	m := n
	add := func(r int) {
		p.plan.Radix[p.plan.NStages] = int32(r)
		p.plan.NStages++
		if r != 2 && r != 3 && r != 4 && r != 5 && r != 7 {
			p.generic = true
			p.plan.Generic = 1
		}
		m /= r
	}
	for m%4 == 0 {
		add(4)
	}
	for _, r := range []int{2, 3, 5, 7} {
		for m%r == 0 {
			add(r)
		}
	}
	for r := 11; m > 1; r += 2 {
		for m%r == 0 {
			add(r)
		}
	}
	// Element j goes to position sum over stages of digit_s(j) * (n / (r_0 ... r_s)).
	p.perm = make([]int32, n)
	for j := range n {
		pos, rest, jj := 0, n, j
		for s := range int(p.plan.NStages) {
			r := int(p.plan.Radix[s])
			rest /= r
			pos += (jj % r) * rest
			jj /= r
		}
		p.perm[j] = int32(pos)
	}
	p.tw = make([]float64, 2*n)
	for j := range n {
		s, c := math.Sincos(-2 * math.Pi * float64(j) / float64(n))
		p.tw[2*j], p.tw[2*j+1] = c, s
	}
	return p
}

// cudaFFTMaxRadix is the largest prime factor the device transforms (by an
// O(n p) direct pass, about a millisecond for a 1000 x 1000 lattice at
// p = 1000); lengths with larger ones go to the CPU, which does them by
// Bluestein's algorithm.
const cudaFFTMaxRadix = 1024

// fits says whether the transform runs on a device with limit bytes of
// shared memory a block, cols columns at a time.
func (p *cudaFFTPlan) fits(cols, limit int) bool {
	for _, r := range p.plan.Radix[:p.plan.NStages] {
		if r > cudaFFTMaxRadix {
			return false
		}
	}
	return p.smem(cols) <= limit
}

// smem is the shared memory a block transforming cols columns needs.
func (p *cudaFFTPlan) smem(cols int) int {
	b := cols * int(p.plan.N) * 16
	if p.generic {
		b *= 2
	}
	return b
}

// cudaMaxShared is the opt-in dynamic shared memory per block of a device.
func cudaMaxShared(info gpu.DeviceInfo) int {
	switch {
	case info.Major == 8 && info.Minor == 0:
		return 163 << 10
	case info.Major == 9:
		return 227 << 10
	}
	return 99 << 10
}

// cudaDeviceFFTPlan is a plan uploaded: plan words, permutation and roots.
type cudaDeviceFFTPlan struct {
	cudaFFTPlan
	dplan *gpu.Buffer[uint32]
	dperm *gpu.Buffer[int32]
	dtw   *gpu.Buffer[float64]
}

func (r *cudaRun) uploadFFTPlan(axis string, p cudaFFTPlan) (*cudaDeviceFFTPlan, error) {
	d := &cudaDeviceFFTPlan{cudaFFTPlan: p}
	var err error
	if d.dplan, err = cudaUpload(r, r.u32, "fft.plan."+axis, gpu.Words(p.plan)); err != nil {
		return nil, err
	}
	if d.dperm, err = cudaUpload(r, r.i32, "fft.perm."+axis, p.perm); err != nil {
		return nil, err
	}
	if d.dtw, err = cudaUpload(r, r.f64, "fft.tw."+axis, p.tw); err != nil {
		return nil, err
	}
	return d, nil
}

// cudaFFTRunner runs the fft method for the species of one Disperse call,
// like fftRunner on the CPU: it keeps the last kernel's spectra on the
// device (species with equal kernels come in a row and share them).
type cudaFFTRunner struct {
	r       *cudaRun
	g       Grid
	torus   bool
	tol     float64
	workers int
	geom    convGeom
	ready   bool // geom's spectra are in khat and ehat
	x, y    *cudaDeviceFFTPlan
	h       int // spectrum columns: px/2 + 1
	rowsIn  int // lattice rows that can hold parents' weights
	cols    int // columns per column-pass block
	// khat, ehat: the kernel's and the error bound's real spectra, scaled
	// by 1/(px py), py rows of h.
	khat, ehat *gpu.Buffer[float64]
	cpu        *fftRunner // the lattices prepare turns down
}

func newCUDAFFTRunner(r *cudaRun, g Grid, torus bool, tol float64, workers int) *cudaFFTRunner {
	if tol == 0 {
		tol = defaultTolerance
	}
	return &cudaFFTRunner{r: r, g: g, torus: torus, tol: tol, workers: workers}
}

// prepare sets up the lattice, plans and spectra for k and n parents;
// false when its transforms do not fit in a block's shared memory or have a
// large prime factor (the CPU runs those).
func (f *cudaFFTRunner) prepare(k kern, n int) (bool, error) {
	c, err := newConvGeom(f.g, f.torus, k, n)
	if err != nil {
		return false, err
	}
	if f.ready && c == f.geom {
		return true, nil
	}
	f.ready = false
	px, py := newCUDAFFTPlan(c.px), newCUDAFFTPlan(c.py)
	limit := cudaMaxShared(f.r.dev.Info())
	cols := cudaFFTCols
	for cols > 1 && !py.fits(cols, limit) {
		cols /= 2
	}
	if !px.fits(1, limit) || !py.fits(cols, limit) {
		return false, nil
	}
	r := f.r
	if f.x == nil || f.x.plan.N != int32(c.px) || f.y.plan.N != int32(c.py) {
		var err error
		if f.x, err = r.uploadFFTPlan("x", px); err != nil {
			return false, err
		}
		if f.y, err = r.uploadFFTPlan("y", py); err != nil {
			return false, err
		}
	}
	f.geom, f.h, f.cols = c, c.px/2+1, cols
	f.rowsIn = c.py
	if !f.torus {
		f.rowsIn = min(c.py, f.g.NY+4) // nodes -2 .. ny+1 (convGeom.bin)
	}

	// The tables, as convGeom.kernelTable and errorTable make them.
	tk := gpuTableKern{Torus: b2i(c.torus), PX: int32(c.px), PY: int32(c.py), AX: int32(c.ax), AY: int32(c.ay),
		H: c.h, D: k.d, Theta: k.theta, HalfTheta: k.halfTheta, LnX0: k.lnX0, Inv2xb2: k.inv2xb2,
		Reach2: c.reach * c.reach}
	switch k.kind {
	case kLognormal:
		tk.Logn = 1
	case kTwoDt:
		tk.Logn, tk.D, tk.Theta = 2, k.invU, k.pp1
	}
	qx, qy := c.rx, c.ry
	sup := int(math.Ceil(k.radius(supportExponent)/c.h)) + 3
	ex, ey := min(qx, sup), min(qy, sup)
	kp, err := cudaUpload(r, r.u32, "fft.tablekern", gpu.Words(tk))
	if err != nil {
		return false, err
	}
	kt, err := cudaBuf(r, r.f64, "fft.kt", (qx+1)*(qy+1))
	if err != nil {
		return false, err
	}
	raw, err := cudaBuf(r, r.f64, "fft.eraw", (ex+2)*(ey+2))
	if err != nil {
		return false, err
	}
	et, err := cudaBuf(r, r.f64, "fft.et", (ex+1)*(ey+1))
	if err != nil {
		return false, err
	}
	ktable, err := fftKtable.Load(r.dev)
	if err != nil {
		return false, err
	}
	eraw, err := fftEraw.Load(r.dev)
	if err != nil {
		return false, err
	}
	etable, err := fftEtable.Load(r.dev)
	if err != nil {
		return false, err
	}
	grid2 := func(nx, ny int) gpu.Dim3 { return gpu.Dim3{X: uint32((nx + 127) / 128), Y: uint32(ny), Z: 1} }
	err = r.stage("fft.tables", func() error {
		if err := ktable.Launch(grid2(qx+1, qy+1), gpu.Dim(128), 0, ktableArgs{kp.Ptr(), kt.Ptr(),
			int32(qx), int32(qy)}); err != nil {
			return err
		}
		if err := eraw.Launch(grid2(ex+2, ey+2), gpu.Dim(128), 0, erawArgs{kp.Ptr(), kt.Ptr(),
			int32(qx), int32(qy), raw.Ptr(), int32(ex), int32(ey)}); err != nil {
			return err
		}
		return etable.Launch(grid2(ex+1, ey+1), gpu.Dim(128), 0, etableArgs{raw.Ptr(), int32(ex),
			int32(ey), fftSafety, et.Ptr()})
	})
	if err != nil {
		return false, fmt.Errorf("forest: fft tables: %w", err)
	}
	if f.khat, err = f.spectrum("fft.khat", kt, qx, qy); err != nil {
		return false, err
	}
	if f.ehat, err = f.spectrum("fft.ehat", et, ex, ey); err != nil {
		return false, err
	}
	f.ready = true
	return true, nil
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// layer is the device twin of fftRunner.layer in fft.go (or, for lattices
// prepare turns down, that function itself).
func (f *cudaFFTRunner) layer(ctx context.Context, ps *parentSet, prog *progress) ([]float64, Accuracy, error) {
	g, r := f.g, f.r
	nx, ny := g.NX, g.NY
	acc := Accuracy{Floor: fftFloor}
	if len(ps.x) == 0 {
		prog.add(int64(ny))
		return make([]float64, nx*ny), acc, nil
	}
	ok, err := f.prepare(ps.k, len(ps.x))
	if err != nil {
		return nil, acc, err
	}
	if !ok {
		if f.cpu == nil {
			f.cpu = newFFTRunner(g, f.torus, f.tol, f.workers)
		}
		cudaSortParents(g, ps) // the CPU's fix-up needs the parents by y
		return f.cpu.layer(ctx, ps, prog)
	}
	c := &f.geom
	if c.capped {
		t := newPeriodic(g).truncation(ps.k, c.reach, true)
		acc.MaxAbs, acc.TailMass, acc.ImageRadius = t.MaxAbs, t.TailMass, t.ImageRadius
	}

	// Bin the parents, transform the rows once, then each spectrum's
	// column pass and inverse rows.
	start := time.Now()
	par := make([]float64, 3*len(ps.x))
	for t := range ps.x {
		par[3*t] = (ps.x[t]-g.X0)/c.h - 0.5
		par[3*t+1] = (ps.y[t]-g.Y0)/c.h - 0.5
		par[3*t+2] = ps.w[t]
	}
	parents, err := cudaUpload(r, r.f64, "fft.parents", par)
	if err != nil {
		return nil, acc, err
	}
	lattice, err := cudaBuf(r, r.f64, "fft.lattice", f.rowsIn*c.px)
	if err != nil {
		return nil, acc, err
	}
	if err := lattice.ZeroPrefix(f.rowsIn * c.px); err != nil {
		return nil, acc, err
	}
	r.hostStage("host.upload", start)
	bin, err := fftBin.Load(r.dev)
	if err != nil {
		return nil, acc, err
	}
	err = r.stage("fft.bin", func() error {
		return bin.Launch(gpu.Dim((len(ps.x)+255)/256), gpu.Dim(256), 0, binArgs{parents.Ptr(), int32(len(ps.x)),
			lattice.Ptr(), int32(c.px), int32(c.py), int32(c.off), b2i(f.torus)})
	})
	if err != nil {
		return nil, acc, fmt.Errorf("forest: fft: %w", err)
	}
	spec, err := cudaBuf(r, r.f64, "fft.spec", 2*c.py*f.h)
	if err != nil {
		return nil, acc, err
	}
	if err := f.rowsForward(lattice, f.rowsIn, spec); err != nil {
		return nil, acc, err
	}
	outs := [2]*gpu.Buffer[float64]{}
	for i, hat := range []*gpu.Buffer[float64]{f.khat, f.ehat} {
		if outs[i], err = cudaBuf(r, r.f64, fmt.Sprintf("fft.out%d", i), nx*ny); err != nil {
			return nil, acc, err
		}
		if err := f.convolve(spec, hat, outs[i], int32(i)); err != nil {
			return nil, acc, err
		}
	}
	// The fix-up on the device (cuda_fix.go): only the densities come back.
	prog.add(int64(ny / 2))
	dens, err := f.fixOnDevice(ctx, ps, outs[0], outs[1], &acc)
	prog.add(int64(ny - ny/2))
	return dens, acc, err
}

// spectrum computes the real spectrum of a symmetric table laid out in FFT
// order on the lattice, with the inverse transform's 1/(px py) folded in.
func (f *cudaFFTRunner) spectrum(name string, table *gpu.Buffer[float64], qx, qy int) (*gpu.Buffer[float64], error) {
	r, c := f.r, &f.geom
	grid, err := cudaBuf(r, r.f64, "fft.kgrid", c.px*c.py)
	if err != nil {
		return nil, err
	}
	fill, err := fftFill.Load(r.dev)
	if err != nil {
		return nil, err
	}
	err = r.stage("fft.spectrum", func() error {
		return fill.Launch(gpu.Dim3{X: uint32((c.px + 255) / 256), Y: uint32(c.py), Z: 1}, gpu.Dim(256), 0,
			fillArgs{grid.Ptr(), int32(c.px), int32(c.py), table.Ptr(), int32(qx), int32(qy)})
	})
	if err != nil {
		return nil, fmt.Errorf("forest: fft: %w", err)
	}
	spec, err := cudaBuf(r, r.f64, "fft.spec", 2*c.py*f.h)
	if err != nil {
		return nil, err
	}
	if err := f.rowsForward(grid, c.py, spec); err != nil {
		return nil, err
	}
	hat, err := cudaBuf(r, r.f64, name, c.py*f.h)
	if err != nil {
		return nil, err
	}
	cols, err := fftFunction(r, fftCols, f.y.smem(f.cols))
	if err != nil {
		return nil, err
	}
	err = r.stage("fft.spectrum", func() error {
		return cols.Launch(gpu.Dim((f.h+f.cols-1)/f.cols), gpu.Dim(cudaFFTThreads), f.y.smem(f.cols),
			colsArgs{f.y.dplan.Ptr(), f.y.dperm.Ptr(), f.y.dtw.Ptr(), spec.Ptr(), int32(f.h), int32(c.py),
				hat.Ptr(), gpu.Ptr{}, 0, 0, int32(f.cols), 1,
				1 / float64(c.px*c.py)})
	})
	if err != nil {
		return nil, fmt.Errorf("forest: fft: %w", err)
	}
	return hat, nil
}

// fftFunction looks up an FFT kernel and allows it smem bytes of dynamic
// shared memory.
func fftFunction[P any](r *cudaRun, k gpu.Kernel[P], smem int) (gpu.Func[P], error) {
	f, err := k.Load(r.dev)
	if err != nil {
		return f, err
	}
	if err := f.SetMaxDynamicShared(smem); err != nil {
		return f, err
	}
	return f, nil
}

// rowsForward transforms rows [0, rows) of a px-wide real lattice into half
// spectra (h complex values a row) in spec.
func (f *cudaFFTRunner) rowsForward(in *gpu.Buffer[float64], rows int, spec *gpu.Buffer[float64]) error {
	r, px := f.r, f.geom.px
	fwd, err := fftFunction(r, fftRowsFwd, f.x.smem(1))
	if err != nil {
		return err
	}
	err = r.stage("fft.rows", func() error {
		return fwd.Launch(gpu.Dim((rows+1)/2), gpu.Dim(cudaFFTThreads), f.x.smem(1), rowsFwdArgs{f.x.dplan.Ptr(), f.x.dperm.Ptr(),
			f.x.dtw.Ptr(), in.Ptr(), int32(px), int32(px), int32(rows), spec.Ptr(),
			int32(f.h)})
	})
	if err != nil {
		return fmt.Errorf("forest: fft: %w", err)
	}
	return nil
}

// convolve multiplies the lattice's spectrum (rows transformed) by hat and
// transforms back the grid's cells into out: densities clamped at zero
// (mode 0) or absolute values (mode 1, the error estimate).
func (f *cudaFFTRunner) convolve(spec, hat, out *gpu.Buffer[float64], mode int32) error {
	r, c, nx, ny := f.r, &f.geom, f.g.NX, f.g.NY
	g, err := cudaBuf(r, r.f64, "fft.cols", 2*ny*f.h)
	if err != nil {
		return err
	}
	cols, err := fftFunction(r, fftCols, f.y.smem(f.cols))
	if err != nil {
		return err
	}
	err = r.stage("fft.cols", func() error {
		return cols.Launch(gpu.Dim((f.h+f.cols-1)/f.cols), gpu.Dim(cudaFFTThreads), f.y.smem(f.cols),
			colsArgs{f.y.dplan.Ptr(), f.y.dperm.Ptr(), f.y.dtw.Ptr(), spec.Ptr(), int32(f.h), int32(f.rowsIn),
				hat.Ptr(), g.Ptr(), int32(ny), int32(c.off), int32(f.cols), 0, 1})
	})
	if err != nil {
		return fmt.Errorf("forest: fft: %w", err)
	}
	inv, err := fftFunction(r, fftRowsInv, f.x.smem(1))
	if err != nil {
		return err
	}
	err = r.stage("fft.rows", func() error {
		return inv.Launch(gpu.Dim((ny+1)/2), gpu.Dim(cudaFFTThreads), f.x.smem(1), rowsInvArgs{f.x.dplan.Ptr(), f.x.dperm.Ptr(),
			f.x.dtw.Ptr(), g.Ptr(), int32(f.h), int32(ny), out.Ptr(), int32(nx),
			int32(nx), int32(c.off), 1, mode})
	})
	if err != nil {
		return fmt.Errorf("forest: fft: %w", err)
	}
	return nil
}
