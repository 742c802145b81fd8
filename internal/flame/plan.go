package flame

import (
	"errors"
	"fmt"
	"math"
)

// Options are what a caller may change about a genome's own render settings.
type Options struct {
	// Width and Height override the genome's size; the scale follows so the
	// framing stays (with one of them zero, the other keeps the aspect).
	Width, Height int
	// Quality overrides samples per output pixel; Supersample the genome's
	// spatial supersampling.
	Quality     float64
	Supersample int
	Seed        uint64
	// EarlyClip tone-maps each bucket before the spatial filter (flam3's
	// earlyclip), which keeps filtered highlights from ringing.
	EarlyClip bool
	// Transparent makes the background transparent instead of painting it.
	Transparent bool
	// Linear finishes to linear light instead of flam3's tone curve (see
	// toneParams.linear), for OpenEXR. The CPU honours it; a CUDA render
	// refuses it, and a still's linear image comes from Accum.FinishLinear.
	Linear bool
	// Progress, if set, is called with samples done and the total.
	Progress func(done, total int64)
}

// Stats describe a finished render.
type Stats struct {
	Samples   int64 `json:"samples"`
	BadValues int64 `json:"bad_values"`
	Buckets   int64 `json:"buckets"`
	// DeviceBytes is the device memory a GPU render used (0 on the CPU).
	DeviceBytes int64 `json:"device_bytes,omitempty"`
	// IterateSeconds is the time of the chaos game and accumulation alone
	// (device-event timing on the GPU, wall time on the CPU).
	IterateSeconds float64 `json:"iterate_seconds"`
	// Kernel says which iterate kernel a GPU render ran: the built-in one,
	// or one compiled for the genome's xforms (cuda_special.go); "" on the CPU.
	Kernel string `json:"kernel,omitempty"`
	// On several GPUs (MultiCUDA): the wall time of the devices' parallel
	// iteration, and of summing their histograms into the first device's.
	PartsWallSeconds float64 `json:"parts_wall_seconds,omitempty"`
	MergeSeconds     float64 `json:"merge_seconds,omitempty"`
}

// ErrTooLarge is wrapped when a render would need absurd amounts of memory.
var ErrTooLarge = errors.New("render too large")

// maxBuckets bounds the histogram so a typo in a size fails before
// allocating: 2^31 buckets is 7680x4320 at supersample 7.
const maxBuckets = 1 << 31

// plan is everything derived from a genome and options before rendering,
// shared by both backends so they render the same image.
type plan struct {
	g             *Genome
	width, height int
	ss            int
	filter        []float64
	filterWidth   int
	deOffset      int
	bw, bh        int // histogram size in buckets, gutters included
	cam           camera
	de            *deFilters
	deSize        deSize // of de, known before it is built
	k1, k2        float64
	samples       int64
	tone          toneParams
	earlyClip     bool
	linear        bool // finish to linear light: Options.Linear
}

// planSizes is everything derived from g and o but the filter kernels,
// which it only sizes: Estimate's plan, which allocates nothing large.
func planSizes(g *Genome, o Options) (*plan, error) {
	p := &plan{g: g, width: g.Width, height: g.Height, ss: g.Supersample, earlyClip: o.EarlyClip,
		linear: o.Linear}
	scale := g.Scale
	switch {
	case o.Width > 0 && o.Height > 0:
		scale *= float64(o.Width) / float64(g.Width)
		p.width, p.height = o.Width, o.Height
	case o.Width > 0:
		scale *= float64(o.Width) / float64(g.Width)
		p.width, p.height = o.Width, max(1, int(math.Round(float64(g.Height)*float64(o.Width)/float64(g.Width))))
	case o.Height > 0:
		scale *= float64(o.Height) / float64(g.Height)
		p.width, p.height = max(1, int(math.Round(float64(g.Width)*float64(o.Height)/float64(g.Height)))), o.Height
	}
	quality := g.Quality
	if o.Quality > 0 {
		quality = o.Quality
	}
	if o.Supersample > 0 {
		p.ss = o.Supersample
	}
	if p.width <= 0 || p.height <= 0 || p.width > 1<<16 || p.height > 1<<16 {
		return nil, fmt.Errorf("flame %q: size %dx%d: %w", g.Name, p.width, p.height, ErrTooLarge)
	}
	if p.ss < 1 || p.ss > 16 {
		return nil, fmt.Errorf("flame %q: supersample %d outside 1..16", g.Name, p.ss)
	}
	if !(quality > 0) || math.IsInf(quality, 0) {
		return nil, fmt.Errorf("flame %q: quality %g must be positive", g.Name, quality)
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("flame %q: scale %g must be positive", g.Name, scale)
	}
	var err error
	if p.filterWidth, err = spatialFilterWidth(g.FilterShape, g.SpatialFilterKernel, g.FilterRadius, p.ss); err != nil {
		return nil, fmt.Errorf("flame %q: %w", g.Name, err)
	}
	gutter := (p.filterWidth - p.ss) / 2
	deWidth := int(math.Ceil(g.EstimatorRadius)) * p.ss
	if deWidth > 0 {
		deWidth += p.ss - 1
	}
	if deWidth > gutter {
		p.deOffset = deWidth - gutter
		gutter = deWidth
	}
	p.bw = p.ss*p.width + 2*gutter
	p.bh = p.ss*p.height + 2*gutter
	if int64(p.bw)*int64(p.bh) > maxBuckets {
		if int64(p.ss*p.width)*int64(p.ss*p.height) <= maxBuckets { // the gutter tips it over
			return nil, fmt.Errorf("flame %q: %w", g.Name, &KernelError{Hint: "lower the genome's filter or estimator_radius", Msg: fmt.Sprintf(
				"a gutter of %d buckets (filter %g, estimator_radius %g) makes %dx%d buckets, over 2^31",
				gutter, g.FilterRadius, g.EstimatorRadius, p.bw, p.bh)})
		}
		return nil, fmt.Errorf("flame %q: %dx%d buckets: %w", g.Name, p.bw, p.bh, ErrTooLarge)
	}
	if taps := float64(p.width) * float64(p.height) * float64(p.filterWidth) * float64(p.filterWidth); taps > maxFilterTaps {
		return nil, fmt.Errorf("flame %q: %w", g.Name, &KernelError{Hint: "lower the genome's filter (or --supersample, --width/--height)",
			Msg: fmt.Sprintf("filter %g at supersample %d is %.3g filter taps at %dx%d, over %.3g",
				g.FilterRadius, p.ss, taps, p.width, p.height, float64(maxFilterTaps))})
	}
	if g.EstimatorRadius > 0 {
		if p.deSize, err = deKernels(g.EstimatorRadius, g.EstimatorMinimum, g.EstimatorCurve, p.ss); err != nil {
			return nil, fmt.Errorf("flame %q: %w", g.Name, err)
		}
	}

	zoom := math.Pow(2, g.Zoom)
	density := quality * zoom * zoom
	ppu := scale * zoom
	w, h := float64(p.width), float64(p.height)
	t0 := float64(gutter) / (float64(p.ss) * ppu)
	corner0 := g.Center[0] - w/ppu/2
	corner1 := g.Center[1] - h/ppu/2
	p.cam = camera{
		cx: g.Center[0], cy: g.Center[1],
		x0: corner0 - t0, y0: corner1 - t0,
		x1: corner0 + w/ppu + t0, y1: corner1 + h/ppu + t0,
		width: p.bw, height: p.bh,
	}
	p.cam.sx = float64(p.bw) / (p.cam.x1 - p.cam.x0)
	p.cam.sy = float64(p.bh) / (p.cam.y1 - p.cam.y0)
	if g.Rotate != 0 {
		p.cam.rotate = true
		a := g.Rotate * math.Pi / 180
		p.cam.cos, p.cam.sin = math.Cos(a), math.Sin(a)
	}
	if n := math.Ceil(density * w * h); !(n <= MaxSamples) {
		return nil, fmt.Errorf("flame %q: quality %g at %dx%d is %.3g samples, over the limit of %.3g: %w",
			g.Name, quality, p.width, p.height, n, float64(MaxSamples), ErrTooLarge)
	}
	p.samples = int64(math.Ceil(density * w * h))

	contrast := g.Contrast
	if contrast == 0 {
		contrast = 1
	}
	area := w * h / (ppu * ppu)
	p.k1 = contrast * g.Brightness * prefilterWhite * 268 / 256
	p.k2 = float64(p.ss*p.ss) / (contrast * area * 255 * density)
	p.tone = toneParams{
		gamma: 1 / g.Gamma, linrange: g.GammaThreshold, vibrancy: g.Vibrancy, highpow: g.HighlightPower,
		transp: o.Transparent || g.Transparent,
	}
	for i := range p.tone.background {
		p.tone.background[i] = g.Background[i] * 256
	}
	return p, nil
}

// maxFilterTaps bounds the spatial filter's work, output pixels × kernel
// buckets: 2^40 multiply-adds are about an hour of one core, past
// anything a real genome asks (filter 1 at supersample 4 is about 100 a
// pixel, 2^28 at 1920x1080).
const maxFilterTaps = 1 << 40

// newPlan is planSizes and the kernels it sized.
func newPlan(g *Genome, o Options) (*plan, error) {
	p, err := planSizes(g, o)
	if err != nil {
		return nil, err
	}
	if p.filter, p.filterWidth, err = buildSpatialFilter(g.FilterShape, g.SpatialFilterKernel, g.FilterRadius, p.ss); err != nil {
		return nil, fmt.Errorf("flame %q: %w", g.Name, err)
	}
	if g.EstimatorRadius > 0 {
		if p.de, err = newDEFilters(g.EstimatorRadius, g.EstimatorMinimum, g.EstimatorCurve, p.ss); err != nil {
			return nil, fmt.Errorf("flame %q: %w", g.Name, err)
		}
	}
	return p, nil
}

// chaosGame builds the read-only state of the sample loop.
func (p *plan) chaosGame(seed uint64) *chaosGame {
	g := p.g
	cg := &chaosGame{
		table: xformTable{xaos: usesXaos(g.Xforms)}, genome: g, cam: p.cam, fuse: g.Fuse, seed: seed,
		linear: g.PaletteMode == PaletteLinear, proj: newProjector(&g.Camera),
	}
	cg.z3 = cg.proj != nil
	for i := range g.Palette {
		for ch := 0; ch < 4; ch++ {
			cg.palette[i][ch] = g.Palette[i][ch] * 255
		}
		if nearOne(g.Palette[i][3]) { // interpolation's round-off (see nearOne)
			cg.palette[i][3] = 255
		}
	}
	prep := func(x *Xform) preparedXform {
		c := *x // Precalc writes into Params: work on a copy
		Precalc(&c)
		px := preparedXform{x: &c, cx: compileXform(&c), color: x.Color, colorSpeed: x.ColorSpeed, vis: visAdjusted(x.Opacity)}
		cg.z3 = cg.z3 || xformUses3D(x)
		return px
	}
	for i := range g.Xforms {
		cg.xforms = append(cg.xforms, prep(&g.Xforms[i]))
	}
	if g.Final != nil {
		f := prep(g.Final)
		cg.final = &f
	}
	return cg
}
