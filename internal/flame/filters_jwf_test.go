package flame

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestJWildfireFilterGrid: on procgen's grid every JWildfire table sums to
// 1, is radial (symmetric under transposition), has the supersample's
// parity, and is JWildfire's own table (padded by a leading zero row and
// column at an even supersample) or, where JWildfire filters nothing, the
// mean of the pixel's buckets.
func TestJWildfireFilterGrid(t *testing.T) {
	tables := 0
	for k := KernelNone + 1; k < numKernels; k++ {
		for ss := 1; ss <= 4; ss++ {
			for _, r := range []float64{0, 0.1, 0.2, 0.5, 0.75, 1, 1.7} {
				f, w, err := jwfSpatialFilter(k, r, ss)
				if err != nil {
					t.Fatalf("%s ss %d r %g: %v", k, ss, r, err)
				}
				if want, _ := jwfFilterWidth(k, r, ss); w != want || len(f) != w*w || (w-ss)%2 != 0 {
					t.Fatalf("%s ss %d r %g: width %d (%d values), want %d of the supersample's parity", k, ss, r, w, len(f), want)
				}
				sum := 0.0
				for j := range w {
					for i := range w {
						sum += f[j*w+i]
						if f[j*w+i] != f[i*w+j] {
							t.Fatalf("%s ss %d r %g: not radial at %d,%d", k, ss, r, i, j)
						}
					}
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%s ss %d r %g: sums to %.15g", k, ss, r, sum)
				}
				table, n := jwfFilterTable(k, r, ss)
				if table == nil {
					if w != ss || f[0] != 1/float64(ss*ss) {
						t.Errorf("%s ss %d r %g: JWildfire filters nothing, procgen %dx%d of %g", k, ss, r, w, w, f[0])
					}
					continue
				}
				tables++
				off := w - n
				for j := range w {
					for i := range w {
						want := 0.0
						if i >= off && j >= off {
							want = table[(j-off)*n+i-off]
						}
						if f[j*w+i] != want {
							t.Fatalf("%s ss %d r %g: [%d,%d] %g, JWildfire's table %g", k, ss, r, i, j, f[j*w+i], want)
						}
					}
				}
			}
		}
	}
	if tables < 200 {
		t.Fatalf("only %d real tables checked", tables)
	}
}

// TestJWildfireKernelFacts pins JWildfire's own kernels by facts of their
// formulas, and its sizing rule by hand-worked cases.
func TestJWildfireKernelFacts(t *testing.T) {
	const b, c = 0.42, 0.29
	if b+2*c != 1 {
		t.Fatal("MITCHELL_SMOOTH is a B + 2C = 1 Mitchell-Netravali filter")
	}
	for _, x := range []struct {
		k       FilterKernelType
		t, want float64
	}{
		{KernelMitchellSmooth, 0, (6 - 2*b) / 6}, {KernelMitchellSmooth, 1, b / 6}, {KernelMitchellSmooth, -1, b / 6},
		{KernelMitchellSmooth, 2, 0}, {KernelMitchell, 0, (6 - 2.0/3) / 6},
		// SINEPOW: acos(4·t^(p/ln 10) − 1)/π: 1 at 0, 1/2 where t^(p/ln 10) = 1/4, 0 from 1/2 on.
		{KernelSinePow10, 0, 1}, {KernelSinePow15, math.Pow(0.25, math.Ln10/15), 0.5},
		{KernelSinePow5, math.Pow(0.5, math.Ln10/5), 0}, {KernelSinePow5, 0.99, 0}, {KernelSinePow5, -0.1, 0},
		{KernelGaussian, 0, math.Sqrt(2 / math.Pi)}, {KernelBox, 0.5, 1}, {KernelBox, -0.5, 0},
	} {
		if got := x.k.coeff(x.t); math.Abs(got-x.want) > 1e-12 {
			t.Errorf("%s(%g) = %.15g, want %.15g", x.k, x.t, got, x.want)
		}
	}
	// Sizes: 2·oversample·support·radius truncated, plus one, made odd.
	for _, s := range []struct {
		k      FilterKernelType
		r      float64
		ov, n  int
		ppWide int // on procgen's grid
	}{
		{KernelMitchellSmooth, 0.75, 1, 5, 5}, {KernelMitchellSmooth, 0.75, 2, 7, 8}, {KernelGaussian, 0.5, 1, 3, 3},
		{KernelSinePow15, 0.75, 1, 3, 3}, {KernelSinePow15, 0.75, 2, 5, 6}, {KernelBox, 0.5, 1, 1, 1},
		{KernelBox, 0.5, 2, 3, 4}, {KernelGaussian, 0, 2, 0, 2}, {KernelGaussian, 1e-9, 1, 0, 1},
	} {
		n := jwfFilterSize(s.k, s.r, s.ov)
		w, err := jwfFilterWidth(s.k, s.r, s.ov)
		if n != s.n || w != s.ppWide || err != nil {
			t.Errorf("%s radius %g oversample %d: size %d width %d (%v), want %d %d", s.k, s.r, s.ov, n, w, err, s.n, s.ppWide)
		}
	}
	// Radial, not flam3's separable product: a Gaussian of radius 1
	// differs from flam3's in the corners.
	jf, jw, _ := jwfSpatialFilter(KernelGaussian, 1, 1)
	ff, fw, _ := spatialFilter(FilterGaussian, 1, 1)
	if jw == fw && slices.Equal(jf, ff) {
		t.Error("JWildfire's Gaussian table is flam3's")
	}
}

// TestFlam3FilterUnchanged: a genome without filter_kernel keeps flam3's
// filter exactly.
func TestFlam3FilterUnchanged(t *testing.T) {
	for s := FilterGaussian; s <= FilterQuadratic; s++ {
		for ss := 1; ss <= 3; ss++ {
			a, aw, aerr := buildSpatialFilter(s, KernelNone, 0.75, ss)
			b, bw, berr := spatialFilter(s, 0.75, ss)
			w, werr := spatialFilterWidth(s, KernelNone, 0.75, ss)
			fw, fwerr := filterWidth(s, 0.75, ss)
			if aw != bw || !slices.Equal(a, b) || (aerr == nil) != (berr == nil) || w != fw || (werr == nil) != (fwerr == nil) {
				t.Errorf("shape %d ss %d: not flam3's filter", s, ss)
			}
		}
	}
}

// TestJWildfireFilterRendered: the plan (the table the CPU filters with
// and the CUDA backend uploads), an accumulation's finish and a frame all
// take the genome's JWildfire kernel.
func TestJWildfireFilterRendered(t *testing.T) {
	g, _ := parseOne(t, jwfFilterDoc(`filter="0.75" oversample="2" filter_type="GLOBAL_SMOOTHING" filter_kernel="SINEPOW15"`), ParseOptions{})
	want, ww, err := jwfSpatialFilter(KernelSinePow15, 0.75, 2)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlan(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.filterWidth != ww || !slices.Equal(p.filter, want) {
		t.Errorf("plan's filter is %d wide, not JWildfire's SINEPOW15 (%d)", p.filterWidth, ww)
	}
	fp, err := p.finishSpec().finishPlan(p.bw, p.bh)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fp.filter, want) {
		t.Error("an accumulation's finish loses the kernel")
	}
	fs := Still(g)
	if fs.FilterKernel != KernelSinePow15 {
		t.Errorf("a still frame's kernel is %v", fs.FilterKernel)
	}
	frame, err := newFramePlan(fs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(frame.plan.filter, want) {
		t.Error("a frame's plan loses the kernel")
	}
}

// TestJWildfireFilterWritten: the genome writers keep JWildfire's filter
// for a JWildfire genome (read back the same) and write nothing of it for
// flam3's.
func TestJWildfireFilterWritten(t *testing.T) {
	attrs := `filter="0.75" filter_type="ADAPTIVE" filter_kernel="GAUSSIAN" filter_sharpness="2.5" filter_low_density="0.05" filter_indicator="0"`
	g, _ := parseOne(t, jwfFilterDoc(attrs), ParseOptions{})
	x, err := GenomeXML(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range strings.Fields(attrs)[1:] {
		if !bytes.Contains(x, []byte(a)) {
			t.Errorf("written genome lacks %s: %s", a, x)
		}
	}
	back, _ := parseOne(t, string(x), ParseOptions{})
	if back.SpatialFilterKernel != g.SpatialFilterKernel || back.SpatialFilteringType != g.SpatialFilteringType ||
		back.SpatialFilterSharpness != g.SpatialFilterSharpness || back.SpatialFilterLowDensity != g.SpatialFilterLowDensity ||
		back.SpatialFilterIndicator != g.SpatialFilterIndicator {
		t.Errorf("read back %v %v %g %g %v", back.SpatialFilterKernel, back.SpatialFilteringType,
			back.SpatialFilterSharpness, back.SpatialFilterLowDensity, back.SpatialFilterIndicator)
	}
	f3, _ := parseOne(t, jwfFilterDoc(`filter="0.75"`), ParseOptions{})
	if x, _ := GenomeXML(f3, Options{}); bytes.Contains(x, []byte("filter_kernel")) || bytes.Contains(x, []byte(" filter_type")) {
		t.Errorf("flam3 genome written with JWildfire's filter: %s", x)
	}
}

// TestJWildfireFilterInterpolated: between keyframes the kernel, type and
// indicator are the first keyframe's and the thresholds are blended.
func TestJWildfireFilterInterpolated(t *testing.T) {
	a := twoKeys(t)
	k0, k1 := a.Keys[0], a.Keys[1]
	k0.SpatialFilterKernel, k0.SpatialFilteringType, k0.SpatialFilterIndicator = KernelSinePow10, FilteringAdaptive, true
	k1.SpatialFilterKernel, k1.SpatialFilteringType = KernelBox, FilteringGlobalSmoothing
	k0.SpatialFilterSharpness, k1.SpatialFilterSharpness = 2, 4
	k0.SpatialFilterLowDensity, k1.SpatialFilterLowDensity = 0.02, 0.04
	g := a.At(0.5)
	if g.SpatialFilterKernel != KernelSinePow10 || g.SpatialFilteringType != FilteringAdaptive || !g.SpatialFilterIndicator ||
		math.Abs(g.SpatialFilterSharpness-3) > 1e-12 || math.Abs(g.SpatialFilterLowDensity-0.03) > 1e-12 {
		t.Errorf("at 0.5: %v %v %v %g %g", g.SpatialFilterKernel, g.SpatialFilteringType, g.SpatialFilterIndicator,
			g.SpatialFilterSharpness, g.SpatialFilterLowDensity)
	}
	fs, err := a.Frame(0.5)
	if err != nil {
		t.Fatal(err)
	}
	if fs.FilterKernel != KernelSinePow10 {
		t.Errorf("frame kernel %v", fs.FilterKernel)
	}
}
