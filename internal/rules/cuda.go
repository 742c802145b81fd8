//go:build cuda

package rules

import (
	"context"
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// CUDA runs the rules on a GPU, in the schedule and layout Options ask for,
// with kernels generated for the rule set (rules/ptx, compiled by the driver
// and cached) or, when they do not compile or Options.Interpreter is set,
// the bytecode interpreter kernels of cuda/rules.cu. A few big states run
// tiled over every SM instead (UseTiles, cuda_tile.go).
type CUDA struct {
	Dev *gpu.Device
}

var _ Engine = CUDA{}

// cudaRun owns a run's device buffers.
type cudaRun struct {
	dev                *gpu.Device
	p                  *Program
	n, wp              int
	interp             gpu.Func[interpArgs] // the interpreter kernel, when not generated
	gen                ptx.Kernel           // the generated kernel, when generated
	genFamily          string               // its module (LoadPTXModule)
	blocks, threads    int
	code               *gpu.Buffer[uint32]
	fields, rules      *gpu.Buffer[uint32]
	cur, snap          *gpu.Buffer[uint32]
	pend               *gpu.Buffer[uint64]
	stableAt, failed   *gpu.Buffer[int32]
	errRule, lastFired *gpu.Buffer[int32]
	errKey, errPC      *gpu.Buffer[uint64]
	fired              *gpu.Buffer[uint64]
	shared             int
	// wide: the kernels of the wide encodings (rules/ptx encoding.go).
	wide bool
	// generated: gen is a kernel generated for p; genErr says why not.
	generated bool
	genErr    error
	// The draws' seed and the run's number of state 0 (rand.go).
	seed             uint64
	first, firstStep int
	// tile: the tiled path's kernels (cuda_tile.go), nil for the
	// per-state schedules; layout is the states' layout.
	tile   *tileKernels
	layout Layout
}

func newCUDARun(dev *gpu.Device, p *Program, st *States, sched Schedule, layout Layout, steps int, interp, require bool) (r *cudaRun, err error) {
	r = &cudaRun{dev: dev, p: p, n: st.N, wp: ptx.PadWords(p.Words), wide: ptx.NeedsWide(p) || forceWide, layout: layout}
	defer func() {
		if err != nil {
			r.free()
			r = nil
		}
	}()
	if useTiles(p, st.N, dev.Info().SMs) {
		r.threads = ptx.SimpleBlock
		if err = r.newTiles(layout, interp, require); err != nil {
			return r, err
		}
		return r, r.buffers(st, layout, steps)
	}
	enc := "_"
	if r.wide {
		enc = "_wide_"
	}
	kernel := fmt.Sprintf("rules_%s%s%s", sched, enc, layout)
	gen := ptx.Kernel{Sched: sched, Layout: layout, Wide: r.wide}
	switch {
	case sched == Compact && compactSmall(st.N, dev.Info().SMs):
		kernel = fmt.Sprintf("rules_compact_small%s%s", enc, layout)
		r.blocks, r.threads = (st.N+ptx.CompactSmall-1)/ptx.CompactSmall, 32*ptx.CompactSmall
		gen.Warps = ptx.CompactSmall
	case sched == Compact:
		r.blocks, r.threads = (st.N+31)/32, ptx.CompactBlock
		gen.Warps = 32
	default:
		r.blocks, r.threads = st.N, ptx.SimpleBlock
	}
	r.genErr = fmt.Errorf("the interpreter was asked for")
	if !interp {
		r.gen = gen
		r.genFamily, r.genErr = loadGenerated(dev, p, gen)
		r.generated = r.genErr == nil
		if !r.generated && require {
			return r, fmt.Errorf("the kernel generated for the rule set does not load (--kernel interpreter runs the bytecode interpreter): %w", r.genErr)
		}
	}
	if !r.generated {
		if r.interp, err = interpKernel(kernel).Load(dev); err != nil {
			return r, err
		}
		if err = r.interpTables(); err != nil {
			return r, err
		}
	}
	if err = r.buffers(st, layout, steps); err != nil {
		return r, err
	}
	return r, nil
}

// loadGenerated loads kernel k generated for p, compiled by the driver
// (once per device and program: LoadPTXModule caches by the PTX's hash),
// and returns its module's family. The kernel is looked up there first, so
// a module without it fails here, not at the first launch.
func loadGenerated(dev *gpu.Device, p *Program, k ptx.Kernel) (string, error) {
	module, err := ptx.Generate(p, k)
	if err != nil {
		return "", err
	}
	family, err := dev.LoadPTXModule("rules", []byte(module))
	if err != nil {
		return "", err
	}
	_, err = genKernel[genArgs](k).LoadFrom(dev, family)
	return family, err
}

// buffers allocates and fills the state and the per-state records.
func (r *cudaRun) buffers(st *States, layout Layout, steps int) (err error) {
	p, dev := r.p, r.dev
	var snap, pend bool
	for _, rule := range p.Rules {
		snap = snap || rule.SnapMask != 0
		pend = pend || rule.PendMask != 0
	}
	if r.cur, err = gpu.Upload(dev, toLayout(st, layout)); err != nil {
		return err
	}
	size := func(on bool) int {
		if on {
			return st.N * r.wp
		}
		return 1
	}
	if r.snap, err = gpu.Alloc[uint32](dev, size(snap)); err != nil {
		return err
	}
	if r.pend, err = gpu.Alloc[uint64](dev, size(pend)); err != nil {
		return err
	}
	if err = r.pend.Zero(); err != nil {
		return err
	}
	for _, b := range []**gpu.Buffer[int32]{&r.stableAt, &r.failed, &r.errRule, &r.lastFired} {
		n := st.N
		if b == &r.lastFired && r.wide {
			n *= 2 // an int64 a state
		}
		if *b, err = gpu.Alloc[int32](dev, n); err != nil {
			return err
		}
		if err = (*b).Zero(); err != nil {
			return err
		}
	}
	if r.errKey, err = gpu.Upload(dev, fill(st.N, ^uint64(0))); err != nil {
		return err
	}
	if r.errPC, err = gpu.Upload(dev, fill(size(r.wide), ^uint64(0))); err != nil {
		return err
	}
	if r.fired, err = gpu.Alloc[uint64](dev, max(steps, 1)*len(p.Rules)); err != nil {
		return err
	}
	return r.fired.Zero()
}

// compactWarps, when not zero, forces the compact schedule's states per
// block (32 or ptx.CompactSmall); tests run both.
var compactWarps = 0

// compactSmall says whether compact runs ptx.CompactSmall states a block:
// the paper's 32 states a block leave SMs idle when there are fewer than
// two blocks an SM (2048 states are 64 blocks for an H100's 132 SMs).
func compactSmall(states, sms int) bool {
	if compactWarps != 0 {
		return compactWarps == ptx.CompactSmall
	}
	return (states+31)/32 < 2*sms
}

func fill[T any](n int, v T) []T {
	out := make([]T, n)
	for k := range out {
		out[k] = v
	}
	return out
}

func (r *cudaRun) free() {
	for _, b := range []*gpu.Buffer[uint32]{r.code, r.fields, r.rules, r.cur, r.snap} {
		if b != nil {
			b.Free()
		}
	}
	for _, b := range []*gpu.Buffer[int32]{r.stableAt, r.failed, r.errRule, r.lastFired} {
		if b != nil {
			b.Free()
		}
	}
	for _, b := range []*gpu.Buffer[uint64]{r.pend, r.errKey, r.errPC, r.fired} {
		if b != nil {
			b.Free()
		}
	}
	if r.tile != nil {
		r.tile.free()
	}
}

// launch queues steps step0+1 .. step0+n.
func (r *cudaRun) launch(step0, n int) error {
	p := r.p
	if r.tile != nil {
		return r.launchTiles(step0, n)
	}
	if r.generated { // the parameters of generateKernel's kernels (ptxParams)
		fired := r.fired.PtrAt(step0 * len(p.Rules))
		narrow := genNarrow{r.cur.Ptr(), r.snap.Ptr(), r.pend.Ptr(), r.stableAt.Ptr(), r.failed.Ptr(), r.errRule.Ptr(),
			r.errKey.Ptr(), fired, r.lastFired.Ptr()}
		wide := genWide{r.cur.Ptr(), r.snap.Ptr(), r.pend.Ptr(), r.stableAt.Ptr(), r.failed.Ptr(), r.errRule.Ptr(),
			r.errKey.Ptr(), r.errPC.Ptr(), fired, r.lastFired.Ptr()}
		steps := genSteps{int32(r.n), int32(step0), int32(n)}
		draws := genDraws{r.seed, int32(r.first), int32(r.firstStep)} // rules/ptx rand.go's three more
		switch {
		case r.wide && p.Draws:
			return launchGenerated(r, genWideRandArgs{wide, steps, draws})
		case r.wide:
			return launchGenerated(r, genWideArgs{wide, steps})
		case p.Draws:
			return launchGenerated(r, genRandArgs{narrow, steps, draws})
		}
		return launchGenerated(r, genArgs{narrow, steps})
	}
	nofix := int32(0)
	if p.DrawsInCond {
		nofix = 1
	}
	return r.interp.Launch(gpu.Dim(r.blocks), gpu.Dim(r.threads), r.shared, interpArgs{
		r.code.Ptr(), r.fields.Ptr(), r.rules.Ptr(), r.cur.Ptr(), r.snap.Ptr(), r.pend.Ptr(),
		r.stableAt.Ptr(), r.failed.Ptr(), r.errRule.Ptr(), r.errKey.Ptr(), r.errPC.Ptr(), r.fired.PtrAt(step0 * len(p.Rules)),
		r.lastFired.Ptr(), int32(r.n), int32(r.wp), int32(len(p.Rules)),
		int32(len(p.Code)), int32(len(p.Fields)), int32(step0), int32(n), int32(p.Regs),
		r.seed, int32(r.first), nofix, int32(r.firstStep)})
}

// launchGenerated launches the generated kernel with parameters P, the
// variant of its kind (wide, draws).
func launchGenerated[P any](r *cudaRun, p P) error {
	f, err := genKernel[P](r.gen).LoadFrom(r.dev, r.genFamily)
	if err != nil {
		return err
	}
	return f.Launch(gpu.Dim(r.blocks), gpu.Dim(r.threads), 0, p)
}

// Run applies the program's rules to every state in place on the GPU.
func (c CUDA) Run(ctx context.Context, p *Program, st *States, o Options) (*Result, error) {
	if err := o.check(p, st); err != nil {
		return nil, err
	}
	if err := GPUSupports(p); err != nil {
		return nil, err
	}
	sched, layout := o.Schedule, o.Layout
	if sched == "" {
		sched = Compact
	}
	if layout == "" {
		layout = LayoutC
	}
	if st.N == 0 {
		res := &Result{StableAt: make([]int32, st.N), Fired: [][]int64{}, FiredTotal: make([]int64, len(p.Rules))}
		finish(res, o)
		return res, nil
	}
	if st.N >= 1<<31/32 || int64(st.N)*int64(ptx.PadWords(p.Words)) >= 1<<40 {
		return nil, fmt.Errorf("rules: %d states of %d words are too many for the GPU backend", st.N, p.Words)
	}
	if err := checkDeviceMemory(c.Dev, p, st.N, o.Steps); err != nil {
		return nil, err
	}
	r, err := newCUDARun(c.Dev, p, st, sched, layout, o.Steps, o.Interpreter, o.RequireGenerated)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	defer r.free()
	r.seed, r.first, r.firstStep = o.Seed, o.FirstState, o.FirstStep
	res := &Result{Kernel: "generated", Tiled: r.tile != nil}
	if !r.generated {
		res.Kernel, res.KernelNote = "interpreter", r.genErr.Error()
	}
	rec := newRecorder(p, o.Record, o.Steps)
	// --record reduces on the device where it can (drec); else, like
	// --trace, it downloads the states after every step (hostRec).
	var drec *deviceRecorder
	if rec != nil && len(o.Trace) == 0 {
		if drec, err = newDeviceRecorder(r, o.Record, o.Steps); err != nil {
			return nil, fmt.Errorf("rules: --record: %w", err)
		}
		defer drec.free()
	}
	hostRec := rec
	if drec != nil {
		hostRec = nil
		if err := drec.observe(0); err != nil {
			return nil, fmt.Errorf("rules: --record: %w", err)
		}
	}
	traced := len(o.Trace) > 0 || hostRec != nil
	stable := make([]int32, st.N)
	var dev []uint32
	if traced {
		if dev, err = r.cur.Download(); err != nil {
			return nil, err
		}
		observeAll(hostRec, 0, st, layout, dev, false)
		for _, s := range o.Trace {
			res.Trace = append(res.Trace, TraceRecord{0, s, 0, traceWords(st, layout, dev, s)})
		}
	}
	failed := make([]int32, st.N)
	last := make([]int64, st.N)
	batch, ran := 0, 0
	// Launches grow from one step to 256, so a fixed point or a fault is
	// seen soon and long runs pay little launch overhead.
	for done, next := 0, 1; done < o.Steps; done += batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch = min(next, o.Steps-done)
		if traced || drec != nil {
			batch = 1
		}
		if err := r.launch(done, batch); err != nil {
			return nil, fmt.Errorf("rules: %w", err)
		}
		if drec != nil {
			if err := drec.observe(done + 1); err != nil {
				return nil, fmt.Errorf("rules: --record: %w", err)
			}
		}
		prev := append([]int32(nil), stable...)
		if err := r.failed.Read(failed); err != nil {
			return nil, fmt.Errorf("rules: %w", err)
		}
		if err := r.stableAt.Read(stable); err != nil {
			return nil, fmt.Errorf("rules: %w", err)
		}
		if err := r.faults(failed); err != nil {
			return nil, err
		}
		if traced {
			if dev, err = r.cur.Download(); err != nil {
				return nil, err
			}
			if err := r.readLastFired(last); err != nil {
				return nil, err
			}
			for _, s := range o.Trace {
				if prev[s] == 0 {
					res.Trace = append(res.Trace, TraceRecord{done + 1, s, last[s], traceWords(st, layout, dev, s)})
				}
			}
			observeAll(hostRec, done+1, st, layout, dev, false)
		}
		ran = done + batch
		if o.Progress != nil {
			o.Progress(int64(done+batch), int64(o.Steps))
		}
		allStable := true
		for _, t := range stable {
			allStable = allStable && t != 0
		}
		if allStable {
			break
		}
		next = min(2*next, maxLaunchSteps(p, st.N))
	}
	if dev, err = r.cur.Download(); err != nil {
		return nil, err
	}
	if drec != nil {
		if err := drec.finish(rec, ran); err != nil {
			return nil, fmt.Errorf("rules: --record: %w", err)
		}
	} else if hostRec != nil && ran < o.Steps {
		observeAll(hostRec, ran+1, st, layout, dev, true) // every state at its fixed point
	}
	res.Records = rec.result()
	fromLayout(st, layout, dev)
	if err := r.firedResult(res, o); err != nil {
		return nil, err
	}
	res.StableAt = stable
	sortTrace(res.Trace)
	finish(res, o)
	return res, nil
}

// firedResult downloads the firings of every step and rule into res.
func (r *cudaRun) firedResult(res *Result, o Options) error {
	nr := len(r.p.Rules)
	fired, err := r.fired.Download()
	if err != nil {
		return err
	}
	res.Fired = make([][]int64, o.Steps)
	res.FiredTotal = make([]int64, nr)
	for t := range res.Fired {
		res.Fired[t] = make([]int64, nr)
		for k := range res.Fired[t] {
			res.Fired[t][k] = int64(fired[t*nr+k])
			res.FiredTotal[k] += res.Fired[t][k]
		}
	}
	if o.NoFiredPerStep {
		res.Fired = nil
	}
	return nil
}

func traceWords(st *States, l Layout, dev []uint32, s int) []uint32 {
	wp := ptx.PadWords(st.Words)
	out := make([]uint32, st.Words)
	for w := range out {
		out[w] = dev[layoutIndex(l, s, w, st.N, wp)]
	}
	return out
}

// faults turns the states' fault records into the error both backends
// report, if any state failed.
func (r *cudaRun) faults(failed []int32) error {
	any := false
	for _, f := range failed {
		any = any || f != 0
	}
	if !any {
		return nil
	}
	keys, err := r.errKey.Download()
	if err != nil {
		return err
	}
	ats := keys // narrow: unused
	if r.wide {
		if ats, err = r.errPC.Download(); err != nil {
			return err
		}
	}
	rules, err := r.errRule.Download()
	if err != nil {
		return err
	}
	errs := make([]stateError, len(failed))
	for s, t := range failed {
		if t == 0 {
			continue
		}
		rule := int(rules[s])
		if rule < 0 || rule >= len(r.p.Rules) {
			return fmt.Errorf("rules: the GPU reports a fault of rule %d", rule)
		}
		rel, f, err := decodeFault(r.wide, keys[s], ats[s])
		if err != nil {
			return err
		}
		errs[s] = stateError{ok: true, step: int(t), rule: rule, index: rel + r.p.Rules[rule].Lo, f: f}
	}
	return firstError(r.p, errs)
}
