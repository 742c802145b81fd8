//go:build cuda

package turtle

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
)

// CUDA interprets on a GPU with the CPU backend's scheme (see CPU), every
// pass on the device, one thread per chunk (cuda/turtle.cu):
//
//  1. Survey and scan, as on the CPU; the scan also builds a min tree over
//     the chunks' least bracket depths, so that any ']' finds the chunk that
//     holds its '[' in O(log chunks) steps.
//  2. Start states. Linear commands: every chunk's spine transform in
//     parallel; the chunks form a tree (each spine continues from an open
//     '[' of an earlier chunk, or from the previous chunk's end), and
//     pointer jumping composes the transforms from its root in log2(chunks)
//     rounds, where the CPU composes them one chunk after the other.
//     Tropism and '$': each chunk waits for the state it continues from and
//     walks its spine from it; the waits follow the branch structure.
//  3. Emit as on the CPU, then polygons and bounds.
//
// Only the counts (to size the outputs) and the final geometry come back to
// the host. Chunks are much smaller than the CPU's (by default about a
// thousand per multiprocessor), so start states are composed at other
// places and the geometry differs from the CPU's by rounding only.
type CUDA struct {
	Dev *gpu.Device
	// Chunk is the number of modules each GPU thread walks: a power of two
	// from 16 to 4096. Zero picks one from the string's length and the device.
	Chunk int
	// Stages, when set, receives the device time of each stage by name (for
	// benchmarks; timing synchronises after every stage).
	Stages map[string]time.Duration
}

// maxModules bounds the string: module, chunk and geometry indices are 32-bit on the device.
const maxModules = math.MaxInt32

// Interpret interprets s with the turtle of package turtle on c.Dev.
func (c CUDA) Interpret(ctx context.Context, sys *lsys.System, s *lsys.String, o Options) (*Geometry, error) {
	if sys == nil || s == nil {
		return nil, fmt.Errorf("turtle: nil system or string")
	}
	if c.Dev == nil {
		return nil, fmt.Errorf("turtle: CUDA backend without a device")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if hostOnly(func(c lsys.Symbol) bool { return bytes.IndexByte(s.Syms, c) >= 0 }) {
		return CPU{}.Interpret(ctx, sys, s, o) // see GPUInterprets
	}
	p := newProgram(sys, o)
	p.moveVertices = bytes.IndexByte(s.Syms, '{') >= 0
	n := len(s.Syms)
	if n == 0 {
		if len(s.Params) != 0 {
			return nil, paramsError(uint64(len(s.Params)), 0)
		}
		return &Geometry{Segments: []Segment{}}, nil
	}
	if n > maxModules {
		return nil, fmt.Errorf("turtle: %d modules, the CUDA backend takes at most %d", n, maxModules)
	}
	r := &cudaRun{dev: c.Dev, stages: c.Stages}
	defer r.free()
	in, err := r.upload(s)
	if err != nil {
		return nil, err
	}
	return c.finish(ctx, r, p, in, o)
}

// finish interprets in, downloads the geometry and reports progress.
func (c CUDA) finish(ctx context.Context, r *cudaRun, p *program, in *cudaInput, o Options) (*Geometry, error) {
	dg, err := r.interpret(ctx, p, in, c.chunkFor(in.n))
	if err != nil {
		return nil, err
	}
	g, err := r.download(dg)
	if err != nil {
		return nil, err
	}
	if o.Progress != nil {
		o.Progress(int64(in.n), int64(in.n))
	}
	return g, nil
}

// chunkFor picks the chunk size: about a thousand chunks per multiprocessor
// (a thread each) for long strings, never fewer than 32 modules per chunk.
func (c CUDA) chunkFor(n int) int {
	if c.Chunk > 0 {
		return c.Chunk
	}
	target := n / (max(c.Dev.Info().SMs, 1) * 1024)
	k := 32
	for k < target && k < 2048 {
		k <<= 1
	}
	return k
}

func paramsError(have, need uint64) error {
	return fmt.Errorf("turtle: %w: the string has %d parameters, its symbols' arities need %d", ErrParams, have, need)
}

// cudaRun owns the device buffers of one interpretation.
type cudaRun struct {
	dev    *gpu.Device
	frees  []func() error
	stages map[string]time.Duration
}

func (r *cudaRun) free() {
	for _, f := range r.frees {
		f()
	}
	r.frees = nil
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

func cudaAlloc[T gpu.Elem](r *cudaRun, n int) (*gpu.Buffer[T], error) {
	b, err := gpu.Alloc[T](r.dev, n)
	if err != nil {
		return nil, fmt.Errorf("turtle: %w", err)
	}
	r.frees = append(r.frees, b.Free)
	return b, nil
}

func cudaUpload[T gpu.Elem](r *cudaRun, v []T) (*gpu.Buffer[T], error) {
	b, err := cudaAlloc[T](r, len(v))
	if err != nil {
		return nil, err
	}
	return b, b.Write(v)
}

// cudaInput is a module string on the device.
type cudaInput struct {
	syms   *gpu.Buffer[uint8]   // zero-padded to a multiple of 16 bytes: kernels read 16 at a time
	params *gpu.Buffer[float64] // nil or empty without parameters
	n, np  int                  // modules and parameters
	host   []byte               // the symbols, for error messages (nil: read them from syms)
}

// symbols are the string's symbols on the host, for error messages.
func (in *cudaInput) symbols() ([]byte, error) {
	if in.host == nil {
		host := make([]byte, in.n)
		if err := in.syms.ReadAt(host, 0); err != nil {
			return nil, fmt.Errorf("turtle: read the string for an error message: %w", err)
		}
		in.host = host
	}
	return in.host, nil
}

func argOf[T gpu.Elem](b *gpu.Buffer[T]) gpu.Ptr {
	if b == nil || b.Len() == 0 {
		return gpu.Ptr{}
	}
	return b.Ptr()
}

func (r *cudaRun) upload(s *lsys.String) (*cudaInput, error) {
	n := len(s.Syms)
	syms, err := cudaAlloc[uint8](r, (n+15)/16*16)
	if err != nil {
		return nil, err
	}
	if err := syms.Write(s.Syms); err != nil {
		return nil, err
	}
	if pad := syms.Len() - n; pad > 0 {
		if err := syms.WriteAt(make([]byte, pad), n); err != nil {
			return nil, err
		}
	}
	params, err := cudaUpload(r, s.Params)
	if err != nil {
		return nil, err
	}
	return &cudaInput{syms: syms, params: params, n: n, np: len(s.Params), host: s.Syms}, nil
}

// cudaGeometry is the interpretation's result on the device.
type cudaGeometry struct {
	segs, polys, verts    *gpu.Buffer[uint32]
	nsegs, npolys, nverts int
	box                   gpuBox
	modules, maxDepth     int
}

func blocks(n, per int) int { return (n + per - 1) / per }

// interpret runs every pass on the device and leaves the geometry there.
func (r *cudaRun) interpret(ctx context.Context, p *program, in *cudaInput, csize int) (*cudaGeometry, error) {
	n := in.n
	gp, err := newGPUProgram(p, n, csize)
	if err != nil {
		return nil, err
	}
	nc := int(gp.NChunks)
	prog, err := cudaUpload(r, gpu.Words(gp))
	if err != nil {
		return nil, err
	}
	scanBlocks := blocks(nc, gpuScanThreads)
	chunks, err1 := cudaAlloc[uint32](r, nc*gpuChunkWords)
	partials, err2 := cudaAlloc[uint32](r, scanBlocks*gpuSumsWords)
	totals, err3 := cudaAlloc[uint32](r, gpuTotalsWords)
	tree, err4 := cudaAlloc[int32](r, gp.treeSize())
	if err := firstErr(err1, err2, err3, err4); err != nil {
		return nil, err
	}
	k := &kernels{dev: r.dev}
	err = r.stage("survey", func() error {
		err := launch(k, turtleSurvey, scanBlocks, gpuScanThreads, ptrs4{prog.Ptr(), in.syms.Ptr(), chunks.Ptr(),
			partials.Ptr()})
		if err == nil {
			err = launch(k, turtleScanBlocks, 1, 1024, countedArgs{partials.Ptr(), uint32(scanBlocks), totals.Ptr()})
		}
		if err == nil {
			err = launch(k, turtlePrep, scanBlocks, gpuScanThreads, ptrs5{prog.Ptr(), chunks.Ptr(), partials.Ptr(),
				tree.Ptr(), totals.Ptr()})
		}
		if err == nil && gp.Levels > gpuScanLog+1 {
			err = launch(k, turtleTreeTop, 1, 1024, ptrs2{prog.Ptr(), tree.Ptr()})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var tot gpuTotals
	if err := readStruct(totals, 0, &tot); err != nil {
		return nil, err
	}
	if tot.BadChunk != math.MaxInt32 {
		var ch gpuChunk
		if err := readStruct(chunks, int(tot.BadChunk)*gpuChunkWords, &ch); err != nil {
			return nil, err
		}
		lo := int(tot.BadChunk) * csize
		c := chunk{lo: lo, hi: min(lo+csize, n), depth: int(ch.Depth)}
		host, err := in.symbols()
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("turtle: %w: ']' at module %d closes no '['", ErrUnbalanced, firstUnderflow(host, &c))
	}
	if tot.Params != uint64(in.np) {
		return nil, paramsError(uint64(in.np), tot.Params)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	walkBlocks := blocks(nc, gpuWalkThreads)
	ys, err1 := cudaAlloc[uint32](r, int(tot.Ys)*gpuXformWords)
	pushpos, err2 := cudaAlloc[int32](r, int(tot.Ys))
	if err := firstErr(err1, err2); err != nil {
		return nil, err
	}
	walk := walkArgs{prog.Ptr(), in.syms.Ptr(), argOf(in.params), chunks.Ptr(), tree.Ptr(), ys.Ptr(), pushpos.Ptr()}
	if p.linear(tot.Level != 0) {
		err = r.stage("summarize", func() error {
			return launch(k, turtleSummarize, walkBlocks, gpuWalkThreads, walk)
		})
		if err == nil {
			err = r.stage("combine", func() error { return r.combine(k, prog, chunks, tree, ys, nc, walkBlocks) })
		}
	} else {
		var ready *gpu.Buffer[int32]
		var ticket *gpu.Buffer[uint32]
		if ready, err = cudaAlloc[int32](r, int(tot.Ys)); err == nil {
			if ticket, err = cudaAlloc[uint32](r, 1); err == nil {
				err = firstErr(ready.Zero(), ticket.Zero())
			}
		}
		if err == nil {
			err = r.stage("spines", func() error {
				return launch(k, turtleSpines, walkBlocks, gpuWalkThreads, spinesArgs{walk, ready.Ptr(), ticket.Ptr()})
			})
		}
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	ne := int(tot.Events)
	polyBlocks := blocks(ne, gpuWalkThreads)
	dg := &cudaGeometry{nsegs: int(tot.Segs), modules: n, maxDepth: int(tot.MaxDepth)}
	stack, err1 := cudaAlloc[uint32](r, int(tot.Stack)*gpuStateWords)
	segs, err2 := cudaAlloc[uint32](r, dg.nsegs*gpuSegmentWords)
	events, err3 := cudaAlloc[uint32](r, ne*gpuEventWords)
	boxes, err4 := cudaAlloc[uint32](r, (walkBlocks+polyBlocks)*gpuBoxWords)
	if err := firstErr(err1, err2, err3, err4); err != nil {
		return nil, err
	}
	dg.segs = segs
	err = r.stage("emit", func() error {
		return launch(k, turtleEmit, walkBlocks, gpuWalkThreads, emitArgs{prog.Ptr(), in.syms.Ptr(), argOf(in.params),
			chunks.Ptr(), tree.Ptr(), ys.Ptr(), stack.Ptr(), segs.Ptr(), events.Ptr(), boxes.Ptr()})
	})
	if err != nil {
		return nil, err
	}
	if ne > 0 {
		err = r.stage("polygons", func() error { return r.polygons(k, in, events, ne, boxes.PtrAt(walkBlocks*gpuBoxWords), dg) })
		if err != nil {
			return nil, err
		}
	}
	box, err := cudaAlloc[uint32](r, gpuBoxWords)
	if err != nil {
		return nil, err
	}
	err = r.stage("bounds", func() error {
		return launch(k, turtleBounds, 1, 256, countedArgs{boxes.Ptr(), uint32(walkBlocks + polyBlocks), box.Ptr()})
	})
	if err != nil {
		return nil, err
	}
	return dg, readStruct(box, 0, &dg.box)
}

// combine turns the spine transforms in ys into states: pointer jumping over
// the chunk tree gives each chunk's spine start, which then prefixes its
// transforms.
func (r *cudaRun) combine(k *kernels, prog, chunks *gpu.Buffer[uint32], tree *gpu.Buffer[int32], ys *gpu.Buffer[uint32],
	nc, walkBlocks int) error {
	var v [2]*gpu.Buffer[uint32]
	var anc [2]*gpu.Buffer[int32]
	for i := range 2 {
		var err1, err2 error
		v[i], err1 = cudaAlloc[uint32](r, nc*gpuXformWords)
		anc[i], err2 = cudaAlloc[int32](r, nc)
		if err := firstErr(err1, err2); err != nil {
			return err
		}
	}
	pjBlocks := blocks(nc, gpuPJThreads)
	err := launch(k, turtlePJBlock, pjBlocks, gpuPJThreads, pjBlockArgs{prog.Ptr(), chunks.Ptr(), tree.Ptr(), ys.Ptr(),
		v[0].Ptr(), anc[0].Ptr()})
	if err != nil {
		return err
	}
	// Every ancestor now lies in an earlier block, so no chain is longer than
	// pjBlocks-1 steps; after round j each is 2^j steps up (or the root).
	cur := 0
	for range bits.Len(uint(pjBlocks - 1)) {
		err := launch(k, turtlePJRound, walkBlocks, gpuWalkThreads, ptrs5{prog.Ptr(), v[cur].Ptr(), anc[cur].Ptr(),
			v[1-cur].Ptr(), anc[1-cur].Ptr()})
		if err != nil {
			return err
		}
		cur = 1 - cur
	}
	return launch(k, turtleAbsolutize, walkBlocks, gpuWalkThreads, ptrs4{prog.Ptr(), chunks.Ptr(), v[cur].Ptr(), ys.Ptr()})
}

// polygons assembles the polygons from the ne events: brace depths by a
// scan, each '}' finds its '{', scans place polygons and vertices.
func (r *cudaRun) polygons(k *kernels, in *cudaInput, events *gpu.Buffer[uint32], ne int, boxes gpu.Ptr,
	dg *cudaGeometry) error {
	d := r.dev
	var bufs [5]*gpu.Buffer[uint32]
	for i := range bufs {
		var err error
		if bufs[i], err = cudaAlloc[uint32](r, ne); err != nil {
			return err
		}
	}
	depth, vcount, pidx, open, vertOff := bufs[0], bufs[1], bufs[2], bufs[3], bufs[4]
	bad, err := cudaUpload(r, []uint32{math.MaxUint32})
	if err != nil {
		return err
	}
	err = launch(k, turtleEvDelta, blocks(ne, 256), 256, countedArgs{events.Ptr(), uint32(ne), depth.Ptr()})
	if err != nil {
		return err
	}
	if _, err := d.ExclusiveScan(depth, depth); err != nil {
		return err
	}
	err = launch(k, turtlePolyCount, blocks(ne, 256), 256, polyCountArgs{events.Ptr(), uint32(ne), depth.Ptr(),
		vcount.Ptr(), pidx.Ptr(), open.Ptr(), bad.Ptr()})
	if err != nil {
		return err
	}
	var b [1]uint32
	if err := bad.Read(b[:]); err != nil {
		return err
	}
	if b[0] != math.MaxUint32 {
		host, err := in.symbols()
		if err != nil {
			return err
		}
		return fmt.Errorf("turtle: %w: '}' at module %d closes no '{'", ErrUnbalanced, unmatchedBrace(host))
	}
	np, err := d.ExclusiveScan(pidx, pidx)
	if err != nil {
		return err
	}
	nv, err := d.ExclusiveScan(vcount, vertOff)
	if err != nil {
		return err
	}
	dg.npolys, dg.nverts = int(np), int(nv)
	polys, err1 := cudaAlloc[uint32](r, dg.npolys*gpuPolygonWords)
	verts, err2 := cudaAlloc[uint32](r, dg.nverts*gpuVertexWords)
	if err := firstErr(err1, err2); err != nil {
		return err
	}
	dg.polys, dg.verts = polys, verts
	return launch(k, turtlePolyWrite, blocks(ne, gpuWalkThreads), gpuWalkThreads, polyWriteArgs{events.Ptr(), uint32(ne),
		vcount.Ptr(), vertOff.Ptr(), pidx.Ptr(), open.Ptr(), polys.Ptr(), verts.Ptr(), boxes})
}

// unmatchedBrace is the first '}' that closes no '{' (for the error message only).
func unmatchedBrace(syms []byte) int {
	d := 0
	for i, s := range syms {
		switch symbolCmds[s] {
		case cPolyStart:
			d++
		case cPolyEnd:
			if d == 0 {
				return i
			}
			d--
		}
	}
	return len(syms)
}

// download copies the geometry to the host and checks it as the CPU does.
func (r *cudaRun) download(dg *cudaGeometry) (*Geometry, error) {
	b := dg.box
	g := &Geometry{Segments: make([]Segment, dg.nsegs)}
	if dg.nsegs == 0 && dg.nverts == 0 {
		b = gpuBox{}
	}
	if b.Nonfinite != 0 {
		return nil, fmt.Errorf("turtle: %w: a coordinate or width is NaN or infinite (finite ones reach %v..%v)",
			ErrNonFinite, b.Lo, b.Hi)
	}
	if err := gpu.ReadStructsLarge(dg.segs, g.Segments); err != nil {
		return nil, err
	}
	if dg.npolys > 0 {
		g.Polygons = make([]Polygon, dg.npolys)
		if err := gpu.ReadStructsLarge(dg.polys, g.Polygons); err != nil {
			return nil, err
		}
	}
	if dg.nverts > 0 {
		g.PolyVerts = make([][3]float32, dg.nverts)
		if err := gpu.ReadStructsLarge(dg.verts, g.PolyVerts); err != nil {
			return nil, err
		}
	}
	g.Stats = Stats{Modules: dg.modules, Segments: dg.nsegs, Polygons: dg.npolys, MaxDepth: dg.maxDepth,
		Bounds: Box{Min: b.Lo, Max: b.Hi}}
	return g, nil
}

// readStruct decodes the fixed-size struct v from b at word off.
func readStruct(b *gpu.Buffer[uint32], off int, v any) error {
	words := make([]uint32, len(gpu.Words(v)))
	if err := b.ReadAt(words, off); err != nil {
		return err
	}
	return gpu.Decode(words, v)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// kernels launches the turtle family's kernels on a device.
type kernels struct{ dev *gpu.Device }

// launch runs kernel kd on k's device.
func launch[P any](k *kernels, kd gpu.Kernel[P], grid, block int, p P) error {
	f, err := kd.Load(k.dev)
	if err != nil {
		return err
	}
	if err := f.Launch(gpu.Dim(grid), gpu.Dim(block), 0, p); err != nil {
		return fmt.Errorf("turtle: %w", err)
	}
	return nil
}
