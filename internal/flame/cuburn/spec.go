package cuburn

import (
	"math"
	"sort"

	"github.com/procgen-dev/procgen/internal/flame"
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
	id   flame.ParamID
	spec *cbSpec
}

// cbVariation maps one of cuburn's variation names to ours.
type cbVariation struct {
	id     flame.VarID
	params []cbVarParam
}

// cbVariations is cuburn's variation list (genome/variations.py): its names
// (oscope is our oscilloscope), its parameters and their defaults, which
// differ from flam3's for some (blob_low is 1 in cuburn, 0 in flam3).
// Variations cuburn does not list (twintrian, wedge_julia, wedge_sph, auger)
// are refused, as cuburn refuses them.
var cbVariations = func() map[string]cbVariation {
	s, ss := cbS(0), cbSM(1)
	pv := func(name string, id flame.ParamID, sp *cbSpec) cbVarParam {
		c := *sp
		c.isVar = true
		return cbVarParam{name, id, &c}
	}
	m := map[string]cbVariation{}
	for _, v := range []struct {
		name string
		id   flame.VarID
		ps   []cbVarParam
	}{
		{"blob", flame.VarBlob, []cbVarParam{pv("low", flame.PBlobLow, ss), pv("high", flame.PBlobHigh, ss), pv("waves", flame.PBlobWaves, ss)}},
		{"pdj", flame.VarPdj, []cbVarParam{pv("a", flame.PPdjA, s), pv("b", flame.PPdjB, s), pv("c", flame.PPdjC, s), pv("d", flame.PPdjD, s)}},
		{"fan2", flame.VarFan2, []cbVarParam{pv("x", flame.PFan2X, s), pv("y", flame.PFan2Y, s)}},
		{"rings2", flame.VarRings2, []cbVarParam{pv("val", flame.PRings2Val, s)}},
		{"perspective", flame.VarPerspective, []cbVarParam{pv("angle", flame.PPerspectiveAngle, cbSP(0, 4)), pv("dist", flame.PPerspectiveDist, ss)}},
		{"julian", flame.VarJulian, []cbVarParam{pv("power", flame.PJulianPower, ss), pv("dist", flame.PJulianDist, ss)}},
		{"juliascope", flame.VarJuliascope, []cbVarParam{pv("power", flame.PJuliascopePower, ss), pv("dist", flame.PJuliascopeDist, ss)}},
		{"radial_blur", flame.VarRadialBlur, []cbVarParam{pv("angle", flame.PRadialBlurAngle, cbSP(0, 4))}},
		{"pie", flame.VarPie, []cbVarParam{pv("slices", flame.PPieSlices, cbS(6)), pv("rotation", flame.PPieRotation, s), pv("thickness", flame.PPieThickness, cbS(0.5))}},
		{"ngon", flame.VarNgon, []cbVarParam{pv("sides", flame.PNgonSides, cbS(5)), pv("power", flame.PNgonPower, cbS(3)), pv("circle", flame.PNgonCircle, cbS(1)), pv("corners", flame.PNgonCorners, cbS(2))}},
		{"curl", flame.VarCurl, []cbVarParam{pv("c1", flame.PCurlC1, cbS(1)), pv("c2", flame.PCurlC2, s)}},
		{"rectangles", flame.VarRectangles, []cbVarParam{pv("x", flame.PRectanglesX, s), pv("y", flame.PRectanglesY, s)}},
		{"disc2", flame.VarDisc2, []cbVarParam{pv("rot", flame.PDisc2Rot, s), pv("twist", flame.PDisc2Twist, s)}},
		{"super_shape", flame.VarSuperShape, []cbVarParam{pv("rnd", flame.PSuperShapeRnd, s), pv("m", flame.PSuperShapeM, s), pv("n1", flame.PSuperShapeN1, ss),
			pv("n2", flame.PSuperShapeN2, cbS(1)), pv("n3", flame.PSuperShapeN3, cbS(1)), pv("holes", flame.PSuperShapeHoles, s)}},
		{"flower", flame.VarFlower, []cbVarParam{pv("holes", flame.PFlowerHoles, s), pv("petals", flame.PFlowerPetals, s)}},
		{"conic", flame.VarConic, []cbVarParam{pv("holes", flame.PConicHoles, s), pv("eccentricity", flame.PConicEccentricity, cbS(1))}},
		{"parabola", flame.VarParabola, []cbVarParam{pv("height", flame.PParabolaHeight, ss), pv("width", flame.PParabolaWidth, ss)}},
		{"bent2", flame.VarBent2, []cbVarParam{pv("x", flame.PBent2X, ss), pv("y", flame.PBent2Y, ss)}},
		{"bipolar", flame.VarBipolar, []cbVarParam{pv("shift", flame.PBipolarShift, s)}},
		{"cell", flame.VarCell, []cbVarParam{pv("size", flame.PCellSize, ss)}},
		{"cpow", flame.VarCpow, []cbVarParam{pv("r", flame.PCpowR, ss), pv("i", flame.PCpowI, s), pv("power", flame.PCpowPower, ss)}},
		{"curve", flame.VarCurve, []cbVarParam{pv("xamp", flame.PCurveXamp, s), pv("yamp", flame.PCurveYamp, s), pv("xlength", flame.PCurveXlength, ss), pv("ylength", flame.PCurveYlength, ss)}},
		{"escher", flame.VarEscher, []cbVarParam{pv("beta", flame.PEscherBeta, cbSP(0, 2*math.Pi))}},
		{"lazysusan", flame.VarLazysusan, []cbVarParam{pv("x", flame.PLazysusanX, s), pv("y", flame.PLazysusanY, s), pv("twist", flame.PLazysusanTwist, s),
			pv("space", flame.PLazysusanSpace, s), pv("spin", flame.PLazysusanSpin, s)}},
		{"modulus", flame.VarModulus, []cbVarParam{pv("x", flame.PModulusX, s), pv("y", flame.PModulusY, s)}},
		{"oscope", flame.VarOscilloscope, []cbVarParam{pv("separation", flame.POscilloscopeSeparation, cbS(1)),
			pv("frequency", flame.POscilloscopeFrequency, cbSM(math.Pi)), pv("amplitude", flame.POscilloscopeAmplitude, ss), pv("damping", flame.POscilloscopeDamping, s)}},
		{"popcorn2", flame.VarPopcorn2, []cbVarParam{pv("x", flame.PPopcorn2X, s), pv("y", flame.PPopcorn2Y, s), pv("c", flame.PPopcorn2C, s)}},
		{"separation", flame.VarSeparation, []cbVarParam{pv("x", flame.PSeparationX, s), pv("xinside", flame.PSeparationXinside, s), pv("y", flame.PSeparationY, s), pv("yinside", flame.PSeparationYinside, s)}},
		{"split", flame.VarSplit, []cbVarParam{pv("xsize", flame.PSplitXsize, s), pv("ysize", flame.PSplitYsize, s)}},
		{"splits", flame.VarSplits, []cbVarParam{pv("x", flame.PSplitsX, s), pv("y", flame.PSplitsY, s)}},
		{"stripes", flame.VarStripes, []cbVarParam{pv("space", flame.PStripesSpace, s), pv("warp", flame.PStripesWarp, s)}},
		{"wedge", flame.VarWedge, []cbVarParam{pv("angle", flame.PWedgeAngle, s), pv("hole", flame.PWedgeHole, s), pv("count", flame.PWedgeCount, ss), pv("swirl", flame.PWedgeSwirl, s)}},
		{"whorl", flame.VarWhorl, []cbVarParam{pv("inside", flame.PWhorlInside, s), pv("outside", flame.PWhorlOutside, s)}},
		{"waves2", flame.VarWaves2, []cbVarParam{pv("scalex", flame.PWaves2Scalex, ss), pv("scaley", flame.PWaves2Scaley, ss),
			pv("freqx", flame.PWaves2Freqx, cbSM(math.Pi)), pv("freqy", flame.PWaves2Freqy, cbSM(math.Pi))}},
		{"flux", flame.VarFlux, []cbVarParam{pv("spread", flame.PFluxSpread, s)}},
		{"mobius", flame.VarMobius, []cbVarParam{pv("re_a", flame.PMobiusReA, s), pv("im_a", flame.PMobiusImA, s), pv("re_b", flame.PMobiusReB, s), pv("im_b", flame.PMobiusImB, s),
			pv("re_c", flame.PMobiusReC, s), pv("im_c", flame.PMobiusImC, s), pv("re_d", flame.PMobiusReD, s), pv("im_d", flame.PMobiusImD, s)}},
	} {
		m[v.name] = cbVariation{v.id, v.ps}
	}
	// The parameterless ones, named as flam3 names them.
	for _, id := range []flame.VarID{flame.VarLinear, flame.VarSinusoidal, flame.VarSpherical, flame.VarSwirl, flame.VarHorseshoe, flame.VarPolar, flame.VarHandkerchief,
		flame.VarHeart, flame.VarDisc, flame.VarSpiral, flame.VarHyperbolic, flame.VarDiamond, flame.VarEx, flame.VarJulia, flame.VarBent, flame.VarWaves, flame.VarFisheye, flame.VarPopcorn,
		flame.VarExponential, flame.VarPower, flame.VarCosine, flame.VarRings, flame.VarFan, flame.VarEyefish, flame.VarBubble, flame.VarCylinder, flame.VarNoise, flame.VarBlur,
		flame.VarGaussianBlur, flame.VarArch, flame.VarTangent, flame.VarSquare, flame.VarRays, flame.VarBlade, flame.VarSecant2, flame.VarCross, flame.VarBoarders, flame.VarButterfly,
		flame.VarEdisc, flame.VarElliptic, flame.VarFoci, flame.VarLoonie, flame.VarPreBlur, flame.VarPolar2, flame.VarScry, flame.VarExp, flame.VarLog, flame.VarSin, flame.VarCos, flame.VarTan,
		flame.VarSec, flame.VarCsc, flame.VarCot, flame.VarSinh, flame.VarCosh, flame.VarTanh, flame.VarSech, flame.VarCsch, flame.VarCoth} {
		m[flame.VarNames[id]] = cbVariation{id: id}
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
