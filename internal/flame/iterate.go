package flame

import (
	"math"
	"sync"

	"github.com/procgen-dev/procgen/internal/rng"
)

const (
	// chooseGrain is flam3's CHOOSE_XFORM_GRAIN: xforms are picked from a
	// table of this many entries filled in proportion to their weights.
	chooseGrain = 16384
	// subBatch is how many samples one start point produces before the
	// chaos game restarts from a fresh random point (flam3's sub_batch_size).
	subBatch = 10000
	// maxConsecutiveBad: after this many bad points in a row, flam3 keeps
	// the random restart point instead of retrying.
	maxConsecutiveBad = 5
)

// preparedXform is an xform ready for the inner loop.
type preparedXform struct {
	x          *Xform
	cx         compiledXform
	color      float64
	colorSpeed float64
	vis        float64 // flam3's adjusted opacity
	// palette[i] is palette entry i × 255 × vis, fixed point, for step mode
	// (built by cpuTables).
	palette *[256][4]uint64
}

// visAdjusted is flam3's adjust_percentage: opacity mapped so that
// perceived brightness changes evenly.
func visAdjusted(opacity float64) float64 {
	switch {
	case opacity == 0:
		return 0
	case nearOne(opacity):
		return 1
	}
	return math.Pow(10, -math.Log(1/opacity)/math.Log(2))
}

// nearOne says whether v is 1 up to interpolation's round-off. Keyframes
// of opacity 1 (or palette alpha 1) interpolate to 1 - 2e-15 and the like
// (a Catmull-Rom spline's basis weights, flam3's c0*a + c1*b), and one such
// temporal sample made a whole frame count its hits apart from alpha
// (alphaHits): the GPU's frames ran at half speed for a third of an edge.
// No one writes an opacity within 1e-12 of 1 meaning anything but 1.
func nearOne(v float64) bool { return math.Abs(v-1) < 1e-12 }

// xformTable is the weighted choice of the next xform: row 0 for the first
// step, row i+1 after xform i (xaos), or a single row without xaos.
type xformTable struct {
	rows []uint16
	xaos bool
}

// choiceWeights returns the relative chance of each xform being chosen in
// row: its weight, times the previous xform's xaos entry for rows after the
// first (row i+1 follows xform i). Both backends build their tables from it.
func choiceWeights(xs []Xform, row int) (w []float64, total float64) {
	w = make([]float64, len(xs))
	for j := range xs {
		w[j] = xs[j].Weight
		if row > 0 && j < len(xs[row-1].Chaos) {
			w[j] *= xs[row-1].Chaos[j]
		}
		total += w[j]
	}
	return w, total
}

// usesXaos reports whether any xform's xaos row differs from all ones, so
// that the choice of the next xform depends on the last one.
func usesXaos(xs []Xform) bool {
	for i := range xs {
		for _, c := range xs[i].Chaos {
			if c != 1 {
				return true
			}
		}
	}
	return false
}

func newXformTable(xs []Xform) xformTable {
	xaos := usesXaos(xs)
	nrows := 1
	if xaos {
		nrows = len(xs) + 1
	}
	t := xformTable{rows: make([]uint16, nrows*chooseGrain), xaos: xaos}
	for row := 0; row < nrows; row++ {
		w, total := choiceWeights(xs, row)
		if total <= 0 { // xaos forbids every successor: fall back to plain weights
			copy(t.rows[row*chooseGrain:], t.rows[:chooseGrain])
			continue
		}
		dr := total / chooseGrain
		j, acc, r := 0, w[0], 0.0
		for i := 0; i < chooseGrain; i++ {
			for r >= acc && j < len(xs)-1 {
				j++
				acc += w[j]
			}
			t.rows[row*chooseGrain+i] = uint16(j)
			r += dr
		}
	}
	return t
}

// camera maps flame coordinates to buckets (flam3 render_rectangle).
type camera struct {
	rotate         bool
	cos, sin       float64
	cx, cy         float64
	x0, y0, x1, y1 float64 // bounds
	sx, sy         float64 // buckets per unit
	width, height  int
}

func (c *camera) bucket(x, y float64) (int, bool) {
	if c.rotate {
		dx, dy := x-c.cx, y-c.cy
		x = dx*c.cos - dy*c.sin + c.cx
		y = dx*c.sin + dy*c.cos + c.cy
	}
	if !(x >= c.x0 && y >= c.y0 && x < c.x1 && y < c.y1) {
		return 0, false
	}
	i := int((x - c.x0) * c.sx)
	j := int((y - c.y0) * c.sy)
	if i >= c.width || j >= c.height {
		return 0, false
	}
	return i + j*c.width, true
}

// chaosGame holds what every worker of one render shares, read-only.
type chaosGame struct {
	xforms []preparedXform
	final  *preparedXform
	// table is the xform choice; its rows, like the xforms' palettes, are
	// the CPU's alone and built by cpuTables when it first plays the game.
	table   xformTable
	tables  sync.Once
	genome  *Genome // the genome the game was planned from
	cam     camera
	fuse    int
	linear  bool            // palette mode linear
	palette [256][4]float64 // × 255
	seed    uint64
	z3      bool       // a 3D variation or the 3D camera is used: points carry z (runBatch3D)
	proj    *projector // the 3D camera; nil without one
}

// alphaHits reports whether every sample adds exactly 255 to alpha (all
// xforms fully visible, every palette entry opaque), so that a bucket's hit
// count is its alpha sum / 255 and need not be kept separately.
func (cg *chaosGame) alphaHits() bool {
	for i := range cg.xforms {
		if cg.xforms[i].vis != 1 {
			return false
		}
	}
	for i := range cg.palette {
		if cg.palette[i][3] != 255 {
			return false
		}
	}
	return true
}

// cpuTables builds what only the CPU's chaos game reads: the choice rows
// and each xform's step-mode palette. The GPU's inputs need neither, and an
// animation frame plans 1,024 games (their tables were most of the host's
// work for a frame on the GPU). Safe to call from several goroutines.
func (cg *chaosGame) cpuTables() {
	cg.tables.Do(func() {
		cg.table = newXformTable(cg.genome.Xforms)
		bump := func(px *preparedXform) {
			px.palette = new([256][4]uint64)
			for i := range cg.palette {
				for ch := 0; ch < 4; ch++ {
					px.palette[i][ch] = flam3Bump(cg.palette[i][ch] * px.vis)
				}
			}
		}
		for i := range cg.xforms {
			bump(&cg.xforms[i])
		}
		if cg.final != nil {
			bump(cg.final)
		}
	})
}

// runBatch plays sub-batch k (n samples after fuse) into h and returns the
// number of bad points. Its random stream depends only on the seed and k.
// Samples are deposited in groups of depositBatch (flam3 too accumulates a
// sub-batch's points after iterating them): the histogram is far larger
// than the caches, and a loop of independent adds keeps many of its cache
// misses in flight, where adds between dependent chaos-game steps wait for
// one miss at a time.
func (cg *chaosGame) runBatch(k int64, n int, h *histogram) (bad int64) {
	cg.cpuTables()
	if cg.z3 {
		return cg.runBatch3D(k, n, h)
	}
	s := rng.NewStream(rng.Key(cg.seed, uint64(k)))
	x, y := 2*s.Float64()-1, 2*s.Float64()-1
	c := s.Float64()
	vis := 1.0
	last := 0
	consec := 0
	var pend depositBuffer
	for i := -cg.fuse; i < n; i++ {
		r := int(s.Uint64() >> 50) // 14 bits: chooseGrain
		var fn int
		if cg.table.xaos {
			fn = int(cg.table.rows[last*chooseGrain+r])
		} else {
			fn = int(cg.table.rows[r])
		}
		xf := &cg.xforms[fn]
		nx, ny, ok := xf.cx.apply(x, y, &s)
		nc := c*(1-xf.colorSpeed) + xf.color*xf.colorSpeed
		if !ok {
			bad++
			consec++
			nx, ny = 2*s.Float64()-1, 2*s.Float64()-1
			if consec < maxConsecutiveBad {
				x, y, c = nx, ny, nc
				i--
				continue
			}
		}
		consec = 0
		last = fn + 1
		x, y, c, vis = nx, ny, nc, xf.vis
		if i < 0 || vis == 0 {
			continue
		}
		px, py, pc := x, y, c
		if f := cg.final; f != nil && (f.x.Opacity == 1 || s.Float64() < f.x.Opacity) {
			if px, py, ok = f.cx.apply(x, y, &s); !ok {
				bad++
				continue
			}
			pc = c*(1-f.colorSpeed) + f.color*f.colorSpeed
		}
		b, in := cg.cam.bucket(px, py)
		if !in {
			continue
		}
		d := &pend.d[pend.n]
		d.b = uint32(b)
		cg.sampleColor(pc, xf, &d.c)
		if pend.n++; pend.n == depositBatch {
			h.addAll(pend.d[:])
			pend.n = 0
		}
	}
	h.addAll(pend.d[:pend.n])
	return bad
}

// sampleColor looks up palette coordinate c as flam3 does and scales it by
// the xform's visibility, in fixed point.
func (cg *chaosGame) sampleColor(c float64, xf *preparedXform, out *[4]uint64) {
	f := c * 256
	i := int(f)
	if !cg.linear {
		i = min(max(i, 0), 255)
		*out = (*xf.palette)[i]
		return
	}
	var frac float64
	switch {
	case f < 0 || i < 0:
		i, frac = 0, 0
	case i >= 255:
		i, frac = 254, 1
	default:
		frac = f - float64(i)
	}
	for ch := 0; ch < 4; ch++ {
		out[ch] = flam3Bump((cg.palette[i][ch]*(1-frac) + cg.palette[i+1][ch]*frac) * xf.vis)
	}
}

// flam3Bump is what one sample of colour v (0..255 scale) adds to a bucket
// channel in flam3's default render (bits=33): its buckets are unsigned
// ints and `bucket += v` drops v's fraction, on every sample. Whole colours
// (a step palette, fully visible xforms, no motion blur) lose nothing; an
// interpolated (palette_mode linear), partly visible or temporally weighted
// colour loses half a unit a sample on average, which made frames with
// motion blur 0.3-1.2 % brighter than flam3's and linear palettes 0.4 %.
func flam3Bump(v float64) uint64 { return uint64(v) * fixedOne }
