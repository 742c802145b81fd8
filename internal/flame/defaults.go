package flame

import (
	"encoding/xml"
	"math"
	"slices"
)

// DefaultFuse is the number of iterations flam3 3.1.1 discards from each
// start point before plotting (rect.c FUSE_27). flam3 uses 100 (FUSE_28)
// only when rendering with earlyclip, which is not a genome attribute.
const DefaultFuse = 15

// DefaultGenome returns a genome holding flam3's defaults (clear_cp with
// defaults on) and no xforms. The palette is all black until one is given.
func DefaultGenome() Genome {
	return Genome{
		Width: 100, Height: 100,
		Scale:            50,
		Quality:          1,
		Supersample:      1,
		Passes:           1,
		TemporalSamples:  1000,
		Brightness:       4,
		Contrast:         1,
		Gamma:            4,
		GammaThreshold:   0.01,
		Vibrancy:         1,
		HighlightPower:   -1,
		FilterRadius:     0.5,
		FilterShape:      FilterGaussian,
		EstimatorRadius:  9,
		EstimatorMinimum: 0,
		EstimatorCurve:   0.4,
		PaletteMode:      PaletteStep,
		Interpolation:    "linear",
		Fuse:             DefaultFuse,
	}
}

// DefaultParams returns the variation parameters flam3 gives a new xform
// (initialize_xforms); parameters absent from the XML keep these values.
// The precalculated slots get flam3's initial values too, although Precalc
// overwrites them before a render.
func DefaultParams() Params { return defaultParams }

// defaultParams is DefaultParams' value, made once: an xform carries every
// variation's parameters (NumParams of them, most JWildfire's), and an
// animation makes thousands of xforms a frame.
var defaultParams = makeDefaultParams()

func makeDefaultParams() Params {
	var p Params
	p[PBlobHigh], p[PBlobWaves] = 1, 1
	p[PJulianPower], p[PJulianDist] = 1, 1
	p[PJuliascopePower], p[PJuliascopeDist] = 1, 1
	p[PPieSlices], p[PPieThickness] = 6, 0.5
	p[PNgonSides], p[PNgonPower], p[PNgonCircle], p[PNgonCorners] = 5, 3, 1, 2
	p[PCurlC1] = 1
	p[PRectanglesX], p[PRectanglesY] = 1, 1
	p[PAmwAmp] = 1
	p[PSuperShapeN1], p[PSuperShapeN2], p[PSuperShapeN3] = 1, 1, 1
	p[PConicEccentricity] = 1
	p[PBent2X], p[PBent2Y] = 1, 1
	p[PCellSize] = 1
	p[PCpowR], p[PCpowPower] = 1, 1
	p[PCurveXlength], p[PCurveYlength] = 1, 1
	p[POscilloscopeSeparation], p[POscilloscopeFrequency], p[POscilloscopeAmplitude] = 1, math.Pi, 1
	p[PWedgeCount] = 1
	p[PWedgeJuliaCount], p[PWedgeJuliaPower] = 1, 1
	p[PWedgeSphCount] = 1
	p[PAugerWeight], p[PAugerFreq], p[PAugerScale] = 0.5, 1, 1
	jwfDefaultParams(&p)
	// Precalculated values, as initialize_xforms leaves them.
	p[PJulianRn], p[PJulianCn] = 1, 0.5
	p[PJuliascopeRn], p[PJuliascopeCn] = 1, 0.5
	p[PWedgeJuliaRn], p[PWedgeJuliaCn] = 1, 0.5
	p[PRadialBlurZoomvar] = 1
	return p
}

// newXform is flam3's freshly added xform (flam3_add_xforms followed by the
// parser clearing linear): weight 0, no variations, identity affines. Its
// colour alternates 0, 1, 0 ... with its position n among all the xforms
// added so far, the final and symmetry xforms included.
func newXform(n int) Xform {
	return Xform{
		Color:      float64(n & 1),
		ColorSpeed: 0.5,
		Opacity:    1,
		Animate:    1,
		Coefs:      Identity,
		Post:       Identity,
		Params:     DefaultParams(),
	}
}

// maxSymmetry bounds |kind| of a symmetry element: flam3 has no bound, but
// every unit adds an xform, and no real genome needs more.
const maxSymmetry = 1024

// symmetryXforms returns the xforms flam3_add_symmetry appends for kind sym:
// sym >= 2 adds the sym-1 non-trivial rotations about the origin, sym <= -1
// adds a mirror in x and then the rotations of order -sym. They are linear,
// weight 1, colour speed 0 and not animated. first is the position of the
// first added xform among all xforms (for the default fields).
func symmetryXforms(sym, first int) []Xform {
	if sym == 0 || sym == 1 {
		return nil
	}
	var out []Xform
	add := func(color float64, c Affine) {
		x := newXform(first + len(out))
		x.Weight, x.ColorSpeed, x.Animate = 1, 0, 0
		x.Color = color
		x.Coefs = c
		x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}}
		out = append(out, x)
	}
	if sym < 0 {
		add(1, Affine{-1, 0, 0, 1, 0, 0})
		sym = -sym
	}
	a := 2 * math.Pi / float64(sym)
	for k := 1; k < sym; k++ {
		color := 0.0
		if sym >= 3 {
			color = (float64(k) - 1) / (float64(sym) - 2)
		}
		c, s := round6(math.Cos(float64(k)*a)), round6(math.Sin(float64(k)*a))
		add(color, Affine{c, s, round6(-s), c, 0, 0})
	}
	// flam3 qsorts the added xforms by colour speed (all 0) and then by the
	// determinant of the linear part: the mirror first, then the rotations.
	// A stable sort keeps equal determinants in order of k.
	slices.SortStableFunc(out, func(x, y Xform) int {
		dx := x.Coefs[0]*x.Coefs[3] - x.Coefs[1]*x.Coefs[2]
		dy := y.Coefs[0]*y.Coefs[3] - y.Coefs[1]*y.Coefs[2]
		switch {
		case dx < dy:
			return -1
		case dx > dy:
			return 1
		}
		return 0
	})
	return out
}

// round6 rounds to 6 decimals as flam3 does for symmetry coefficients
// (negative values are shifted down by one unit before truncation).
func round6(x float64) float64 {
	x *= 1e6
	if x < 0 {
		x--
	}
	return 1e-6 * math.Trunc(x+0.5)
}

func (fp *flameParser) symmetry(se xml.StartElement, line int) error {
	kind := 0
	for _, a := range se.Attr {
		if a.Name.Local != "kind" {
			fp.warnf(line, "symmetry: unknown attribute %q ignored", a.Name.Local)
			continue
		}
		var err error
		if kind, err = parseInt(a.Value); err != nil {
			return fp.badValue(line, a)
		}
	}
	if err := fp.addSymmetry(kind, line); err != nil {
		return err
	}
	return fp.p.skip()
}

func (fp *flameParser) addSymmetry(kind, line int) error {
	switch {
	case kind == 0:
		fp.warnf(line, "symmetry kind 0 (random in flam3) ignored")
		return nil
	case absInt(kind) > maxSymmetry:
		return fp.errorf(line, "symmetry kind %d out of range", kind)
	}
	n := kind - 1 // xforms it adds: the rotations, and for kind < 0 a mirror
	if kind < 0 {
		n = -kind
	}
	if fp.added+n > maxXforms {
		return fp.errorf(line, "more than %d xforms", maxXforms)
	}
	xs := symmetryXforms(kind, fp.added)
	if len(xs) == 0 {
		return nil
	}
	fp.g.Symmetry = kind
	fp.added += len(xs)
	fp.g.Xforms = append(fp.g.Xforms, xs...)
	for range xs {
		fp.chaos = append(fp.chaos, nil)
		fp.chaosLine = append(fp.chaosLine, line)
	}
	return nil
}
