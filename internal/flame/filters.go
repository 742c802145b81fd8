package flame

import (
	"fmt"
	"math"
)

// Spatial filter kernels, as flam3 defines them (filters.c): each shape has a
// support, and the kernel is sampled on a grid fitted to that support.

var filterSupport = [...]float64{
	FilterGaussian: 1.5, FilterHermite: 1, FilterBox: 0.5, FilterTriangle: 1, FilterBell: 1.5,
	FilterBSpline: 2, FilterMitchell: 2, FilterBlackman: 1, FilterCatrom: 2, FilterHanning: 1,
	FilterHamming: 1, FilterLanczos3: 3, FilterLanczos2: 2, FilterQuadratic: 1.5,
}

func sinc(x float64) float64 {
	x *= math.Pi
	if x != 0 {
		return math.Sin(x) / x
	}
	return 1
}

// filterValue evaluates shape s at t (flam3_spatial_filter).
func filterValue(s FilterShape, t float64) float64 {
	a := math.Abs(t)
	switch s {
	case FilterGaussian:
		return math.Exp(-2*t*t) * math.Sqrt(2/math.Pi)
	case FilterHermite:
		if a < 1 {
			return (2*a-3)*a*a + 1
		}
	case FilterBox:
		if t > -0.5 && t <= 0.5 {
			return 1
		}
	case FilterTriangle:
		if a < 1 {
			return 1 - a
		}
	case FilterBell:
		if a < 0.5 {
			return 0.75 - a*a
		}
		if a < 1.5 {
			a -= 1.5
			return 0.5 * a * a
		}
	case FilterBSpline:
		if a < 1 {
			return 0.5*a*a*a - a*a + 2.0/3
		}
		if a < 2 {
			a = 2 - a
			return a * a * a / 6
		}
	case FilterMitchell:
		const b, c = 1.0 / 3, 1.0 / 3
		tt := a * a
		if a < 1 {
			return ((12-9*b-6*c)*a*tt + (-18+12*b+6*c)*tt + (6 - 2*b)) / 6
		}
		if a < 2 {
			return ((-b-6*c)*a*tt + (6*b+30*c)*tt + (-12*b-48*c)*a + (8*b + 24*c)) / 6
		}
	case FilterBlackman:
		return sinc(t) * (0.42 + 0.5*math.Cos(math.Pi*t) + 0.08*math.Cos(2*math.Pi*t))
	case FilterCatrom:
		switch {
		case t < -2:
		case t < -1:
			return 0.5 * (4 + t*(8+t*(5+t)))
		case t < 0:
			return 0.5 * (2 + t*t*(-5-3*t))
		case t < 1:
			return 0.5 * (2 + t*t*(-5+3*t))
		case t < 2:
			return 0.5 * (4 + t*(-8+t*(5-t)))
		}
	case FilterHanning:
		return sinc(t) * (0.5 + 0.5*math.Cos(math.Pi*t))
	case FilterHamming:
		return sinc(t) * (0.54 + 0.46*math.Cos(math.Pi*t))
	case FilterLanczos3:
		// flam3 multiplies its lanczos by one more sinc: kept for fidelity.
		if a < 3 {
			return sinc(t) * sinc(t/3) * sinc(t/3)
		}
	case FilterLanczos2:
		if a < 2 {
			return sinc(t) * sinc(t/2) * sinc(t/2)
		}
	case FilterQuadratic:
		switch {
		case t < -1.5:
		case t < -0.5:
			return 0.5 * (t + 1.5) * (t + 1.5)
		case t < 0.5:
			return 0.75 - t*t
		case t < 1.5:
			return 0.5 * (t - 1.5) * (t - 1.5)
		}
	}
	return 0
}

// spatialFilter builds flam3's normalised width×width kernel for a filter
// radius in output pixels at the given supersampling. Its width has the
// parity of the supersample so that it centres on output pixels.
func spatialFilter(shape FilterShape, radius float64, supersample int) ([]float64, int, error) {
	width, err := filterWidth(shape, radius, supersample)
	if err != nil {
		return nil, 0, err
	}
	supp := filterSupport[shape]
	fw := 2 * supp * float64(supersample) * radius
	adjust := 1.0
	if fw > 0 {
		adjust = supp * float64(width) / fw
	}
	k := make([]float64, width*width)
	sum := 0.0
	for j := 0; j < width; j++ {
		jj := ((2*float64(j)+1)/float64(width) - 1) * adjust
		fj := filterValue(shape, jj)
		for i := 0; i < width; i++ {
			ii := ((2*float64(i)+1)/float64(width) - 1) * adjust
			v := filterValue(shape, ii) * fj
			k[i+j*width] = v
			sum += v
		}
	}
	if sum == 0 || math.IsNaN(sum) {
		return nil, 0, fmt.Errorf("spatial filter radius %g is too small", radius)
	}
	for i := range k {
		k[i] /= sum
	}
	return k, width, nil
}

// maxFilterWidth bounds the spatial filter kernel's side in buckets: the
// filter costs width² per output pixel (2^18 at most, a second of one core
// for 40x30 pixels). Real-world genomes ask for 3 to 60 (filter 0.5 to 2
// at supersample 1 to 4); filter="20" reaches it at supersample 6 with the
// Gaussian, filter="5" at 16 with lanczos3.
const maxFilterWidth = 512

// filterWidth is the side in buckets of spatialFilter's kernel, computed
// before anything is allocated for it.
func filterWidth(shape FilterShape, radius float64, supersample int) (int, error) {
	supp := filterSupport[shape]
	fw := 2 * supp * float64(supersample) * radius
	if !(fw >= 0) || fw+2 > maxFilterWidth {
		return 0, &KernelError{Hint: "lower the genome's filter (or --supersample)", Msg: fmt.Sprintf(
			"filter %g at supersample %d makes a spatial filter %.0f buckets wide, over %d", radius, supersample, fw, maxFilterWidth)}
	}
	width := int(fw) + 1
	if (width^supersample)&1 != 0 {
		width++
	}
	return width, nil
}
