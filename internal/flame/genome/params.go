package genome

import (
	"math"
	"math/rand/v2"

	"github.com/procgen-dev/procgen/internal/flame"
)

// paramRange is where a random genome draws a variation parameter from:
// uniform in [lo, hi], rounded when whole. The ranges are those
// flam3-genome's random genomes show; parameters not listed keep flam3's
// defaults (julian_dist, auger_sym, super_shape_m ...).
type paramRange struct {
	lo, hi float64
	whole  bool
}

var paramRanges = map[flame.ParamID]paramRange{
	flame.PBlobLow: {0.2, 0.7, false}, flame.PBlobHigh: {0.8, 1.2, false}, flame.PBlobWaves: {2, 6, true},
	flame.PPdjA: {-3, 3, false}, flame.PPdjB: {-3, 3, false}, flame.PPdjC: {-3, 3, false}, flame.PPdjD: {-3, 3, false},
	flame.PFan2X: {-1, 1, false}, flame.PFan2Y: {-1, 1, false}, flame.PRings2Val: {0, 2, false},
	flame.PPerspectiveAngle: {0, 1, false}, flame.PPerspectiveDist: {1, 3, false},
	flame.PJulianPower: {2, 6, true}, flame.PJuliascopePower: {2, 6, true},
	flame.PPieSlices: {0, 10, false}, flame.PPieRotation: {-2 * math.Pi, 2 * math.Pi, false}, flame.PPieThickness: {0, 1, false},
	flame.PNgonSides: {3, 3, true}, flame.PNgonPower: {1, 4, false}, flame.PNgonCircle: {0, 3, false}, flame.PNgonCorners: {0, 5, false},
	flame.PCurlC1: {0, 1, false}, flame.PCurlC2: {0, 1, false},
	flame.PRectanglesX: {0, 1, false}, flame.PRectanglesY: {0, 1, false},
	flame.PDisc2Rot: {0, 0.5, false}, flame.PDisc2Twist: {0, 0.5, false},
	flame.PSuperShapeRnd: {0, 1, false}, flame.PSuperShapeN1: {1, 40, false}, flame.PSuperShapeN2: {0, 20, false},
	flame.PSuperShapeN3: {0, 20, false},
	flame.PFlowerPetals: {0, 4, false}, flame.PFlowerHoles: {0, 1, false},
	flame.PConicEccentricity: {0, 1, false}, flame.PConicHoles: {0, 1, false},
	flame.PParabolaHeight: {0.5, 1.5, false}, flame.PParabolaWidth: {0.5, 1.5, false},
	flame.PBent2X: {-1.5, 1.5, false}, flame.PBent2Y: {-1.5, 1.5, false}, flame.PBipolarShift: {-1, 1, false},
	flame.PCellSize: {0.5, 2.5, false},
	flame.PCpowR:    {0, 3, false}, flame.PCpowI: {-0.5, 0.5, false}, flame.PCpowPower: {0, 4, true},
	flame.PCurveXamp: {-2.5, 2.5, false}, flame.PCurveYamp: {-2, 2, false}, flame.PCurveXlength: {1, 3, false},
	flame.PCurveYlength:  {1, 3, false},
	flame.PEscherBeta:    {-math.Pi, math.Pi, false},
	flame.PLazysusanSpin: {-math.Pi, math.Pi, false}, flame.PLazysusanSpace: {-2, 2, false}, flame.PLazysusanTwist: {-2, 2, false},
	flame.PLazysusanX: {-2, 2, false}, flame.PLazysusanY: {-2, 2, false},
	flame.PModulusX: {-1, 1, false}, flame.PModulusY: {-1, 1, false},
	flame.POscilloscopeSeparation: {0, 2, false}, flame.POscilloscopeFrequency: {-math.Pi, math.Pi, false},
	flame.POscilloscopeAmplitude: {1, 3, false}, flame.POscilloscopeDamping: {0, 1, false},
	flame.PPopcorn2X: {0, 0.2, false}, flame.PPopcorn2Y: {0, 0.2, false}, flame.PPopcorn2C: {0, 5, false},
	flame.PStripesSpace: {0, 1, false}, flame.PStripesWarp: {0, 5, false},
	flame.PWedgeAngle: {0, math.Pi, false}, flame.PWedgeHole: {-0.5, 0.5, false}, flame.PWedgeCount: {1, 5, true},
	flame.PWedgeSwirl:      {0, 1, false},
	flame.PWedgeJuliaAngle: {0, math.Pi, false}, flame.PWedgeJuliaCount: {1, 3, true}, flame.PWedgeJuliaPower: {2, 6, true},
	flame.PWedgeSphAngle: {0, math.Pi, false}, flame.PWedgeSphCount: {1, 5, true}, flame.PWedgeSphHole: {-0.5, 0.5, false},
	flame.PWedgeSphSwirl: {0, 1, false},
	flame.PWhorlInside:   {0, 1, false}, flame.PWhorlOutside: {0, 1, false},
	flame.PWaves2Freqx: {0, 4, false}, flame.PWaves2Scalex: {0.5, 1.5, false}, flame.PWaves2Freqy: {0, 4, false},
	flame.PWaves2Scaley: {0.5, 1.5, false},
	flame.PAugerWeight:  {0.5, 1, false}, flame.PAugerFreq: {1, 5, true}, flame.PAugerScale: {0, 1, false},
	flame.PFluxSpread: {0.5, 1, false},
	flame.PMobiusReA:  {-1, 1, false}, flame.PMobiusImA: {-1, 1, false}, flame.PMobiusReB: {-1, 1, false},
	flame.PMobiusImB: {-1, 1, false}, flame.PMobiusReC: {-1, 1, false}, flame.PMobiusImC: {-1, 1, false},
	flame.PMobiusReD: {-1, 1, false}, flame.PMobiusImD: {-1, 1, false},
}

// randomParams draws the parameters of x's variations (all of them, in
// parameter order, so the draws do not depend on map order).
func randomParams(r *rand.Rand, x *flame.Xform) {
	for p := flame.ParamID(0); p < flame.PrecalcFirst; p++ {
		pr, ok := paramRanges[p]
		if !ok || !uses(x, p) {
			continue
		}
		v := pr.lo + r.Float64()*(pr.hi-pr.lo)
		if pr.whole {
			v = math.Floor(pr.lo + r.Float64()*(pr.hi-pr.lo+1))
			v = min(v, pr.hi)
		}
		x.Params[p] = v
	}
}

// uses reports whether parameter p belongs to one of x's variations: its
// name is the variation's name and an underscore and a parameter name.
func uses(x *flame.Xform, p flame.ParamID) bool {
	name := flame.ParamNames[p]
	for _, t := range x.Vars {
		v := flame.VarNames[t.ID]
		if len(name) > len(v) && name[:len(v)] == v && name[len(v)] == '_' && !longerMatch(name, v) {
			return true
		}
	}
	return false
}

// longerMatch reports whether a longer variation name also prefixes name
// (wedge_julia_angle belongs to wedge_julia, not wedge).
func longerMatch(name, v string) bool {
	for _, w := range flame.VarNames {
		if len(w) > len(v) && len(name) > len(w) && name[:len(w)] == w && name[len(w)] == '_' {
			return true
		}
	}
	return false
}
