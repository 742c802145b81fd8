package flame

// JWildfire's spatial filter (its render/filter package and FilterHolder):
// the same kernels as flam3 plus MITCHELL_SMOOTH and the SINEPOW family,
// but sized and sampled its own way. A genome that names filter_kernel (or
// filter_type) gets this filter; flam3's genomes keep filters.go's.
//
// Where JWildfire and flam3 differ:
//   - the kernel is radial, f(√(x²+y²)), not flam3's separable f(x)·f(y);
//   - its side is 2·oversample·support·radius truncated, plus one, made
//     odd; flam3's keeps the parity of the supersample;
//   - its argument scale ("adjust") divides by that truncated width;
//   - a radius under 1e-8, or a side of 1, is no filter: each output pixel
//     is the mean of its oversample×oversample buckets.
// The renderer reads only the kernel; filter_type is how JWildfire's editor
// files it (and switches the adaptive filter's indicator view).

import (
	"fmt"
	"math"
)

// FilterKernelType is JWildfire's filter_kernel (its FilterKernelType
// enum). KernelNone, the zero value, means the genome does not name one
// and uses FilterShape.
type FilterKernelType int

const (
	KernelNone FilterKernelType = iota
	KernelBell
	KernelBlackman
	KernelBox
	KernelBSpline
	KernelCatrom
	KernelGaussian
	KernelHamming
	KernelHanning
	KernelHermite
	KernelLanczos2
	KernelLanczos3
	KernelMitchell
	KernelMitchellSmooth
	KernelQuadratic
	KernelSinePow5
	KernelSinePow10
	KernelSinePow15
	KernelTriangle
	KernelMitchellSinePow
	numKernels
)

// FilterKernelNames maps filter_kernel values (JWildfire writes its enum's
// names) to kernels.
var FilterKernelNames = map[string]FilterKernelType{
	"BELL": KernelBell, "BLACKMAN": KernelBlackman, "BOX": KernelBox, "BSPLINE": KernelBSpline,
	"CATROM": KernelCatrom, "GAUSSIAN": KernelGaussian, "HAMMING": KernelHamming, "HANNING": KernelHanning,
	"HERMITE": KernelHermite, "LANCZOS2": KernelLanczos2, "LANCZOS3": KernelLanczos3, "MITCHELL": KernelMitchell,
	"MITCHELL_SMOOTH": KernelMitchellSmooth, "QUADRATIC": KernelQuadratic, "SINEPOW5": KernelSinePow5,
	"SINEPOW10": KernelSinePow10, "SINEPOW15": KernelSinePow15, "TRIANGLE": KernelTriangle,
	"MITCHELL_SINEPOW": KernelMitchellSinePow,
}

// String is the kernel's filter_kernel name ("" for KernelNone).
func (k FilterKernelType) String() string { return nameOf(FilterKernelNames, k, "") }

// FilteringType is JWildfire's filter_type: the editor's class of the
// kernel. FilteringNone is a genome that does not say.
type FilteringType int

const (
	FilteringNone FilteringType = iota
	FilteringGlobalSmoothing
	FilteringGlobalSharpening
	FilteringAdaptive
)

// FilteringTypeNames maps filter_type values (case as JWildfire writes and
// reads them: its reader ignores any other spelling) to types.
var FilteringTypeNames = map[string]FilteringType{
	"GLOBAL_SMOOTHING": FilteringGlobalSmoothing, "GLOBAL_SHARPENING": FilteringGlobalSharpening,
	"ADAPTIVE": FilteringAdaptive,
}

func (t FilteringType) String() string { return nameOf(FilteringTypeNames, t, "") }

// JWildfire's defaults for a flame that names a kernel but not these
// (its Flame constructor and preferences).
const (
	jwfDefaultKernel     = KernelMitchellSmooth
	jwfDefaultSharpness  = 4.0
	jwfDefaultLowDensity = 0.025
	// jwfEpsilon is MathLib.EPSILON: a radius below it is no filter.
	jwfEpsilon = 1e-8
)

// flam3Twin is the flam3 shape whose formula and support JWildfire's
// kernel class repeats; ok is false for JWildfire's own kernels.
func (k FilterKernelType) flam3Twin() (FilterShape, bool) {
	switch k {
	case KernelBell:
		return FilterBell, true
	case KernelBlackman:
		return FilterBlackman, true
	case KernelBox:
		return FilterBox, true
	case KernelBSpline:
		return FilterBSpline, true
	case KernelCatrom:
		return FilterCatrom, true
	case KernelGaussian:
		return FilterGaussian, true
	case KernelHamming:
		return FilterHamming, true
	case KernelHanning:
		return FilterHanning, true
	case KernelHermite:
		return FilterHermite, true
	case KernelLanczos2:
		return FilterLanczos2, true
	case KernelLanczos3:
		return FilterLanczos3, true
	case KernelMitchell:
		return FilterMitchell, true
	case KernelQuadratic:
		return FilterQuadratic, true
	case KernelTriangle:
		return FilterTriangle, true
	}
	return 0, false
}

// support is the kernel's getSpatialSupport. The adaptive kernel's primary
// class is MITCHELL_SMOOTH's.
func (k FilterKernelType) support() float64 {
	if s, ok := k.flam3Twin(); ok {
		return filterSupport[s]
	}
	switch k {
	case KernelMitchellSmooth, KernelMitchellSinePow:
		return 2
	}
	return 1 // the SINEPOW kernels
}

// coeff is the kernel's getFilterCoeff at t.
func (k FilterKernelType) coeff(t float64) float64 {
	if s, ok := k.flam3Twin(); ok {
		return filterValue(s, t)
	}
	switch k {
	case KernelMitchellSmooth, KernelMitchellSinePow:
		// A smoother Mitchell-Netravali (B + 2C = 1), JWildfire's default.
		return mitchell(0.42, 0.29, t)
	case KernelSinePow5:
		return sinePow(5, t)
	case KernelSinePow10:
		return sinePow(10, t)
	case KernelSinePow15:
		return sinePow(15, t)
	}
	return 0
}

// sharpening is the kernel's isSharpening: JWildfire then smooths the
// density (the alpha channel) with a Gaussian of radius 0.75 and filters
// only the colour with the kernel.
func (k FilterKernelType) sharpening() bool {
	switch k {
	case KernelBlackman, KernelCatrom, KernelHamming, KernelHanning, KernelLanczos2, KernelLanczos3,
		KernelMitchell, KernelMitchellSmooth, KernelMitchellSinePow:
		return true
	}
	return false
}

// adaptive is the kernel's isAdaptive: a per-pixel choice of kernel by
// density and edges.
func (k FilterKernelType) adaptive() bool { return k == KernelMitchellSinePow }

// filteringType is how JWildfire's reader files a kernel when filter_type
// is not written.
func (k FilterKernelType) filteringType() FilteringType {
	switch {
	case k.adaptive():
		return FilteringAdaptive
	case k.sharpening():
		return FilteringGlobalSharpening
	}
	return FilteringGlobalSmoothing
}

func mitchell(b, c, t float64) float64 {
	a := math.Abs(t)
	tt := a * a
	if a < 1 {
		return ((12-9*b-6*c)*a*tt + (-18+12*b+6*c)*tt + (6 - 2*b)) / 6
	}
	if a < 2 {
		return ((-b-6*c)*a*tt + (6*b+30*c)*tt + (-12*b-48*c)*a + (8*b + 24*c)) / 6
	}
	return 0
}

// sinePow is JWildfire's SinePowFilterKernel as written: acos(4·e^(p·log10 t) − 1)/π,
// 0 where that is not a number (t < 0 or t^(p/ln10) > 1/2). The formula
// is kept as JWildfire has it, odd base and all, because its pictures are
// made with it.
func sinePow(p, t float64) float64 {
	r := math.Acos(2*math.Exp(p*math.Log10(t))*2-1) / math.Pi
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return 0
	}
	return r
}

// jwfFilterSize is FilterKernel.getFilterSize: 0 below jwfEpsilon, else the
// truncated width plus one, made odd.
func jwfFilterSize(k FilterKernelType, radius float64, oversample int) int {
	if radius < jwfEpsilon {
		return 0
	}
	n := int(2*float64(oversample)*k.support()*radius) + 1
	if n%2 == 0 {
		n++
	}
	return n
}

// jwfFilterTable is FilterHolder's n×n table divided by oversample² (so it
// sums to 1, as procgen's filters do): n is 0 or 1 where JWildfire filters
// nothing, -1 where the table has no weight.
func jwfFilterTable(k FilterKernelType, radius float64, oversample int) ([]float64, int) {
	n := jwfFilterSize(k, radius, oversample)
	if n <= 1 {
		return nil, n
	}
	supp := k.support()
	adjust := 1.0
	if fw := int(2 * float64(oversample) * supp * radius); fw > 0 {
		adjust = supp * float64(n) / float64(fw)
	}
	t := make([]float64, n*n)
	sum := 0.0
	for i := 0; i < n; i++ {
		ii := ((2*float64(i)+1)/float64(n) - 1) * adjust
		for j := 0; j < n; j++ {
			jj := ((2*float64(j)+1)/float64(n) - 1) * adjust
			v := k.coeff(math.Sqrt(ii*ii + jj*jj))
			t[i*n+j] = v
			sum += v
		}
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil, -1
	}
	for i := range t {
		t[i] /= sum
	}
	return t, n
}

// jwfFilterWidth is the side of jwfSpatialFilter's kernel on procgen's
// grid, which centres a kernel of the supersample's parity on each output
// pixel: JWildfire's odd side, one more at an even supersample, or the
// supersample itself where JWildfire filters nothing.
func jwfFilterWidth(k FilterKernelType, radius float64, supersample int) (int, error) {
	fw := 2 * k.support() * float64(supersample) * radius
	if !(fw >= 0) || fw+2 > maxFilterWidth {
		return 0, &KernelError{Hint: "lower the genome's filter (or --supersample)", Msg: fmt.Sprintf(
			"filter %g (%s) at supersample %d makes a spatial filter %.0f buckets wide, over %d", radius, k, supersample, fw, maxFilterWidth)}
	}
	n := jwfFilterSize(k, radius, supersample)
	if n <= 1 {
		return supersample, nil
	}
	if (n^supersample)&1 != 0 {
		n++
	}
	return n, nil
}

// jwfSpatialFilter is JWildfire's filter as a width×width table on
// procgen's grid. At an even supersample the odd table gets a leading row
// and column of zeros: JWildfire's own taps start one bucket after the
// centred ones (FilterHolder's half size is n/2−1), which puts its kernel
// half a bucket after the pixel's centre there too.
func jwfSpatialFilter(k FilterKernelType, radius float64, supersample int) ([]float64, int, error) {
	width, err := jwfFilterWidth(k, radius, supersample)
	if err != nil {
		return nil, 0, err
	}
	t, n := jwfFilterTable(k, radius, supersample)
	if n < 0 {
		return nil, 0, fmt.Errorf("spatial filter %s radius %g has no weight", k, radius)
	}
	if t == nil {
		// The mean of the pixel's buckets (LogDensityFilter's simple path).
		box := make([]float64, width*width)
		for i := range box {
			box[i] = 1 / float64(width*width)
		}
		return box, width, nil
	}
	if width == n {
		return t, n, nil
	}
	out := make([]float64, width*width)
	off := width - n
	for j := 0; j < n; j++ {
		copy(out[(j+off)*width+off:(j+off)*width+off+n], t[j*n:(j+1)*n])
	}
	return out, width, nil
}

// buildSpatialFilter is the genome's spatial filter: JWildfire's kernel
// when it names one, else flam3's shape.
func buildSpatialFilter(shape FilterShape, kernel FilterKernelType, radius float64, supersample int) ([]float64, int, error) {
	if kernel != KernelNone {
		return jwfSpatialFilter(kernel, radius, supersample)
	}
	return spatialFilter(shape, radius, supersample)
}

// spatialFilterWidth is buildSpatialFilter's side, computed before
// anything is allocated.
func spatialFilterWidth(shape FilterShape, kernel FilterKernelType, radius float64, supersample int) (int, error) {
	if kernel != KernelNone {
		return jwfFilterWidth(kernel, radius, supersample)
	}
	return filterWidth(shape, radius, supersample)
}
