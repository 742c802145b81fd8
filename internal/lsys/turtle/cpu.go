package turtle

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// CPU interprets on all cores, after Lipp, Wonka and Wimmer's parallel
// interpretation (section 5), adapted to strings that branch and to the
// commands that are not linear:
//
//  1. Survey (parallel, per fixed-size chunk): count segments, polygon events
//     and parameters, and find the chunk's bracket structure: how many ']'
//     close a '[' from before the chunk, and its maximal balanced groups
//     "[...]". A balanced group leaves the turtle as it found it, so only
//     the chunk's spine, the modules outside them, matters to what follows.
//     For a plant that is a path from the chunk's start to its end through
//     the branch tree, a small part of the chunk.
//  2. Scan (sequential over chunks): offsets of each chunk's segments,
//     events and parameters; bracket depths, which also finds a ']' that
//     closes nothing.
//  3. Start states. When every command is a fixed transform of the frame
//     (no tropism, no $), each chunk walks its spine from the identity in
//     parallel, giving one transform to its end and one to each of its
//     unmatched '[' (the paper's matrix scan, with the push/pop structure),
//     and a sequential pass composes them with a real stack. Otherwise the
//     real turtle walks all spines in order; balanced groups are skipped
//     whole, so only strings with little branching make this walk long.
//  4. Emit (parallel): each chunk re-walks its modules from its exact start
//     state, popping into the saved states for its unmatched ']', and
//     writes its segments and polygon events at the scanned offsets.
//
// Chunks have a fixed size, so the result is the same bit for bit for any
// number of workers; it differs from a purely sequential walk by rounding
// only, in the composed start states.
type CPU struct{}

// Interpret interprets s with the turtle of package turtle.
func (CPU) Interpret(ctx context.Context, sys *lsys.System, s *lsys.String, o Options) (*Geometry, error) {
	if sys == nil || s == nil {
		return nil, fmt.Errorf("turtle: nil system or string")
	}
	p := newProgram(sys, o)
	p.moveVertices = bytes.IndexByte(s.Syms, '{') >= 0
	return p.interpret(ctx, s.Syms, s.Params, o)
}

func (p *program) interpret(ctx context.Context, syms []byte, params []float64, o Options) (*Geometry, error) {
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := len(syms)
	chunks := make([]chunk, max((n+chunkSize-1)/chunkSize, 1))
	for i := range chunks {
		chunks[i].lo, chunks[i].hi = i*chunkSize, min((i+1)*chunkSize, n)
	}
	if err := forEach(ctx, workers, len(chunks), func(i int) { p.survey(syms, &chunks[i]) }); err != nil {
		return nil, err
	}
	tot, err := scan(syms, chunks)
	if err != nil {
		return nil, err
	}
	if tot.params != len(params) {
		return nil, fmt.Errorf("turtle: %w: the string has %d parameters, its symbols' arities need %d",
			ErrParams, len(params), tot.params)
	}

	last := len(chunks) - 1
	if p.linear(tot.level) {
		err := forEach(ctx, workers, last, func(i int) { p.summarize(syms, params, &chunks[i]) })
		if err != nil {
			return nil, err
		}
		p.combine(chunks)
	} else {
		p.walkSpines(syms, params, chunks)
	}

	g := &Geometry{Segments: make([]Segment, tot.segs), Surfaces: make([]SurfaceUse, tot.surfs)}
	evs := make([]event, tot.events)
	var mu sync.Mutex
	var done int64
	err = forEach(ctx, workers, len(chunks), func(i int) {
		c := &chunks[i]
		p.emit(syms, params, c, g, evs)
		if o.Progress != nil {
			mu.Lock()
			done += int64(c.hi - c.lo)
			o.Progress(done, int64(n))
			mu.Unlock()
		}
	})
	if err != nil {
		return nil, err
	}
	if err := g.finish(chunks, evs); err != nil {
		return nil, err
	}
	g.Stats.Modules = n
	g.Stats.MaxDepth = tot.depth
	return g, nil
}

type totals struct {
	segs, events, params, depth, surfs int
	level                              bool
}

// scan assigns each chunk its offsets and start depth, and checks that no
// ']' closes nothing.
func scan(syms []byte, chunks []chunk) (totals, error) {
	var t totals
	depth := 0
	for ci := range chunks {
		c := &chunks[ci]
		c.segOff, c.evOff, c.paramOff, c.depth, c.surfOff = t.segs, t.events, t.params, depth, t.surfs
		t.segs += c.segs
		t.surfs += c.surfs
		t.events += c.events
		t.params += c.params
		t.level = t.level || c.level
		t.depth = max(t.depth, depth+c.maxRel)
		if c.pops > depth {
			return t, fmt.Errorf("turtle: %w: ']' at module %d closes no '['", ErrUnbalanced, firstUnderflow(syms, c))
		}
		depth += c.pushes - c.pops
	}
	return t, nil
}

func firstUnderflow(syms []byte, c *chunk) int {
	d := c.depth
	for i := c.lo; i < c.hi; i++ {
		switch syms[i] {
		case '[':
			d++
		case ']':
			if d--; d < 0 {
				return i
			}
		}
	}
	return c.hi
}

// finish assembles the polygons, merges the bounds and checks them.
func (g *Geometry) finish(chunks []chunk, evs []event) error {
	inf := float32(math.Inf(1))
	lo, hi := [3]float32{inf, inf, inf}, [3]float32{-inf, -inf, -inf}
	var wmax float32
	for i := range chunks {
		c := &chunks[i]
		if c.segs == 0 {
			continue
		}
		lo, hi = grow(lo, hi, c.box.Min)
		lo, hi = grow(lo, hi, c.box.Max)
		wmax = max(wmax, c.wmax)
	}
	if err := g.assemble(evs); err != nil {
		return err
	}
	for _, v := range g.PolyVerts {
		lo, hi = grow(lo, hi, v)
	}
	for i := range g.Surfaces {
		u := &g.Surfaces[i]
		lo, hi = grow(lo, hi, u.P)
		if !finite(u.Scale) {
			return fmt.Errorf("turtle: %w: surface scale %v", ErrNonFinite, u.Scale)
		}
	}
	if len(g.Segments) == 0 && len(g.PolyVerts) == 0 && len(g.Surfaces) == 0 {
		lo, hi = [3]float32{}, [3]float32{}
	}
	for k := range 3 {
		if !finite(lo[k]) || !finite(hi[k]) {
			return fmt.Errorf("turtle: %w: coordinates reach %v..%v", ErrNonFinite, lo, hi)
		}
	}
	if !finite(wmax) {
		return fmt.Errorf("turtle: %w: line width %v", ErrNonFinite, wmax)
	}
	g.Stats.Segments = len(g.Segments)
	g.Stats.Polygons = len(g.Polygons)
	g.Stats.Surfaces = len(g.Surfaces)
	g.Stats.Bounds = Box{Min: lo, Max: hi}
	return nil
}

func finite(v float32) bool { return v-v == 0 }

// forEach runs fn(0..n-1) on up to workers goroutines, handing out indices
// in order, and stops handing them out when ctx is done.
func forEach(ctx context.Context, workers, n int, fn func(i int)) error {
	workers = min(workers, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			fn(i)
		}
		return ctx.Err()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
