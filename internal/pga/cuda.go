//go:build cuda

package pga

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// Launch shapes; they must match cuda/pga.cu.
const (
	cudaThreads   = 256             // PGA_THREADS
	cudaScanTile  = cudaThreads * 4 // PGA_SCAN_TILE
	cudaPool      = 256             // PGA_POOL
	itemWords     = int(unsafe.Sizeof(gpuItem{}) / 4)
	termWords     = int(unsafe.Sizeof(gpuTerm{}) / 4)
	statusWords   = int(unsafe.Sizeof(gpuStatus{}) / 4)
	flagGroup     = 1 // PGA_FLAG_GROUP
	flagOpPar     = 2 // PGA_FLAG_OPPAR
	blocksPerSM   = 2
	minQueueItems = 1 << 20
)

// persistentShared is sizeof(PgaShared) rounded up: two batches of items,
// sort keys, offsets and a few counters.
var persistentShared = (2*cudaThreads*int(unsafe.Sizeof(gpuItem{})) + 4*cudaThreads + 4*(cudaThreads+1) + 32 + 255) &^ 255

// CUDA evaluates one grammar on a device. Its buffers are kept between
// evaluations (and grown as scenes need), so repeated runs allocate nothing.
// It is not safe for concurrent use.
type CUDA struct {
	dev   *gpu.Device
	g     *Grammar
	prog  *program
	words *gpu.Buffer[uint32]
	st    *gpu.Buffer[uint32]

	qa, qb, terms, ready, index *gpu.Buffer[uint32]
	counts, partial             *gpu.Buffer[uint64]
	bin                         *gpu.Buffer[uint8] // the last device GLB's vertex data (GLB.Bin)
	verts                       *gpu.Buffer[float32]
	lotAttrs                    *gpu.Buffer[float64]
	pc                          phaseCtx
	lotArg                      gpu.Ptr // lotAttrs, or a null pointer when the grammar reads none
	qcap, tcap                  int     // persistent capacities learnt so far
	minCap                      int     // first capacity (tests set it low); 0 means minQueueItems
}

// NewCUDA compiles g for dev (CompileCUDA) and loads it there. A grammar
// the device cannot run gives an *UnsupportedError: evaluate it with
// Grammar.Evaluate instead.
func NewCUDA(dev *gpu.Device, g *Grammar) (*CUDA, error) {
	cp, err := CompileCUDA(context.Background(), g, nil)
	if err != nil {
		return nil, err
	}
	return cp.Load(dev)
}

// Load uploads the compiled grammar to dev: an engine that evaluates it
// there.
func (cp *CUDAProgram) Load(dev *gpu.Device) (*CUDA, error) {
	g, p := cp.g, cp.p
	c := &CUDA{dev: dev, g: g, prog: p}
	var err error
	if c.words, err = gpu.Upload(dev, p.words); err != nil {
		return nil, fmt.Errorf("pga: cuda: %w", err)
	}
	if c.st, err = gpu.Alloc[uint32](dev, statusWords); err != nil {
		c.Close()
		return nil, fmt.Errorf("pga: cuda: %w", err)
	}
	return c, nil
}

// Close frees the device buffers.
func (c *CUDA) Close() error {
	var errs []error
	for _, b := range []*gpu.Buffer[uint32]{c.words, c.st, c.qa, c.qb, c.terms, c.ready, c.index} {
		if b != nil {
			errs = append(errs, b.Free())
		}
	}
	for _, b := range []*gpu.Buffer[uint64]{c.counts, c.partial} {
		if b != nil {
			errs = append(errs, b.Free())
		}
	}
	if c.verts != nil {
		errs = append(errs, c.verts.Free())
	}
	if c.lotAttrs != nil {
		errs = append(errs, c.lotAttrs.Free())
	}
	if c.bin != nil {
		errs = append(errs, c.bin.Free())
	}
	errs = append(errs, c.pc.free())
	return errors.Join(errs...)
}

// grow makes *b hold at least n values, keeping the first keep of them.
func grow[T gpu.Elem](d *gpu.Device, b **gpu.Buffer[T], n, keep int) error {
	if *b != nil && (*b).Len() >= n {
		return nil
	}
	nb, err := gpu.Alloc[T](d, max(n+n/4, 1024))
	if err != nil {
		return fmt.Errorf("pga: cuda: %w", err)
	}
	if *b != nil {
		if keep > 0 {
			if err := nb.CopyFrom(*b); err != nil {
				nb.Free()
				return err
			}
		}
		(*b).Free()
	}
	*b = nb
	return nil
}

// launch runs kernel k over n threads.
func launch[P any](c *CUDA, k gpu.Kernel[P], n int, p P) error {
	if n == 0 {
		return nil
	}
	f, err := k.Load(c.dev)
	if err != nil {
		return err
	}
	return f.Launch(gpu.Dim((n+cudaThreads-1)/cudaThreads), gpu.Dim(cudaThreads), 0, p)
}

func (c *CUDA) status() (gpuStatus, error) {
	var s gpuStatus
	w := make([]uint32, statusWords)
	if err := c.st.Read(w); err != nil {
		return s, err
	}
	return s, gpu.Decode(w, &s)
}

func (c *CUDA) setStatus(s gpuStatus) error { return c.st.Write(gpu.Words(s)) }

// scan turns counts[:n] into exclusive prefix sums; the total lands in the
// status's ScanTotal.
func (c *CUDA) scan(n int) error {
	tiles := (n + cudaScanTile - 1) / cudaScanTile
	if err := grow(c.dev, &c.partial, tiles, 0); err != nil {
		return err
	}
	f, err := scanTiles.Load(c.dev)
	if err != nil {
		return err
	}
	if err := f.Launch(gpu.Dim(tiles), gpu.Dim(cudaThreads), 0, scanArgs{c.counts.Ptr(), uint32(n), c.partial.Ptr()}); err != nil {
		return err
	}
	f, err = scanPartials.Load(c.dev)
	if err != nil {
		return err
	}
	if err := f.Launch(gpu.Dim(1), gpu.Dim(cudaThreads), 0, scanArgs{c.partial.Ptr(), uint32(tiles), c.st.Ptr()}); err != nil {
		return err
	}
	return launch(c, scanAdd, n, scanArgs{c.counts.Ptr(), uint32(n), c.partial.Ptr()})
}

// Evaluate expands every axiom with the start rule on the device: the
// CUDA Engine. Terminals it returns are finite (CheckFinite), as the CPU's.
func (c *CUDA) Evaluate(ctx context.Context, axioms []Shape, opt Options) (*Result, error) {
	if opt.GLB && (opt.Mesh || opt.KeepTerminals) {
		return nil, errors.New("pga: CUDATuning.GLB builds the file's data on the device, without Mesh or KeepTerminals")
	}
	if opt.Mesh && len(c.g.Assets) > 0 {
		// The device mesh draws every terminal as its scope's solid; an
		// asset (I) is drawn from its file on the host (Grammar.Mesh,
		// Grammar.Stats), which the terminals kept here feed. The device
		// GLB makes its asset parts on the host (glbAssets).
		return nil, errors.New("pga: a grammar with assets (I) builds its mesh and counts on the host: evaluate it with KeepTerminals or CUDATuning.GLB, not CUDATuning.Mesh")
	}
	start := opt.Axiom
	if start == "" {
		if len(c.g.Axioms) == 0 {
			return nil, errors.New("pga: grammar has no axiom")
		}
		start = c.g.Axioms[0].Rule
	}
	rule, ok := c.prog.ruleID[start]
	if !ok {
		return nil, fmt.Errorf("pga: no rule %q", start)
	}
	if err := c.prog.footprintStart(c.g, start, axioms); err != nil {
		return nil, err
	}
	if opt.MaxShapes <= 0 {
		opt.MaxShapes = 1 << 24
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 1000
	}
	if len(axioms) > opt.MaxShapes {
		return nil, fmt.Errorf("pga: rule %q: more than %d shapes (MaxShapes): %w", start, opt.MaxShapes, ErrLimit)
	}
	if len(axioms) >= 1<<31 {
		return nil, fmt.Errorf("pga: cuda: %d axioms, too many", len(axioms))
	}
	items := make([]gpuItem, len(axioms))
	prof := c.g.axiomProfile(start)
	for i, a := range axioms {
		if a.Profile == 0 {
			a.Profile = prof
		}
		it := gpuItem{Size: a.Size, Attr: a.Attr, Seed: a.Seed, Kind: int16(a.Kind), Mat: a.Mat, UV: b2i16(a.UV),
			Chain: c.prog.ruleMain[rule], Rule: int32(rule), Depth: 1, Axiom: int32(i),
			Profile: a.Profile, Roof: int16(a.Roof), Index: a.Index, Siblings: a.Siblings}
		copy(it.M[:], a.Transform[:12])
		items[i] = it
	}
	if err := c.uploadLotAttrs(len(axioms), opt.LotAttrs); err != nil {
		return nil, err
	}
	// The lots' edges for the overflow check, laid out while the device runs.
	edges := make(chan lotEdgeTable, 1)
	if len(opt.Lots) > 0 {
		go func() { edges <- lotEdgeTables(opt.Lots) }()
	}
	res := &Result{}
	var nterm int
	var ticks uint64
	var bounds []phaseRange
	var err error
	res.DeviceTime, err = c.dev.Time(func() error {
		nterm, ticks, bounds, err = c.phases(ctx, items, len(axioms), &opt)
		if err != nil || !(opt.Mesh || opt.GLB) {
			return err
		}
		if err := c.meshCounts(nterm, bounds, res); err != nil || !opt.Mesh {
			return err
		}
		return c.meshWrite(nterm, res)
	})
	if err != nil {
		return nil, err
	}
	res.Shapes = int64(ticks)
	res.Stats.Terminals = nterm
	step := time.Now()
	lap := func(name string) {
		res.Steps = append(res.Steps, Step{name, time.Since(step)})
		step = time.Now()
	}
	lap("grammar and counts")
	if opt.GLB {
		if res.GLB, err = c.glb(ctx, nterm, res, bounds, lap); err != nil {
			return nil, err
		}
	}
	if !opt.Mesh && !opt.GLB {
		for _, b := range bounds {
			res.Stats.ByPhase = append(res.Stats.ByPhase, PhaseStats{Phase: int(b.phase), Terminals: b.end - b.start})
		}
	}
	if opt.KeepTerminals {
		if err := c.download(nterm, opt.Mesh, res); err != nil {
			return nil, err
		}
		if err := c.g.CheckFinite(res.Terminals); err != nil {
			return nil, err // the kernels do not check them as the CPU does
		}
	} else if opt.Mesh || opt.GLB {
		if err := c.countByName(nterm, res); err != nil {
			return nil, err
		}
	}
	lap("terminals and names")
	if len(opt.Lots) > 0 {
		if res.Overflows, err = c.overflows(nterm, opt.Lots, <-edges, opt.OverflowTol); err != nil {
			return nil, err
		}
		lap("overflow check")
	}
	return res, nil
}

// uploadLotAttrs lays out what LotAttr reads: per axiom one value per
// Grammar.LotAttrs name, NaN where the lot has none.
func (c *CUDA) uploadLotAttrs(n int, attrs []map[string]float64) error {
	c.lotArg = gpu.Ptr{}
	names := c.g.LotAttrs
	if len(names) == 0 || n == 0 {
		return nil
	}
	vals := make([]float64, n*len(names))
	for i := 0; i < n; i++ {
		for k, name := range names {
			vals[i*len(names)+k] = math.NaN()
			if i < len(attrs) {
				if v, ok := attrs[i][name]; ok {
					vals[i*len(names)+k] = v
				}
			}
		}
	}
	if err := grow(c.dev, &c.lotAttrs, len(vals), 0); err != nil {
		return err
	}
	c.lotArg = c.lotAttrs.Ptr()
	return c.lotAttrs.Write(vals)
}

func uploadItems(b *gpu.Buffer[uint32], items []gpuItem, at int) error {
	if len(items) == 0 {
		return nil
	}
	return b.WriteAt(unsafe.Slice((*uint32)(unsafe.Pointer(&items[0])), len(items)*itemWords), at*itemWords)
}

// levels runs one launch per derivation level; it returns the number of
// terminals written to c.terms.
func (c *CUDA) levels(ctx context.Context, items []gpuItem, opt *Options, ph int32, nterm int, ticks uint64) (int, gpuStatus, error) {
	var st gpuStatus
	n := len(items)
	if err := grow(c.dev, &c.qa, n*itemWords, 0); err != nil {
		return 0, st, err
	}
	if err := uploadItems(c.qa, items, 0); err != nil {
		return 0, st, err
	}
	if err := c.setStatus(gpuStatus{Ticks: ticks, NAnc: uint32(c.pc.ancN)}); err != nil {
		return 0, st, err
	}
	for n > 0 {
		if err := ctx.Err(); err != nil {
			return 0, st, err
		}
		if err := grow(c.dev, &c.counts, n, 0); err != nil {
			return 0, st, err
		}
		if err := launch(c, runKernel(c, levelsRun, levelsRunAsk), n, levelsRunArgs{c.ctxArgs(ph), c.qa.Ptr(), uint32(n), c.counts.Ptr(), c.st.Ptr(),
			uint64(opt.MaxShapes), int32(opt.MaxDepth)}); err != nil {
			return 0, st, err
		}
		if err := c.scan(n); err != nil {
			return 0, st, err
		}
		var err error
		if st, err = c.status(); err != nil {
			return 0, st, err
		}
		if err := c.check(st, opt); err != nil {
			return 0, st, err
		}
		nc, nt := int(uint32(st.ScanTotal)), int(st.ScanTotal>>32)
		if nterm+nt >= 1<<31 || int64(nc)*int64(itemWords) >= 1<<40 {
			return 0, st, fmt.Errorf("pga: cuda: level of %d shapes and %d terminals is too large", nc, nterm+nt)
		}
		if err := grow(c.dev, &c.qb, nc*itemWords, 0); err != nil {
			return 0, st, err
		}
		if err := grow(c.dev, &c.terms, (nterm+nt)*termWords, nterm*termWords); err != nil {
			return 0, st, err
		}
		if err := launch(c, levelsExpand, n, levelsExpandArgs{c.ctxArgs(ph), c.qa.Ptr(), uint32(n), c.counts.Ptr(), c.qb.Ptr(),
			c.terms.Ptr(), uint32(nterm), c.st.Ptr()}); err != nil {
			return 0, st, err
		}
		nterm += nt
		c.qa, c.qb = c.qb, c.qa
		n = nc
	}
	return nterm, st, nil
}

// persistent runs the whole derivation in one launch, growing the global
// queue or the terminal buffer and running again when either overflows.
func (c *CUDA) persistent(ctx context.Context, items []gpuItem, opt *Options, ph int32, nterm int, ticks uint64) (int, gpuStatus, error) {
	var st gpuStatus
	n := len(items)
	f, err := runKernel(c, persistentRun, persistentAsk).Load(c.dev)
	if err != nil {
		return 0, st, err
	}
	if err := f.SetMaxDynamicShared(persistentShared); err != nil {
		return 0, st, err
	}
	flags := int32(0)
	if !opt.NoLocalGrouping {
		flags |= flagGroup
	}
	if !opt.NoOpParallel {
		flags |= flagOpPar
	}
	limit := opt.MaxShapes + n // no run holds more shapes than it may make
	first := c.minCap
	if first <= 0 {
		first = minQueueItems
	}
	c.qcap = min(max(c.qcap, 4*n, first), limit)
	c.tcap = min(max(c.tcap, nterm+4*n, first), nterm+limit)
	ones := make([]uint32, n)
	for i := range ones {
		ones[i] = 1
	}
	blocks := max(1, c.dev.Info().SMs) * blocksPerSM
	for {
		if err := ctx.Err(); err != nil {
			return 0, st, err
		}
		if err := grow(c.dev, &c.qa, c.qcap*itemWords, 0); err != nil {
			return 0, st, err
		}
		if err := grow(c.dev, &c.ready, c.qcap, 0); err != nil {
			return 0, st, err
		}
		if err := grow(c.dev, &c.terms, c.tcap*termWords, nterm*termWords); err != nil {
			return 0, st, err
		}
		if err := c.ready.ZeroPrefix(c.qcap); err != nil {
			return 0, st, err
		}
		if err := c.ready.Write(ones); err != nil {
			return 0, st, err
		}
		if err := uploadItems(c.qa, items, 0); err != nil {
			return 0, st, err
		}
		if err := c.setStatus(gpuStatus{Ticks: ticks, QTail: uint32(n), Work: uint32(n), NTerm: uint32(nterm), NAnc: uint32(c.pc.ancN)}); err != nil {
			return 0, st, err
		}
		if err := f.Launch(gpu.Dim(blocks), gpu.Dim(cudaThreads), persistentShared, persistentArgs{c.ctxArgs(ph), c.qa.Ptr(), c.ready.Ptr(),
			uint32(c.qcap), c.terms.Ptr(), uint32(c.tcap), c.st.Ptr(),
			uint64(opt.MaxShapes), int32(opt.MaxDepth), flags}); err != nil {
			return 0, st, err
		}
		if st, err = c.status(); err != nil {
			return 0, st, err
		}
		if st.Err != gpuErrOverflow || st.ErrArg == 2 {
			if err := c.check(st, opt); err != nil {
				return 0, st, err
			}
			return int(st.NTerm), st, nil
		}
		grown := false
		if int(st.QTail) > c.qcap && c.qcap < limit {
			c.qcap, grown = min(4*c.qcap, limit), true
		}
		if int(st.NTerm) > c.tcap && c.tcap < nterm+limit {
			c.tcap, grown = min(4*c.tcap, nterm+limit), true
		}
		if !grown {
			return 0, st, fmt.Errorf("pga: cuda: queue of %d and %d terminals overflowed at the MaxShapes bound", c.qcap, c.tcap)
		}
	}
}

// meshCounts counts the terminals' vertices and triangles (Result.Stats,
// per phase too), leaving their offsets in c.counts.
func (c *CUDA) meshCounts(nterm int, bounds []phaseRange, res *Result) error {
	if nterm == 0 {
		return nil
	}
	if err := grow(c.dev, &c.counts, nterm, 0); err != nil {
		return err
	}
	for _, b := range bounds {
		res.Stats.ByPhase = append(res.Stats.ByPhase, PhaseStats{Phase: int(b.phase), Terminals: b.end - b.start})
	}
	if err := launch(c, meshCount, nterm, meshCountArgs{c.words.Ptr(), c.terms.Ptr(), uint32(nterm), c.counts.Ptr()}); err != nil {
		return err
	}
	if err := c.scan(nterm); err != nil {
		return err
	}
	st, err := c.status()
	if err != nil {
		return err
	}
	nv, nt := int64(uint32(st.ScanTotal)), int64(st.ScanTotal>>32)
	if nv >= 1<<32 || nt*3 >= 1<<32 {
		return fmt.Errorf("pga: cuda: mesh of %d terminals is over the uint32 index range", nterm)
	}
	res.Stats.Vertices, res.Stats.Triangles = nv, nt
	// Per phase: the exclusive sums at the phases' first terminals.
	at := func(i int) (int64, int64, error) {
		if i >= nterm {
			return nv, nt, nil
		}
		var o [1]uint64
		if err := c.counts.ReadAt(o[:], i); err != nil {
			return 0, 0, err
		}
		return int64(uint32(o[0])), int64(o[0] >> 32), nil
	}
	for k, b := range bounds {
		v0, t0, err := at(b.start)
		if err != nil {
			return err
		}
		v1, t1, err := at(b.end)
		if err != nil {
			return err
		}
		res.Stats.ByPhase[k].Vertices, res.Stats.ByPhase[k].Triangles = v1-v0, t1-t0
	}
	return nil
}

// meshWrite builds the terminals' vertices and triangles at the offsets
// meshCounts left.
func (c *CUDA) meshWrite(nterm int, res *Result) error {
	if nterm == 0 {
		return nil
	}
	nv, nt := res.Stats.Vertices, res.Stats.Triangles
	if err := grow(c.dev, &c.verts, int(3*nv), 0); err != nil {
		return err
	}
	if err := grow(c.dev, &c.index, int(3*nt), 0); err != nil {
		return err
	}
	return launch(c, meshWrite, nterm, meshWriteArgs{c.words.Ptr(), c.terms.Ptr(), uint32(nterm), c.counts.Ptr(), c.verts.Ptr(), c.index.Ptr()})
}

func (c *CUDA) download(nterm int, mesh bool, res *Result) error {
	ts := make([]gpuTerm, nterm)
	if err := gpu.ReadStructs(c.terms, ts); err != nil {
		return err
	}
	c.prog.orderDeviceTerms(ts, c.g.TermNames, c.g.projects, res)
	if !mesh || nterm == 0 {
		return nil
	}
	res.Vertices = make([]float32, 3*res.Stats.Vertices)
	res.Indices = make([]uint32, 3*res.Stats.Triangles)
	if err := c.verts.Read(res.Vertices); err != nil {
		return err
	}
	return c.index.Read(res.Indices)
}

// b2i16 is a flag as the device keeps it.
func b2i16(b bool) int16 {
	if b {
		return 1
	}
	return 0
}
