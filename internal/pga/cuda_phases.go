//go:build cuda

package pga

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// Phases run one after another, each as its own device evaluation: shapes
// whose successor rule belongs to a later phase wait in a buffer, colliders
// and snap planes are gathered, and before the next phase the host sorts
// them by lot and uploads them for queries and snapping (context.go's
// lotContext, for every lot at once).

// errCtxOverflow: a phase wrote more colliders, planes or waiting shapes
// than their buffers hold; they grow and the phase runs again.
var errCtxOverflow = errors.New("pga: cuda: context buffers overflowed")

// phaseRange is where a phase's terminals lie in the device buffer.
type phaseRange struct {
	phase      int32
	start, end int
}

const (
	obbWords  = int(unsafe.Sizeof(gpuObb{}) / 4)
	snapWords = int(unsafe.Sizeof(gpuSnap{}) / 4)
)

// phaseCtx is what earlier phases left, on the host and on the device.
type phaseCtx struct {
	nlots, ngroups int
	colls          []gpuObb
	planes         map[[2]int32][]float64 // (lot, group*3 + world axis) -> sealed planes
	outCap         int
	// Ancestor records of bilateral queries: ancN written by finished
	// phases (they stay, shapes of later phases point at them), room for
	// ancCap.
	anc          *gpu.Buffer[uint32]
	ancN, ancCap int

	coll, collRng, snapRng, collOut, snapOut, pendOut *gpu.Buffer[uint32]
	snaps                                             *gpu.Buffer[float64]
	collArg, collRngArg, snapsArg, snapRngArg         gpu.Ptr
}

func (p *phaseCtx) free() error {
	var errs []error
	for _, b := range []*gpu.Buffer[uint32]{p.coll, p.collRng, p.snapRng, p.collOut, p.snapOut, p.pendOut, p.anc} {
		if b != nil {
			errs = append(errs, b.Free())
		}
	}
	if p.snaps != nil {
		errs = append(errs, p.snaps.Free())
	}
	return errors.Join(errs...)
}

// ctxArgs are the kernels' leading parameters: the program and
// PGA_CTX_PARAMS for phase ph.
func (c *CUDA) ctxArgs(ph int32) pgaCtx {
	p := &c.pc
	a := pgaCtx{words: c.words.Ptr(), lotAttrs: c.lotArg, coll: p.collArg, collRng: p.collRngArg, snaps: p.snapsArg,
		snapRng: p.snapRngArg, phase: ph}
	if c.prog.needCtx {
		a.collOut, a.snapOut, a.pendOut, a.outCap = p.collOut.Ptr(), p.snapOut.Ptr(), p.pendOut.Ptr(), uint32(p.outCap)
	}
	if len(c.g.Links) > 0 {
		a.anc, a.ancCap = p.anc.Ptr(), uint32(p.ancCap)
	}
	return a
}

// upload copies the colliders and planes gathered so far to the device,
// with per lot (and group, and axis) ranges into them.
func (c *CUDA) uploadCtx() error {
	p := &c.pc
	p.collArg, p.collRngArg, p.snapsArg, p.snapRngArg = gpu.Ptr{}, gpu.Ptr{}, gpu.Ptr{}, gpu.Ptr{}
	if p.ngroups == 0 {
		return nil
	}
	if len(p.colls) > 0 {
		slices.SortStableFunc(p.colls, func(a, b gpuObb) int { return cmp.Or(cmp.Compare(a.Lot, b.Lot), cmp.Compare(a.Group, b.Group)) })
		rng := make([]gpuRange, p.nlots*p.ngroups)
		for i, o := range p.colls {
			r := &rng[int(o.Lot)*p.ngroups+int(o.Group)]
			if r.N == 0 {
				r.Start = int32(i)
			}
			r.N++
		}
		if err := c.put(&p.coll, structWords(p.colls)); err != nil {
			return err
		}
		if err := c.put(&p.collRng, structWords(rng)); err != nil {
			return err
		}
		p.collArg, p.collRngArg = p.coll.Ptr(), p.collRng.Ptr()
	}
	if len(p.planes) > 0 {
		keys := make([][2]int32, 0, len(p.planes))
		for k := range p.planes {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b [2]int32) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
		rng := make([]gpuRange, p.nlots*p.ngroups*3)
		var flat []float64
		for _, k := range keys {
			rng[int(k[0])*p.ngroups*3+int(k[1])] = gpuRange{Start: int32(len(flat)), N: int32(len(p.planes[k]))}
			flat = append(flat, p.planes[k]...)
		}
		if err := grow(c.dev, &p.snaps, len(flat), 0); err != nil {
			return err
		}
		if err := p.snaps.Write(flat); err != nil {
			return err
		}
		if err := c.put(&p.snapRng, structWords(rng)); err != nil {
			return err
		}
		p.snapsArg, p.snapRngArg = p.snaps.Ptr(), p.snapRng.Ptr()
	}
	return nil
}

func (c *CUDA) put(b **gpu.Buffer[uint32], w []uint32) error {
	if err := grow(c.dev, b, len(w), 0); err != nil {
		return err
	}
	return (*b).Write(w)
}

// gather reads what a phase left for later ones: colliders, snap planes
// (sealed: sorted, those closer than snapEps merged) and waiting shapes.
func (c *CUDA) gather(st gpuStatus) ([]gpuItem, error) {
	p := &c.pc
	if st.NColl > 0 {
		o := make([]gpuObb, st.NColl)
		if err := gpu.ReadStructs(p.collOut, o); err != nil {
			return nil, err
		}
		p.colls = append(p.colls, o...)
	}
	if st.NSnap > 0 {
		sn := make([]gpuSnap, st.NSnap)
		if err := gpu.ReadStructs(p.snapOut, sn); err != nil {
			return nil, err
		}
		touched := map[[2]int32]bool{}
		for _, s := range sn {
			k := [2]int32{s.Lot, s.Key}
			p.planes[k] = append(p.planes[k], s.V)
			touched[k] = true
		}
		for k := range touched {
			p.planes[k] = sortPlanes(p.planes[k])
		}
	}
	var pend []gpuItem
	if st.NPend > 0 {
		pend = make([]gpuItem, st.NPend)
		if err := gpu.ReadStructs(p.pendOut, pend); err != nil {
			return nil, err
		}
	}
	return pend, nil
}

// phases runs every phase of the grammar over the axiom items; it returns
// the terminals written, the shapes made and each phase's terminals.
func (c *CUDA) phases(ctx context.Context, items []gpuItem, nlots int, opt *Options) (int, uint64, []phaseRange, error) {
	p := &c.pc
	p.nlots, p.ngroups = nlots, len(c.g.Groups)
	p.colls, p.planes = p.colls[:0], map[[2]int32][]float64{}
	p.ancN = 0
	// Every axiom starts with the same rule, so they wait for one phase
	// (no copy: a city's axioms are megabytes).
	pending := map[int32][]gpuItem{}
	if len(items) > 0 {
		pending[c.prog.rulePhase[items[0].Rule]] = items
	}
	phases := c.g.Phases
	if len(phases) == 0 {
		phases = []int{int(c.prog.phase)}
	}
	nterm := 0
	var ticks uint64
	var bounds []phaseRange
	for _, phase := range phases {
		ph := int32(phase)
		its := pending[ph]
		delete(pending, ph)
		if len(its) == 0 {
			bounds = append(bounds, phaseRange{ph, nterm, nterm})
			continue
		}
		ticks += uint64(len(its)) // each applies its rule
		if err := c.uploadCtx(); err != nil {
			return 0, 0, nil, err
		}
		var n int
		var st gpuStatus
		for {
			if len(c.g.Links) > 0 {
				p.ancCap = max(p.ancCap, p.ancN+4*len(its), 1024)
				if err := grow(c.dev, &p.anc, p.ancCap*itemWords, p.ancN*itemWords); err != nil {
					return 0, 0, nil, err
				}
			}
			if c.prog.needCtx {
				p.outCap = max(p.outCap, 4*len(its), 1024)
				for _, b := range []struct {
					buf   **gpu.Buffer[uint32]
					words int
				}{{&p.collOut, obbWords}, {&p.snapOut, snapWords}, {&p.pendOut, itemWords}} {
					if err := grow(c.dev, b.buf, p.outCap*b.words, 0); err != nil {
						return 0, 0, nil, err
					}
				}
			}
			var err error
			if opt.Scheduler == Levels {
				n, st, err = c.levels(ctx, its, opt, ph, nterm, ticks)
			} else {
				n, st, err = c.persistent(ctx, its, opt, ph, nterm, ticks)
			}
			if errors.Is(err, errCtxOverflow) {
				p.outCap *= 4
				if int(st.NAnc) > p.ancCap {
					p.ancCap = max(4*(p.ancCap-p.ancN), int(st.NAnc)-p.ancN) + p.ancN
				}
				continue
			}
			if err != nil {
				return 0, 0, nil, err
			}
			break
		}
		ticks = st.Ticks
		p.ancN = int(st.NAnc)
		bounds = append(bounds, phaseRange{ph, nterm, n})
		nterm = n
		if c.prog.needCtx {
			pend, err := c.gather(st)
			if err != nil {
				return 0, 0, nil, err
			}
			for _, it := range pend {
				q := c.prog.rulePhase[it.Rule]
				pending[q] = append(pending[q], it)
			}
		}
	}
	return nterm, ticks, bounds, nil
}
