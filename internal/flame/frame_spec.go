package flame

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// MaxTemporalSamples bounds the genomes interpolated for one frame; the
// animation formats outside this package (flame/cuburn) check against it too.
const MaxTemporalSamples = 1 << 16

// TemporalSample is one genome of a motion-blurred frame.
type TemporalSample struct {
	Genome *Genome
	Time   float64
	// Weight is flam3's colour scalar: the sample's palette is multiplied
	// by it. The largest weight of a frame is 1.
	Weight float64
}

// FrameSpec is one frame as flam3 renders it (rect.c): the genome at the
// frame's time decides the size, supersampling, highlight power and the
// motion blur; each temporal sample plots its own interpolated genome with
// its share of the samples into one histogram; the spatial filter comes
// from the first keyframe, the density-estimation kernel from the first
// temporal sample, brightness and the log-density scale from the last, and
// gamma, vibrancy and background are averaged over the samples.
type FrameSpec struct {
	Time    float64
	Center  *AnimGenome
	Samples []TemporalSample
	// MeanWeight is the mean of the weights (flam3's sumfilt), by which the
	// density scale is divided.
	MeanWeight float64
	// FilterShape, FilterKernel and FilterRadius are the spatial filter's
	// (first keyframe).
	FilterShape  FilterShape
	FilterKernel FilterKernelType
	FilterRadius float64
	// MaxEstimator is the largest estimator radius of any keyframe, which
	// sizes the gutter.
	MaxEstimator float64
	// prep is the plan Prepare built ahead of rendering, if any.
	prep *prepared
}

// Still is the frame of a single genome without motion blur: rendering it
// gives exactly the image CPU.Render gives.
func Still(g *Genome) *FrameSpec {
	k := &AnimGenome{Genome: *g, TemporalFilterWidth: 1}
	return &FrameSpec{Center: k, Samples: []TemporalSample{{Genome: g, Weight: 1}}, MeanWeight: 1,
		FilterShape: g.FilterShape, FilterKernel: g.SpatialFilterKernel, FilterRadius: g.FilterRadius, MaxEstimator: g.EstimatorRadius}
}

// TemporalWeights is flam3_create_temporal_filter: for n samples, the time
// offsets spread over width and the weights of filter f (exp uses e),
// scaled so the largest is 1, and their mean.
func TemporalWeights(n int, f TemporalFilter, e, width float64) (deltas, weights []float64, mean float64) {
	deltas, weights = make([]float64, n), make([]float64, n)
	if n == 1 {
		weights[0] = 1
		return deltas, weights, 1
	}
	for i := range deltas {
		deltas[i] = (float64(i)/float64(n-1) - 0.5) * width
	}
	maxw := 0.0
	switch f {
	case TemporalExp:
		for i := range weights {
			x := float64(i+1) / float64(n)
			if e < 0 {
				x = float64(n-i) / float64(n)
			}
			weights[i] = math.Pow(x, math.Abs(e))
			maxw = max(maxw, weights[i])
		}
	case TemporalGaussian:
		half := float64(n) / 2
		for i := range weights {
			weights[i] = filterValue(FilterGaussian, filterSupport[FilterGaussian]*math.Abs(float64(i)-half)/half)
			maxw = max(maxw, weights[i])
		}
	default:
		for i := range weights {
			weights[i] = 1
		}
		maxw = 1
	}
	for i := range weights {
		weights[i] /= maxw
		mean += weights[i]
	}
	return deltas, weights, mean / float64(n)
}

// Frame prepares the frame at time t: the genome there, and one
// interpolated genome per temporal sample (temporal_samples × passes of
// them, flam3's batches folded into one).
func (a *Animation) Frame(t float64) (*FrameSpec, error) {
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return nil, fmt.Errorf("flame: frame time %g: %w", t, ErrAnimation)
	}
	c := a.At(t)
	n := c.TemporalSamples * max(c.Passes, 1)
	if n < 1 || n > MaxTemporalSamples {
		return nil, fmt.Errorf("flame: time %g: %d temporal samples, want 1..%d: %w", t, n, MaxTemporalSamples, ErrTooLarge)
	}
	deltas, weights, mean := TemporalWeights(n, c.TemporalFilter, c.TemporalFilterExp, c.TemporalFilterWidth)
	fs := &FrameSpec{Time: t, Center: c, MeanWeight: mean,
		FilterShape: a.Keys[0].FilterShape, FilterKernel: a.Keys[0].SpatialFilterKernel, FilterRadius: a.Keys[0].FilterRadius}
	for _, k := range a.Keys {
		fs.MaxEstimator = max(fs.MaxEstimator, k.EstimatorRadius)
	}
	// The temporal samples are interpolated on all cores: a frame of 1000
	// of them is ~0.1 s of one core's work.
	fs.Samples = make([]TemporalSample, n)
	errs := make([]error, n)
	parallel.For(n, 8, func(_, lo, hi int) {
		var m alignMemo
		for i := lo; i < hi; i++ {
			ti := t + deltas[i]
			g := &c.Genome
			if deltas[i] != 0 {
				g = &a.at(ti, &m).Genome
			}
			if err := g.Validate(); err != nil {
				errs[i] = fmt.Errorf("flame: genome at time %g: %w", ti, err)
			}
			fs.Samples[i] = TemporalSample{Genome: g, Time: ti, Weight: weights[i]}
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// framePlan is a plan for the whole frame (image, gutter, filters, density
// and tone constants) and one chaos game per temporal sample.
type framePlan struct {
	*plan
	plans   []*plan // per temporal sample: its genome and camera on the frame's grid
	games   []*chaosGame
	samples []int64
	total   int64
}

func newFramePlan(fs *FrameSpec, o Options) (*framePlan, error) {
	if len(fs.Samples) == 0 {
		return nil, fmt.Errorf("flame: a frame without temporal samples")
	}
	// Sizes are the animation's (Animation.Override changes them).
	o.Width, o.Height, o.Quality, o.Supersample = 0, 0, 0, 0
	first, last := fs.Samples[0].Genome, fs.Samples[len(fs.Samples)-1].Genome
	base := fs.Center.Genome
	base.FilterShape, base.SpatialFilterKernel, base.FilterRadius = fs.FilterShape, fs.FilterKernel, fs.FilterRadius
	// The gutter is sized for the widest estimator of any keyframe, the
	// kernels are the first temporal sample's: usually the same radius, so
	// newPlan's kernels serve (building them is tens of milliseconds).
	base.EstimatorRadius, base.EstimatorMinimum, base.EstimatorCurve = first.EstimatorRadius, first.EstimatorMinimum, first.EstimatorCurve
	wider := fs.MaxEstimator > first.EstimatorRadius
	if wider {
		base.EstimatorRadius = fs.MaxEstimator
	}
	p, err := newPlan(&base, o)
	if err != nil {
		return nil, err
	}
	if wider {
		p.de = nil
		if first.EstimatorRadius > 0 {
			if p.de, err = newDEFilters(first.EstimatorRadius, first.EstimatorMinimum, first.EstimatorCurve, p.ss); err != nil {
				return nil, fmt.Errorf("flame %q: %w", first.Name, err)
			}
		}
	}
	w, h := float64(p.width), float64(p.height)
	zoom := math.Pow(2, last.Zoom)
	ppu := last.Scale * zoom
	contrast := last.Contrast
	if contrast == 0 {
		contrast = 1
	}
	p.k1 = contrast * last.Brightness * prefilterWhite * 268 / 256
	density := last.Quality * zoom * zoom
	area := w * h / (ppu * ppu)
	p.k2 = float64(p.ss*p.ss) / (contrast * area * 255 * density * fs.MeanWeight)
	var gamma, vib float64
	var bg [3]float64
	for _, s := range fs.Samples {
		gamma += s.Genome.Gamma
		vib += s.Genome.Vibrancy
		for i := range bg {
			bg[i] += s.Genome.Background[i]
		}
	}
	n := float64(len(fs.Samples))
	p.tone.gamma = 1 / (gamma / n)
	p.tone.vibrancy = vib / n
	for i := range bg {
		p.tone.background[i] = bg[i] / n * 256
	}
	p.tone.linrange = last.GammaThreshold
	p.tone.highpow = fs.Center.HighlightPower

	fp := &framePlan{plan: p}
	gutter := (p.bw - p.ss*p.width) / 2
	for _, s := range fs.Samples {
		g := s.Genome
		if !(g.Scale > 0) || math.IsInf(g.Scale, 0) || !(g.Quality > 0) || math.IsInf(g.Quality, 0) {
			return nil, fmt.Errorf("flame: genome at time %g: scale %g and quality %g must be positive", s.Time, g.Scale, g.Quality)
		}
		z := math.Pow(2, g.Zoom)
		ns := math.Ceil(g.Quality * z * z * w * h / n)
		if !(ns <= MaxSamples) || float64(fp.total)+ns > MaxSamples {
			return nil, fmt.Errorf("flame: frame at time %g needs over %.3g samples: %w", fs.Time, float64(MaxSamples), ErrTooLarge)
		}
		fp.samples = append(fp.samples, int64(ns))
		fp.total += int64(ns)
	}
	fp.plans = make([]*plan, len(fs.Samples))
	fp.games = make([]*chaosGame, len(fs.Samples))
	parallel.For(len(fs.Samples), 4, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			fp.plans[i], fp.games[i] = samplePlan(p, fs.Samples[i], gutter, o.Seed)
		}
	})
	p.samples = fp.total
	return fp, nil
}

// samplePlan is temporal sample s on the frame plan p: its genome (palette
// scaled by its weight) and camera on the frame's bucket grid, and its
// chaos game.
func samplePlan(p *plan, s TemporalSample, gutter int, seed uint64) (*plan, *chaosGame) {
	g := s.Genome
	if s.Weight != 1 {
		c := *g
		for i := range c.Palette {
			for ch := 0; ch < 4; ch++ {
				c.Palette[i][ch] *= s.Weight
			}
		}
		g = &c
	}
	sp := new(plan)
	*sp = *p
	sp.g = g
	sp.cam = sampleCamera(g, p.width, p.height, p.ss, gutter, p.bw, p.bh)
	return sp, sp.chaosGame(seed)
}

// sampleCamera is newPlan's camera for genome g on a frame's bucket grid.
func sampleCamera(g *Genome, width, height, ss, gutter, bw, bh int) camera {
	zoom := math.Pow(2, g.Zoom)
	ppu := g.Scale * zoom
	w, h := float64(width), float64(height)
	t0 := float64(gutter) / (float64(ss) * ppu)
	corner0 := g.Center[0] - w/ppu/2
	corner1 := g.Center[1] - h/ppu/2
	c := camera{
		cx: g.Center[0], cy: g.Center[1],
		x0: corner0 - t0, y0: corner1 - t0,
		x1: corner0 + w/ppu + t0, y1: corner1 + h/ppu + t0,
		width: bw, height: bh,
	}
	c.sx = float64(bw) / (c.x1 - c.x0)
	c.sy = float64(bh) / (c.y1 - c.y0)
	if g.Rotate != 0 {
		c.rotate = true
		a := g.Rotate * math.Pi / 180
		c.cos, c.sin = math.Cos(a), math.Sin(a)
	}
	return c
}
