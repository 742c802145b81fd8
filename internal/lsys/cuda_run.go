//go:build cuda

package lsys

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rng"
)

// devString is a module string on the device with room to spare: symbols,
// parameters and, for parametric systems, the first parameter of every
// group of gpuK modules.
type devString struct {
	syms   *gpu.Buffer[uint8]
	params *gpu.Buffer[float64]
	chunkp *gpu.Buffer[uint32]
	n, np  int
}

// cudaRun owns the device state of one derivation. Buffers live across
// steps and grow with headroom; cur and next swap after each step.
type cudaRun struct {
	dev       *gpu.Device
	r         *rules
	tab       *deviceTables
	steps     int
	growth    float64             // headroom factor for buffers that must grow
	spare     int                 // headroom limit per buffer, bytes
	blob      *gpu.Buffer[uint64] // the tables, then LsysStatus at statusAt
	statusAt  int
	cur, next devString
	// Per-tile counts, scanned by the kernels that write them: tiles holds
	// modules in its first half and parameters in its second; tileC holds
	// bracket depths or cut marks.
	tiles, tileC *gpu.Buffer[uint32]
	choice       *gpu.Buffer[int32]  // the chosen production of dynamic modules
	levels       *gpu.Buffer[int32]  // bracket depths and their minima
	match        *gpu.Buffer[uint32] // bracket partners
	delta        *gpu.Buffer[int32]  // cut: +1 where a cut starts, -1 where it ends
	// batch holds the launches and clears queued since the last trip to
	// the device: a step makes one trip where it needs the status (its
	// sizes, its errors) instead of one per driver call. flush runs it; it
	// runs before any buffer is freed or read.
	batch *gpu.Batch
}

// flush runs the queued work.
func (run *cudaRun) flush() error {
	if run.batch == nil {
		return nil
	}
	if err := run.batch.Run(); err != nil {
		return fmt.Errorf("lsys: cuda: %w", err)
	}
	return nil
}

func argOf[T gpu.Elem](b *gpu.Buffer[T]) gpu.Ptr {
	if b == nil {
		return gpu.Ptr{}
	}
	return b.Ptr()
}

// minCapacity is the least a buffer is allocated with: the steps of small
// strings then never reallocate.
const minCapacity = 1 << 16

// ensure gives *b room for n values (at least one); the contents survive
// only when it is large enough already. A buffer that must grow gets room
// for run.growth*n values (what the string reaches by the last step if it
// keeps growing as it does: an allocation and a free cost 50 to 300 us, more
// than the kernels of all but the last steps), at least half again its old
// length and minCapacity, but at most run.spare bytes beyond n; n when that
// fails.
func ensure[T gpu.Elem](run *cudaRun, b **gpu.Buffer[T], n int) error {
	n = max(n, 1)
	old := *b
	if old != nil && old.Len() >= n {
		return nil
	}
	want := max(float64(n)*run.growth, minCapacity)
	if run.growth > 1 {
		want *= 1.25 // growth is rarely exactly geometric
	}
	if old != nil {
		want = max(want, float64(old.Len())*1.5)
		if err := run.flush(); err != nil { // queued work may use old
			return err
		}
		old.Free()
		*b = nil
	}
	var v T
	want = min(want, float64(n)+float64(run.spare/binary.Size(v)))
	nb, err := gpu.Alloc[T](run.dev, max(n, int(want)))
	if err != nil && int(want) > n {
		nb, err = gpu.Alloc[T](run.dev, n)
	}
	if err != nil {
		return err
	}
	*b = nb
	return nil
}

func (run *cudaRun) free() {
	for _, b := range []*gpu.Buffer[uint32]{run.tiles, run.tileC, run.match, run.cur.chunkp, run.next.chunkp} {
		b.Free()
	}
	run.cur.syms.Free()
	run.cur.params.Free()
	run.next.syms.Free()
	run.next.params.Free()
	run.blob.Free()
	run.choice.Free()
	run.levels.Free()
	run.delta.Free()
}

// take runs the queued work and hands the current string over to the caller.
func (run *cudaRun) take() (*DeviceString, error) {
	if err := run.flush(); err != nil {
		return nil, err
	}
	s := &DeviceString{dev: run.dev, syms: run.cur.syms, params: run.cur.params, chunkp: run.cur.chunkp,
		n: run.cur.n, np: run.cur.np}
	run.cur = devString{}
	return s, nil
}

// launch queues kernel k (the device caches the lookup).
func launch[P any](run *cudaRun, k gpu.Kernel[P], grid, shared int, p P) error {
	f, err := k.Load(run.dev)
	if err != nil {
		return err
	}
	f.Queue(run.batch, gpu.Dim(grid), gpu.Dim(gpuThreads), shared, p)
	return nil
}

// status is the kernel argument for LsysStatus.
func (run *cudaRun) status() gpu.Ptr { return run.blob.PtrAt(run.statusAt) }

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// start uploads the tables and the axiom.
func (run *cudaRun) start(ax *String) error {
	if err := run.load(); err != nil {
		return err
	}
	s := &run.cur
	if err := run.reserve(s, ax.Len(), len(ax.Params)); err != nil {
		return err
	}
	if err := s.syms.Write(ax.Syms); err != nil {
		return err
	}
	if len(ax.Params) > 0 {
		if err := s.params.Write(ax.Params); err != nil {
			return err
		}
	}
	if run.r.parametric && ax.Len() > 0 {
		if err := s.chunkp.Write(chunkOffsets(ax.Syms, &run.r.arity)); err != nil {
			return err
		}
	}
	s.n, s.np = ax.Len(), len(ax.Params)
	return nil
}

// load uploads the tables and the status and sets the headroom limits.
func (run *cudaRun) load() error {
	words := run.tab.blob()
	run.statusAt = len(words)
	words = append(words, 0, 0, gpuNoError, gpuNoError, 0, 0, 0, 0) // LsysStatus
	var err error
	if run.blob, err = gpu.Upload(run.dev, words); err != nil {
		return err
	}
	run.batch = run.dev.NewBatch()
	run.growth = 1
	run.spare = 512 << 20
	if free, _, err := run.dev.MemInfo(); err == nil {
		run.spare = min(run.spare, int(free/16))
	}
	return nil
}

// reserve gives s room for m modules and p parameters.
func (run *cudaRun) reserve(s *devString, m, p int) error {
	err := ensure(run, &s.syms, m+16)
	if err == nil && run.r.parametric {
		if err = ensure(run, &s.params, p); err == nil {
			err = ensure(run, &s.chunkp, m/gpuK+2)
		}
	}
	if err != nil {
		return fmt.Errorf("lsys: cuda: a string of %d modules and %d parameters: %w", m, p, err)
	}
	return nil
}

// readStatus runs the queued work and reads the status it leaves.
func (run *cudaRun) readStatus() (gpuStatus, error) {
	var w [gpuStatusLen]uint64
	gpu.BatchRead(run.batch, run.blob, w[:], run.statusAt)
	if err := run.flush(); err != nil {
		return gpuStatus{}, err
	}
	return gpuStatus{OutMods: w[0], OutParams: w[1], CountErr: w[2], RewriteErr: w[3], Unbalanced: w[4],
		Depth: int64(w[5])}, nil
}

// step rewrites cur into next (0-based step k) and makes next current.
// label names the step in errors ("step 3", or "homomorphism").
func (run *cudaRun) step(ctx context.Context, k int, seed uint64, limit int64, label string) error {
	in, out := &run.cur, &run.next
	n := in.n
	fast := run.tab.fast
	var m, p uint64
	if n > 0 {
		if run.r.hasCtx {
			if n > math.MaxInt32 { // as matchBrackets refuses it
				return fmt.Errorf("lsys: %s: context matching: a string of %d modules is too long for bracket matching (limit %d)",
					label, n, math.MaxInt32)
			}
			if err := run.brackets(in); err != nil {
				return err
			}
		}
		var err error
		if fast {
			err = run.fastCount(in)
		} else {
			err = run.count(in, rng.Key(seed, uint64(k)))
		}
		if err != nil {
			return err
		}
		st, err := run.readStatus()
		if err != nil {
			return err
		}
		if run.r.hasCtx && (st.Unbalanced != 0 || int32(uint32(st.Depth)) != 0) || st.CountErr != gpuNoError {
			return run.cpuError(ctx, k, seed, label, limit)
		}
		m, p = st.OutMods, st.OutParams
		if fast {
			p = 0
		}
	}
	if limit > 0 && int64(m) > limit {
		return &LimitError{Step: k + 1, Modules: int64(m), Max: limit}
	}
	if m > maxDeviceModules || p > maxDeviceParams {
		return fmt.Errorf("lsys: %s would produce %s modules and %s parameters, more than the CUDA backend holds (%s of each)",
			label, commas(int64(m)), commas(int64(p)), commas(maxDeviceModules))
	}
	// Headroom for the buffers that grow: by this step's growth, to the
	// last step, once the string is long enough for its growth to say
	// something about the next steps.
	run.growth = 1
	if g := float64(m) / float64(max(n, 1)); g > 1 && n >= 4096 && k+1 < run.steps {
		run.growth = min(math.Pow(g, float64(run.steps-1-k)), 1e9)
	}
	if err := run.reserve(out, int(m), int(p)); err != nil {
		return fmt.Errorf("lsys: %s: %w", label, err)
	}
	if n > 0 {
		if err := run.rewrite(ctx, in, out, k, seed, label, limit); err != nil {
			return err
		}
	}
	out.n, out.np = int(m), int(p)
	run.cur, run.next = run.next, run.cur
	if run.r.hasCut && m > 0 {
		return run.cut()
	}
	return nil
}

// fastCount counts and scans the fast path's output per tile.
func (run *cudaRun) fastCount(in *devString) error {
	nt := ceilDiv(in.n, gpuTile)
	if err := ensure(run, &run.tiles, nt); err != nil {
		return err
	}
	return launch(run, lsysFastCount, nt, 0, fastCountArgs{run.blob.Ptr(), in.syms.Ptr(), uint32(in.n),
		run.tiles.Ptr(), run.status()})
}

// count chooses every module's production and counts and scans the output
// per tile.
func (run *cudaRun) count(in *devString, key uint64) error {
	nt := ceilDiv(in.n, gpuGenTile)
	err := ensure(run, &run.tiles, 2*nt)
	if err == nil && run.r.dynamic {
		err = ensure(run, &run.choice, in.n)
	}
	if err != nil {
		return err
	}
	half := run.tiles.Len() / 2
	kernel := lsysCountStatic
	if run.r.dynamic {
		kernel = lsysCount
	}
	return launch(run, kernel, nt, 0, countArgs{run.blob.Ptr(), in.syms.Ptr(), argOf(in.params), argOf(in.chunkp),
		argOf(run.match), uint32(in.n), key, argOf(run.choice), run.tiles.Ptr(),
		run.tiles.PtrAt(half), run.status()})
}

// rewrite writes the output of in into out at the scanned offsets.
func (run *cudaRun) rewrite(ctx context.Context, in, out *devString, k int, seed uint64, label string, limit int64) error {
	n := in.n
	if run.tab.fast {
		return launch(run, lsysFastExpand, ceilDiv(n, gpuTile), int(run.tab.hdr.NBytes+7)&^7, fastExpandArgs{run.blob.Ptr(),
			in.syms.Ptr(), uint32(n), run.tiles.Ptr(), out.syms.Ptr(), run.status()})
	}
	half := run.tiles.Len() / 2
	err := launch(run, lsysRewrite, ceilDiv(n, gpuGenTile), 0, rewriteArgs{run.blob.Ptr(), in.syms.Ptr(), argOf(in.params),
		argOf(in.chunkp), argOf(run.match), uint32(n), rng.Key(seed, uint64(k)), argOf(run.choice), run.tiles.Ptr(),
		run.tiles.PtrAt(half), out.syms.Ptr(), argOf(out.params), argOf(out.chunkp), run.status()})
	if err != nil || !run.r.parametric {
		return err
	}
	st, err := run.readStatus()
	if err != nil {
		return err
	}
	if st.RewriteErr != gpuNoError {
		return run.cpuError(ctx, k, seed, label, limit)
	}
	return nil
}

// cpuError reproduces, on the CPU, the error the device found in step k,
// so the message is exactly the CPU backend's.
func (run *cudaRun) cpuError(ctx context.Context, k int, seed uint64, label string, limit int64) error {
	in, err := run.download(&run.cur)
	if err != nil {
		return err
	}
	if _, err := newCPUState(run.r, 0).rewrite(ctx, in, nil, k, seed, label, limit); err != nil {
		return err
	}
	return fmt.Errorf("lsys: cuda: %s: the device reported an error that the CPU backend does not find", label)
}

func (run *cudaRun) download(s *devString) (*String, error) {
	if err := run.flush(); err != nil {
		return nil, err
	}
	out := &String{Syms: make([]Symbol, s.n), Params: make([]float64, s.np)}
	if err := s.syms.ReadLarge(out.Syms, 0); err != nil {
		return nil, err
	}
	if s.np > 0 {
		if err := s.params.ReadLarge(out.Params, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}
