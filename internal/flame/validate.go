package flame

import (
	"fmt"
	"math"
)

// GenomeError is an invalid flame: a bad attribute value or a genome that
// fails Validate. File and Line are set when it comes from Parse.
type GenomeError struct {
	File  string
	Line  int
	Flame string
	Msg   string
	// TooLarge marks a value over the top of its range (see ranges.go).
	TooLarge bool
}

func (e *GenomeError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("flame %q: %s", e.Flame, e.Msg)
	}
	return fmt.Sprintf("%s:%d: flame %q: %s", e.File, e.Line, e.Flame, e.Msg)
}

func (e *GenomeError) Unwrap() []error {
	if e.TooLarge {
		return []error{ErrInvalidGenome, ErrTooLarge}
	}
	return []error{ErrInvalidGenome}
}

// Limits Validate enforces on the image. MaxImageSide is exported because
// other genome formats (flame/cuburn's profiles) bound their sizes by it.
const (
	MaxImageSide   = 65536
	maxSupersample = 16
	maxGenomeCells = 1 << 31 // width·height·supersample², the histogram size
)

// Validate reports why g cannot be rendered as written: it must have a
// standard xform with positive weight, finite numbers everywhere, and an
// image size and quality a renderer can honour. The error is a
// *GenomeError wrapping ErrInvalidGenome.
func (g *Genome) Validate() error {
	if msg := g.problem(); msg != "" {
		return &GenomeError{Flame: g.Name, Msg: msg}
	}
	if msg, big := g.rangeProblem(); msg != "" {
		return &GenomeError{Flame: g.Name, Msg: msg, TooLarge: big}
	}
	return nil
}

func (g *Genome) problem() string {
	switch {
	case g.Width <= 0 || g.Height <= 0 || g.Width > MaxImageSide || g.Height > MaxImageSide:
		return fmt.Sprintf("size %dx%d out of range 1..%d", g.Width, g.Height, MaxImageSide)
	case g.Supersample < 1 || g.Supersample > maxSupersample:
		return fmt.Sprintf("supersample %d out of range 1..%d", g.Supersample, maxSupersample)
	case int64(g.Width)*int64(g.Height)*int64(g.Supersample*g.Supersample) > maxGenomeCells:
		return fmt.Sprintf("size %dx%d at supersample %d needs more than 2^31 buckets", g.Width, g.Height, g.Supersample)
	case !(g.Quality > 0) || math.IsInf(g.Quality, 0):
		return fmt.Sprintf("quality %g must be positive and finite", g.Quality)
	case g.Passes < 1:
		return fmt.Sprintf("passes %d must be at least 1", g.Passes)
	case g.TemporalSamples < 1:
		return fmt.Sprintf("temporal_samples %d must be at least 1", g.TemporalSamples)
	case g.Fuse < 0:
		return fmt.Sprintf("fuse %d must not be negative", g.Fuse)
	case g.FilterShape < FilterGaussian || g.FilterShape > FilterQuadratic:
		return fmt.Sprintf("unknown filter shape %d", g.FilterShape)
	case g.SpatialFilterKernel < KernelNone || g.SpatialFilterKernel >= numKernels:
		return fmt.Sprintf("unknown filter kernel %d", g.SpatialFilterKernel)
	case g.PaletteMode != PaletteStep && g.PaletteMode != PaletteLinear:
		return fmt.Sprintf("unknown palette mode %d", g.PaletteMode)
	case len(g.Xforms) == 0:
		return "no xforms"
	}
	for _, f := range [...]struct {
		name string
		v    float64
	}{
		{"center x", g.Center[0]}, {"center y", g.Center[1]}, {"scale", g.Scale}, {"zoom", g.Zoom},
		{"rotate", g.Rotate}, {"brightness", g.Brightness}, {"contrast", g.Contrast}, {"gamma", g.Gamma},
		{"gamma_threshold", g.GammaThreshold}, {"vibrancy", g.Vibrancy}, {"highlight_power", g.HighlightPower},
		{"background red", g.Background[0]}, {"background green", g.Background[1]},
		{"background blue", g.Background[2]}, {"filter", g.FilterRadius},
		{"estimator_radius", g.EstimatorRadius}, {"estimator_minimum", g.EstimatorMinimum},
		{"estimator_curve", g.EstimatorCurve}, {"hue", g.HueRotation},
	} {
		if !finite(f.v) {
			return fmt.Sprintf("%s is %g", f.name, f.v)
		}
	}
	for i, c := range g.Palette {
		for _, v := range c {
			if !finite(v) {
				return fmt.Sprintf("palette entry %d is not finite", i)
			}
		}
	}
	sum := 0.0
	for i := range g.Xforms {
		x := &g.Xforms[i]
		if msg := x.problem(len(g.Xforms)); msg != "" {
			return fmt.Sprintf("xform %d: %s", i, msg)
		}
		if x.Weight < 0 {
			return fmt.Sprintf("xform %d: weight %g is negative", i, x.Weight)
		}
		sum += x.Weight
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return "the xform weights do not sum to a positive number"
	}
	if g.Final != nil {
		if msg := g.Final.problem(-1); msg != "" {
			return "finalxform: " + msg
		}
	}
	return ""
}

// problem checks one xform; nStd is the number of standard xforms its
// chaos row must cover (-1 for the final xform, which has none).
func (x *Xform) problem(nStd int) string {
	for _, v := range [...]float64{x.Weight, x.Color, x.ColorSpeed, x.Opacity, x.Animate} {
		if !finite(v) {
			return "weight, color, color_speed, opacity or animate is not finite"
		}
	}
	for i := range 6 {
		if !finite(x.Coefs[i]) || !finite(x.Post[i]) {
			return "coefs or post not finite"
		}
	}
	for _, t := range x.Vars {
		if t.ID >= NumVars {
			return fmt.Sprintf("unknown variation id %d", t.ID)
		}
		if !finite(t.Weight) {
			return fmt.Sprintf("%s weight is %g", VarNames[t.ID], t.Weight)
		}
	}
	if msg := x.paramsProblem(); msg != "" {
		return msg
	}
	if x.Chaos != nil {
		if len(x.Chaos) != nStd {
			return fmt.Sprintf("chaos row has %d entries for %d xforms", len(x.Chaos), nStd)
		}
		for j, v := range x.Chaos {
			if !finite(v) || v < 0 {
				return fmt.Sprintf("chaos entry %d is %g", j, v)
			}
		}
	}
	return ""
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
