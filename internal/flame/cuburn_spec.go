package flame

import (
	"math"
	"sort"
)

// This file is cuburn's document schema (genome/specs.py and
// genome/variations.py, as facts): which keys exist, which values are
// splines, their defaults, periods and interpolation domains.

type cbKind uint8

const (
	cbDict    cbKind = iota // fixed keys
	cbMap                   // any keys, one element spec
	cbSpl                   // a spline
	cbList                  // a list (palettes, xform_map, filter_order)
	cbScalar                // a plain number
	cbString                // a string
	cbAny                   // anything (format-specific output settings)
	cbProfVal               // a profile multiplier or number
)

type cbSpec struct {
	kind   cbKind
	fields map[string]*cbSpec
	elem   *cbSpec
	def    float64 // spline or scalar default
	period float64 // spline period (0: none)
	mag    bool    // magnitude interpolation (cuburn's scalespline)
	isVar  bool    // a variation parameter: a missing side copies the other
}

func cbS(def float64) *cbSpec          { return &cbSpec{kind: cbSpl, def: def} }
func cbSP(def, p float64) *cbSpec      { return &cbSpec{kind: cbSpl, def: def, period: p} }
func cbSM(def float64) *cbSpec         { return &cbSpec{kind: cbSpl, def: def, mag: true} }
func cbD(f map[string]*cbSpec) *cbSpec { return &cbSpec{kind: cbDict, fields: f} }
func cbXY(e *cbSpec) *cbSpec           { return cbD(map[string]*cbSpec{"x": e, "y": e}) }

var (
	cbStr  = &cbSpec{kind: cbString}
	cbLst  = &cbSpec{kind: cbList}
	cbAnyV = &cbSpec{kind: cbAny}
)

// cbVarParam is one parameter of a cuburn variation and the flam3 parameter
// it is.
type cbVarParam struct {
	name string
	id   ParamID
	spec *cbSpec
}

// cbVariation maps one of cuburn's variation names to ours.
type cbVariation struct {
	id     VarID
	params []cbVarParam
}

// cbVariations is cuburn's variation list (genome/variations.py): its names
// (oscope is our oscilloscope), its parameters and their defaults, which
// differ from flam3's for some (blob_low is 1 in cuburn, 0 in flam3).
// Variations cuburn does not list (twintrian, wedge_julia, wedge_sph, auger)
// are refused, as cuburn refuses them.
var cbVariations = func() map[string]cbVariation {
	s, ss := cbS(0), cbSM(1)
	pv := func(name string, id ParamID, sp *cbSpec) cbVarParam {
		c := *sp
		c.isVar = true
		return cbVarParam{name, id, &c}
	}
	m := map[string]cbVariation{}
	for _, v := range []struct {
		name string
		id   VarID
		ps   []cbVarParam
	}{
		{"blob", VarBlob, []cbVarParam{pv("low", PBlobLow, ss), pv("high", PBlobHigh, ss), pv("waves", PBlobWaves, ss)}},
		{"pdj", VarPdj, []cbVarParam{pv("a", PPdjA, s), pv("b", PPdjB, s), pv("c", PPdjC, s), pv("d", PPdjD, s)}},
		{"fan2", VarFan2, []cbVarParam{pv("x", PFan2X, s), pv("y", PFan2Y, s)}},
		{"rings2", VarRings2, []cbVarParam{pv("val", PRings2Val, s)}},
		{"perspective", VarPerspective, []cbVarParam{pv("angle", PPerspectiveAngle, cbSP(0, 4)), pv("dist", PPerspectiveDist, ss)}},
		{"julian", VarJulian, []cbVarParam{pv("power", PJulianPower, ss), pv("dist", PJulianDist, ss)}},
		{"juliascope", VarJuliascope, []cbVarParam{pv("power", PJuliascopePower, ss), pv("dist", PJuliascopeDist, ss)}},
		{"radial_blur", VarRadialBlur, []cbVarParam{pv("angle", PRadialBlurAngle, cbSP(0, 4))}},
		{"pie", VarPie, []cbVarParam{pv("slices", PPieSlices, cbS(6)), pv("rotation", PPieRotation, s), pv("thickness", PPieThickness, cbS(0.5))}},
		{"ngon", VarNgon, []cbVarParam{pv("sides", PNgonSides, cbS(5)), pv("power", PNgonPower, cbS(3)), pv("circle", PNgonCircle, cbS(1)), pv("corners", PNgonCorners, cbS(2))}},
		{"curl", VarCurl, []cbVarParam{pv("c1", PCurlC1, cbS(1)), pv("c2", PCurlC2, s)}},
		{"rectangles", VarRectangles, []cbVarParam{pv("x", PRectanglesX, s), pv("y", PRectanglesY, s)}},
		{"disc2", VarDisc2, []cbVarParam{pv("rot", PDisc2Rot, s), pv("twist", PDisc2Twist, s)}},
		{"super_shape", VarSuperShape, []cbVarParam{pv("rnd", PSuperShapeRnd, s), pv("m", PSuperShapeM, s), pv("n1", PSuperShapeN1, ss),
			pv("n2", PSuperShapeN2, cbS(1)), pv("n3", PSuperShapeN3, cbS(1)), pv("holes", PSuperShapeHoles, s)}},
		{"flower", VarFlower, []cbVarParam{pv("holes", PFlowerHoles, s), pv("petals", PFlowerPetals, s)}},
		{"conic", VarConic, []cbVarParam{pv("holes", PConicHoles, s), pv("eccentricity", PConicEccentricity, cbS(1))}},
		{"parabola", VarParabola, []cbVarParam{pv("height", PParabolaHeight, ss), pv("width", PParabolaWidth, ss)}},
		{"bent2", VarBent2, []cbVarParam{pv("x", PBent2X, ss), pv("y", PBent2Y, ss)}},
		{"bipolar", VarBipolar, []cbVarParam{pv("shift", PBipolarShift, s)}},
		{"cell", VarCell, []cbVarParam{pv("size", PCellSize, ss)}},
		{"cpow", VarCpow, []cbVarParam{pv("r", PCpowR, ss), pv("i", PCpowI, s), pv("power", PCpowPower, ss)}},
		{"curve", VarCurve, []cbVarParam{pv("xamp", PCurveXamp, s), pv("yamp", PCurveYamp, s), pv("xlength", PCurveXlength, ss), pv("ylength", PCurveYlength, ss)}},
		{"escher", VarEscher, []cbVarParam{pv("beta", PEscherBeta, cbSP(0, 2*math.Pi))}},
		{"lazysusan", VarLazysusan, []cbVarParam{pv("x", PLazysusanX, s), pv("y", PLazysusanY, s), pv("twist", PLazysusanTwist, s),
			pv("space", PLazysusanSpace, s), pv("spin", PLazysusanSpin, s)}},
		{"modulus", VarModulus, []cbVarParam{pv("x", PModulusX, s), pv("y", PModulusY, s)}},
		{"oscope", VarOscilloscope, []cbVarParam{pv("separation", POscilloscopeSeparation, cbS(1)),
			pv("frequency", POscilloscopeFrequency, cbSM(math.Pi)), pv("amplitude", POscilloscopeAmplitude, ss), pv("damping", POscilloscopeDamping, s)}},
		{"popcorn2", VarPopcorn2, []cbVarParam{pv("x", PPopcorn2X, s), pv("y", PPopcorn2Y, s), pv("c", PPopcorn2C, s)}},
		{"separation", VarSeparation, []cbVarParam{pv("x", PSeparationX, s), pv("xinside", PSeparationXinside, s), pv("y", PSeparationY, s), pv("yinside", PSeparationYinside, s)}},
		{"split", VarSplit, []cbVarParam{pv("xsize", PSplitXsize, s), pv("ysize", PSplitYsize, s)}},
		{"splits", VarSplits, []cbVarParam{pv("x", PSplitsX, s), pv("y", PSplitsY, s)}},
		{"stripes", VarStripes, []cbVarParam{pv("space", PStripesSpace, s), pv("warp", PStripesWarp, s)}},
		{"wedge", VarWedge, []cbVarParam{pv("angle", PWedgeAngle, s), pv("hole", PWedgeHole, s), pv("count", PWedgeCount, ss), pv("swirl", PWedgeSwirl, s)}},
		{"whorl", VarWhorl, []cbVarParam{pv("inside", PWhorlInside, s), pv("outside", PWhorlOutside, s)}},
		{"waves2", VarWaves2, []cbVarParam{pv("scalex", PWaves2Scalex, ss), pv("scaley", PWaves2Scaley, ss),
			pv("freqx", PWaves2Freqx, cbSM(math.Pi)), pv("freqy", PWaves2Freqy, cbSM(math.Pi))}},
		{"flux", VarFlux, []cbVarParam{pv("spread", PFluxSpread, s)}},
		{"mobius", VarMobius, []cbVarParam{pv("re_a", PMobiusReA, s), pv("im_a", PMobiusImA, s), pv("re_b", PMobiusReB, s), pv("im_b", PMobiusImB, s),
			pv("re_c", PMobiusReC, s), pv("im_c", PMobiusImC, s), pv("re_d", PMobiusReD, s), pv("im_d", PMobiusImD, s)}},
	} {
		m[v.name] = cbVariation{v.id, v.ps}
	}
	// The parameterless ones, named as flam3 names them.
	for _, id := range []VarID{VarLinear, VarSinusoidal, VarSpherical, VarSwirl, VarHorseshoe, VarPolar, VarHandkerchief,
		VarHeart, VarDisc, VarSpiral, VarHyperbolic, VarDiamond, VarEx, VarJulia, VarBent, VarWaves, VarFisheye, VarPopcorn,
		VarExponential, VarPower, VarCosine, VarRings, VarFan, VarEyefish, VarBubble, VarCylinder, VarNoise, VarBlur,
		VarGaussianBlur, VarArch, VarTangent, VarSquare, VarRays, VarBlade, VarSecant2, VarCross, VarBoarders, VarButterfly,
		VarEdisc, VarElliptic, VarFoci, VarLoonie, VarPreBlur, VarPolar2, VarScry, VarExp, VarLog, VarSin, VarCos, VarTan,
		VarSec, VarCsc, VarCot, VarSinh, VarCosh, VarTanh, VarSech, VarCsch, VarCoth} {
		m[VarNames[id]] = cbVariation{id: id}
	}
	return m
}()

// cbVariationNames lists cuburn's variation names, sorted, for messages.
func cbVariationNames() []string {
	names := make([]string, 0, len(cbVariations))
	for n := range cbVariations {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// cbVarSpec is the spec of a variation's dict: its weight and parameters.
func cbVarSpec(v cbVariation) *cbSpec {
	f := map[string]*cbSpec{"weight": cbS(0)}
	for _, p := range v.params {
		f[p.name] = p.spec
	}
	return cbD(f)
}

var cbVariationsSpec = func() *cbSpec {
	f := map[string]*cbSpec{}
	for n, v := range cbVariations {
		f[n] = cbVarSpec(v)
	}
	return cbD(f)
}()

var cbAffineSpec = cbD(map[string]*cbSpec{
	"angle": cbSP(45, 360), "spread": cbSP(45, 360),
	"magnitude": cbXY(cbSM(1)), "offset": cbXY(cbS(0)),
})

var cbXformSpec = cbD(map[string]*cbSpec{
	"pre_affine": cbAffineSpec, "post_affine": cbAffineSpec,
	"color": cbS(0), "color_speed": cbS(0.5), "weight": cbS(0), "opacity": cbSM(1),
	"variations": cbVariationsSpec,
})

var cbFiltersSpec = cbD(map[string]*cbSpec{
	"bilateral": cbD(map[string]*cbSpec{"spatial_std": cbSM(6), "color_std": cbSM(0.05), "density_std": cbSM(1.5),
		"density_pow": cbSM(0.8), "gradient": cbSM(4)}),
	"colorclip": cbD(map[string]*cbSpec{"gamma": cbSM(4), "gamma_threshold": cbS(0.01), "highlight_power": cbS(-1), "vibrance": cbSM(1)}),
	"de":        cbD(map[string]*cbSpec{"radius": cbSM(11), "minimum": cbSM(0), "curve": cbSM(0.6)}),
	"haloclip":  cbD(map[string]*cbSpec{}),
	"smearclip": cbD(map[string]*cbSpec{"width": cbSM(0.7)}),
	"plainclip": cbD(map[string]*cbSpec{"brightness": cbSM(1)}),
	"logscale":  cbD(map[string]*cbSpec{"brightness": cbSM(4)}),
	"logencode": cbD(map[string]*cbSpec{"degamma": cbSM(2.2)}),
	"yuv":       cbD(map[string]*cbSpec{}),
})

var cbCameraSpec = cbD(map[string]*cbSpec{
	"center": cbXY(cbS(0)), "spp": cbSM(1), "dither_width": cbSM(1), "rotation": cbSP(0, 360), "scale": cbSM(1),
})

var cbBlendSpec = cbD(map[string]*cbSpec{
	"duration": {kind: cbScalar, def: 2}, "xform_sort": cbStr, "xform_map": cbLst,
})

func cbBaseSpec(xforms *cbSpec, extra map[string]*cbSpec) *cbSpec {
	f := map[string]*cbSpec{
		"name": cbStr, "base": cbStr, "type": cbStr, "doc": cbStr,
		"camera": cbCameraSpec, "filters": cbFiltersSpec, "palette": cbLst,
		"xforms": xforms, "final_xform": cbXformSpec,
		"time":   cbD(map[string]*cbSpec{"duration": {kind: cbScalar, def: 1}, "frame_width": cbSM(1)}),
		"blend":  cbBlendSpec,
		"author": cbD(map[string]*cbSpec{"name": cbStr, "user": cbStr, "url": cbStr}),
	}
	for k, v := range extra {
		f[k] = v
	}
	return cbD(f)
}

var (
	cbNodeSpec = cbBaseSpec(&cbSpec{kind: cbMap, elem: cbXformSpec}, nil)
	cbEdgeSpec = cbBaseSpec(cbD(map[string]*cbSpec{
		"src": {kind: cbMap, elem: cbXformSpec}, "dst": {kind: cbMap, elem: cbXformSpec},
	}), map[string]*cbSpec{"link": cbD(map[string]*cbSpec{"src": cbStr, "dst": cbStr})})
)

// cbProfileSpec is the render profile: plain numbers, and filter values that
// multiply the genome's.
var cbProfileSpec = func() *cbSpec {
	num := &cbSpec{kind: cbProfVal}
	filters := map[string]*cbSpec{}
	for name, f := range cbFiltersSpec.fields {
		ps := map[string]*cbSpec{}
		for k := range f.fields {
			ps[k] = num
		}
		filters[name] = cbD(ps)
	}
	filters["logscale"].fields["scale"] = num
	return cbD(map[string]*cbSpec{
		"type": cbStr, "name": cbStr, "doc": cbStr,
		"duration": num, "fps": num, "frame_width": num, "start": num, "end": num, "skip": num, "shard": num,
		"height": num, "width": num, "spp": num, "filter_order": cbLst, "filters": cbD(filters), "output": cbAnyV,
	})
}()

// lookup walks a dotted path down the spec; nil when a key is unknown.
func (s *cbSpec) lookup(path []string) *cbSpec {
	for _, k := range path {
		switch {
		case s == nil:
			return nil
		case s.kind == cbMap:
			s = s.elem
		case s.kind == cbDict:
			s = s.fields[k]
		case s.kind == cbAny:
			return s
		default:
			return nil
		}
	}
	return s
}
