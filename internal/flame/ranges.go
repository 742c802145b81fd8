package flame

import (
	"errors"
	"fmt"
	"math"
)

// The documented ranges of the genome attributes that size memory or work.
// Each is checked as the attribute is read, so a hostile or mistyped value
// (filter="1e6") is refused with its name and place before anything is
// allocated for it. The ranges are wide: real-world genomes (flam3's,
// Apophysis', Fractorium's, Electric Sheep's) use a fraction of each.
//
//	attribute                 range          what it sizes
//	size                      1..65536 each  the image and its histogram
//	supersample, oversample   1..16          the histogram (squared)
//	quality                   >0..1e12       samples per pixel
//	passes                    1..1024        temporal samples of a frame (× temporal_samples)
//	temporal_samples          1..65536       interpolated genomes of a frame
//	filter                    0..20          the spatial filter kernel (squared, × supersample²)
//	estimator_radius          0..40          the density-estimation kernels and the gutter
//	estimator_minimum         0..40          the narrowest density-estimation kernel
//	estimator_curve           0.01..100      the number of density-estimation kernels
//	temporal_filter_width     0..1000        the motion blur's window, in frames
//	xforms (with symmetry)    up to 2048     the xaos tables (xforms² entries)
//	chaos entries             up to 2048     one xform's xaos row
//
// A frame's temporal samples, passes × temporal_samples, are further
// bounded by 65536 where an animation renders them (Animation.Frame; a
// still ignores both), and the kernels the filter and estimator sizes
// make, with the supersample, by filterWidth, deKernels and the render's
// memory estimate (Estimate).
type attrRange struct {
	min, max float64
	openMin  bool // min itself is outside the range
	what     string
}

var attrRanges = map[string]attrRange{
	"size":                  {min: 1, max: MaxImageSide, what: "pixels"},
	"supersample":           {min: 1, max: maxSupersample},
	"oversample":            {min: 1, max: maxSupersample},
	"quality":               {min: 0, max: maxQuality, openMin: true, what: "samples per pixel"},
	"passes":                {min: 1, max: maxPasses},
	"temporal_samples":      {min: 1, max: MaxTemporalSamples},
	"filter":                {min: 0, max: maxFilterRadius, what: "output pixels"},
	"estimator_radius":      {min: 0, max: maxEstimatorRadius, what: "output pixels"},
	"estimator_minimum":     {min: 0, max: maxEstimatorRadius, what: "output pixels"},
	"estimator_curve":       {min: minEstimatorCurve, max: maxEstimatorCurve},
	"temporal_filter_width": {min: 0, max: maxTemporalWidth, what: "frames"},
	"fuse":                  {min: 0, max: maxFuse, what: "iterations"},
}

// Upper bounds of the ranges above.
const (
	maxQuality         = 1e12
	maxPasses          = 1024
	maxFilterRadius    = 20
	maxEstimatorRadius = 40
	maxFuse            = 100000 // iterations each start point discards (flam3 15, Fractorium's files up to 100)
	minEstimatorCurve  = 0.01
	maxEstimatorCurve  = 100
	maxTemporalWidth   = 1000
)

// checkRange returns "" for a value within attr's range (or an attribute
// without one), else what is wrong, and whether the value is too large
// (over what memory and time allow) rather than merely invalid.
func checkRange(attr string, v float64) (msg string, tooLarge bool) {
	r, ok := attrRanges[attr]
	if !ok {
		return "", false
	}
	low := v < r.min || (r.openMin && v == r.min)
	if !low && v <= r.max {
		return "", false
	}
	lo := fmt.Sprintf("%g", r.min)
	if r.openMin {
		lo = ">" + lo
	}
	unit := ""
	if r.what != "" {
		unit = " " + r.what
	}
	return fmt.Sprintf("%s %g out of range %s..%g%s", attr, v, lo, r.max, unit), !low && !math.IsNaN(v)
}

// AttrError is a genome attribute outside its documented range, located
// at the start of its <flame> (the XML decoder has no attribute positions).
// It wraps ErrInvalidGenome, and ErrTooLarge for a value over the top of
// its range, which a caller reports as a size over its limit.
type AttrError struct {
	File      string
	Line, Col int
	Index     int // of the flame in its file, from 0
	Flame     string
	Attr      string
	Msg       string
	TooLarge  bool
}

func (e *AttrError) Error() string {
	return fmt.Sprintf("%s:%d:%d: flame %d %q: %s", e.File, e.Line, e.Col, e.Index, e.Flame, e.Msg)
}

func (e *AttrError) Unwrap() []error {
	if e.TooLarge {
		return []error{ErrInvalidGenome, ErrTooLarge}
	}
	return []error{ErrInvalidGenome}
}

// rangeErr checks v against attr's range for the flame being parsed.
func (fp *flameParser) rangeErr(attr string, vs ...float64) error {
	for _, v := range vs {
		if msg, big := checkRange(attr, v); msg != "" {
			return fp.attrErr(attr, msg, big)
		}
	}
	return nil
}

func (fp *flameParser) attrErr(attr, msg string, tooLarge bool) error {
	return &AttrError{File: fp.p.file, Line: fp.line, Col: fp.col, Index: fp.index, Flame: fp.g.Name,
		Attr: attr, Msg: msg, TooLarge: tooLarge}
}

// KernelError is a render whose filter or density-estimation kernels
// (sized by genome attributes, with the supersample) are too large. It
// names the attributes, not the size flags, as the ones to change.
type KernelError struct {
	Msg  string
	Hint string // which genome attributes to change, and how
}

func (e *KernelError) Error() string { return e.Msg + ": " + e.Hint }

func (e *KernelError) Unwrap() error { return ErrTooLarge }

// IsKernelError reports whether err is too large because of a genome's
// kernel attributes rather than the size flags.
func IsKernelError(err error) bool {
	var ke *KernelError
	return errors.As(err, &ke)
}

// rangeProblem checks g's ranged attributes as Validate does for genomes
// that were not parsed (interpolated, resized, from cuburn JSON); tooLarge
// as checkRange's.
func (g *Genome) rangeProblem() (msg string, tooLarge bool) {
	for _, c := range [...]struct {
		attr string
		v    float64
	}{
		{"quality", g.Quality}, {"passes", float64(g.Passes)}, {"temporal_samples", float64(g.TemporalSamples)},
		{"filter", g.FilterRadius}, {"estimator_radius", g.EstimatorRadius},
		{"estimator_minimum", g.EstimatorMinimum}, {"estimator_curve", g.EstimatorCurve},
	} {
		if msg, big := checkRange(c.attr, c.v); msg != "" {
			return msg, big
		}
	}
	return "", false
}

// checkFlameAttr checks the <flame> attribute just read against its range.
func (fp *flameParser) checkFlameAttr(attr string) error {
	g := fp.g
	switch attr {
	case "size":
		return fp.rangeErr(attr, float64(g.Width), float64(g.Height))
	case "supersample", "oversample":
		return fp.rangeErr(attr, float64(g.Supersample))
	case "quality":
		return fp.rangeErr(attr, g.Quality)
	case "passes":
		return fp.rangeErr(attr, float64(g.Passes))
	case "temporal_samples":
		return fp.rangeErr(attr, float64(g.TemporalSamples))
	case "filter":
		return fp.rangeErr(attr, g.FilterRadius)
	case "estimator_radius":
		return fp.rangeErr(attr, g.EstimatorRadius)
	case "estimator_minimum":
		return fp.rangeErr(attr, g.EstimatorMinimum)
	case "estimator_curve":
		return fp.rangeErr(attr, g.EstimatorCurve)
	case "fuse":
		return fp.rangeErr(attr, float64(g.Fuse))
	}
	return nil
}
