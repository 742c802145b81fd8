package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// varTestDefaults are flam3's parameter defaults (initialize_xforms).
func varTestDefaults() Params {
	var p Params
	set := map[ParamID]float64{
		PBlobHigh: 1, PBlobWaves: 1, PBent2X: 1, PBent2Y: 1, PCellSize: 1, PCpowR: 1, PCpowPower: 1,
		PCurveXlength: 1, PCurveYlength: 1, POscilloscopeSeparation: 1, POscilloscopeFrequency: math.Pi,
		POscilloscopeAmplitude: 1, PWedgeCount: 1, PWedgeSphCount: 1, PWedgeJuliaPower: 1,
		PWedgeJuliaCount: 1, PAugerFreq: 1, PAugerWeight: 0.5, PAugerScale: 1, PJulianPower: 1,
		PJulianDist: 1, PJuliascopePower: 1, PJuliascopeDist: 1, PPieSlices: 6, PPieThickness: 0.5,
		PNgonSides: 5, PNgonPower: 3, PNgonCircle: 1, PNgonCorners: 2, PCurlC1: 1, PRectanglesX: 1,
		PRectanglesY: 1, PAmwAmp: 1, PSuperShapeN1: 1, PSuperShapeN2: 1, PSuperShapeN3: 1,
		PConicEccentricity: 1,
	}
	for id, v := range set {
		p[id] = v
	}
	jwfDefaultParams(&p) // JWildfire's own for its variations (julia3D's power 0 would divide by 0)
	return p
}

// varTestParams gives every parameter a value that exercises it.
func varTestParams() Params {
	var p Params
	set := map[ParamID]float64{
		PBlobLow: 0.2, PBlobHigh: 1.1, PBlobWaves: 3, PPdjA: 1.1, PPdjB: -0.7, PPdjC: 2.3, PPdjD: 0.4,
		PFan2X: 0.6, PFan2Y: 1.3, PRings2Val: 0.7, PPerspectiveAngle: 0.35, PPerspectiveDist: 1.8,
		PJulianPower: 3, PJulianDist: 0.8, PJuliascopePower: -4, PJuliascopeDist: 1.3,
		PRadialBlurAngle: 0.4, PPieSlices: 5, PPieRotation: 0.3, PPieThickness: 0.6,
		PNgonSides: 5, PNgonPower: 2.5, PNgonCircle: 0.9, PNgonCorners: 1.7, PCurlC1: 0.6, PCurlC2: -0.3,
		PRectanglesX: 0.7, PRectanglesY: 1.3, PAmwAmp: 1, PDisc2Rot: 0.8, PDisc2Twist: 7,
		PSuperShapeRnd: 0.3, PSuperShapeM: 5, PSuperShapeN1: 1.5, PSuperShapeN2: 0.8,
		PSuperShapeN3: 1.2, PSuperShapeHoles: 0.1, PFlowerPetals: 3.5, PFlowerHoles: 0.2,
		PConicEccentricity: 0.6, PConicHoles: 0.1, PParabolaHeight: 1.2, PParabolaWidth: 0.8,
		PBent2X: 1.7, PBent2Y: -0.6, PBipolarShift: 0.7, PCellSize: 0.6, PCpowR: 1.4, PCpowI: 0.3,
		PCpowPower: 3, PCurveXamp: 0.5, PCurveYamp: -0.4, PCurveXlength: 0.9, PCurveYlength: 1.3,
		PEscherBeta: 0.7, PLazysusanSpin: 0.4, PLazysusanSpace: 0.5, PLazysusanTwist: 0.9,
		PLazysusanX: 0.2, PLazysusanY: -0.3, PModulusX: 0.8, PModulusY: 1.1,
		POscilloscopeSeparation: 0.8, POscilloscopeFrequency: 1.2, POscilloscopeAmplitude: 0.7,
		POscilloscopeDamping: 0.3, PPopcorn2X: 0.3, PPopcorn2Y: 0.4, PPopcorn2C: 1.7,
		PSeparationX: 0.5, PSeparationXinside: 0.2, PSeparationY: 0.4, PSeparationYinside: -0.3,
		PSplitXsize: 0.7, PSplitYsize: 1.3, PSplitsX: 0.3, PSplitsY: -0.2, PStripesSpace: 0.4,
		PStripesWarp: 0.9, PWedgeAngle: 0.6, PWedgeHole: 0.2, PWedgeCount: 3, PWedgeSwirl: 0.3,
		PWedgeJuliaAngle: 0.5, PWedgeJuliaCount: 2, PWedgeJuliaPower: 3, PWedgeJuliaDist: 0.9,
		PWedgeSphAngle: 0.4, PWedgeSphCount: 4, PWedgeSphHole: 0.1, PWedgeSphSwirl: 0.2,
		PWhorlInside: 0.3, PWhorlOutside: 0.6, PWaves2Freqx: 2, PWaves2Scalex: 0.3,
		PWaves2Freqy: 1.5, PWaves2Scaley: 0.2, PAugerSym: 0.6, PAugerWeight: 0.4, PAugerFreq: 2.5,
		PAugerScale: 0.8, PFluxSpread: 0.3, PMobiusReA: 1.1, PMobiusImA: 0.2, PMobiusReB: -0.3,
		PMobiusImB: 0.4, PMobiusReC: 0.5, PMobiusImC: -0.6, PMobiusReD: 1.2, PMobiusImD: 0.1,
		PJulia3DPower: 3, PJulia3DzPower: -2, PCurl3DCx: 0.1, PCurl3DCy: -0.2, PCurl3DCz: 0.15,
		PBlob3DLow: 0.2, PBlob3DHigh: 1.1, PBlob3DWaves: 3, PSineblurPower: 0.7, PEpispiralWfWaves: 3,
		PAffine3DTranslateX: 0.2, PAffine3DScaleY: 0.8, PAffine3DRotateZ: 25, PAffine3DShearXZ: 0.1,
		PHypertile2P: 5, PHypertile2Q: 4, PHypertile1P: 4, PHypertile1Q: 5,
		PBwraps7Cellsize: 0.7, PBwraps7Space: 0.2, PBwraps7Gain: 1.5, PBwraps7InnerTwist: 0.4, PBwraps7OuterTwist: -0.3,
		PBoarders2C: 0.5, PBoarders2Left: 0.6, PBoarders2Right: 0.4,
		PJulian2Power: 3, PJulian2Dist: 0.8, PJulian2A: 1.1, PJulian2B: 0.2, PJulian2C: -0.1, PJulian2D: 0.9,
		PJuliacRe: 3.5, PJuliacIm: 10, PJuliacDist: 0.9,
		PWaves4WfScalex: 0.4, PWaves4WfFreqx: 1.7, PWaves4WfDampy: -0.2, PPoincare3DR: 0.5, PPoincare3DA: 0.4,
		PPoincare3DB: -0.3, PSpirographA: 2, PSpirographB: 1.5, PSpirographTmax: 2, PSpirographYmin: -0.5, PSpirographD: 0.3,
		PSpirographC1: 0.2, PSpirographC2: -0.1, PCannabiscurveWfFilled: 0.5, PCloverleafWfFilled: 0.3,
		PEpispiralN: 4, PEpispiralThickness: 0.2, PEpispiralHoles: 0.5,
		PYinYangRadius: 0.4, PYinYangAng1: 0.2, PYinYangAng2: 0.7, PYinYangDualT: 1, PYinYangOutside: 1,
		PLinearTPowX: 1.5, PLinearTPowY: 0.8, PBlurZoomLength: 0.3, PBlurZoomX: 0.1, PBlurLinearLength: 0.5,
		PBlurLinearAngle: 1, PJuliaqPower: 3, PJuliaqDivisor: 2, PWaves2RadialScalex: 0.2, PWaves2RadialFreqx: 3,
		PWaves2RadialNull: 0.5, PWaves2RadialDistance: 2, PWaves2WfScalex: 0.3, PWaves2WfFreqy: 2, PTileLogSpread: 0.7,
		PStarblurPower: 4, PStarblurRange: 0.5, PBubble2X: 0.8, PBubble2Y: 1.2, PBubble2Z: 0.1, PWaffleSlices: 5,
		PWaffleXthickness: 0.4, PWaffleYthickness: 0.6, PWaffleRotation: 0.3, PWaves23Scalex: 0.2, PWaves23Scaley: 0.1, PWaves23Freqx: 5, PWaves23Freqy: 3,
		PWaves2bFreqx: 1.5, PWaves2bFreqy: 2, PWaves2bPwx: 1, PWaves2bPwy: 1.5, PWaves2bScalex: 0.4, PWaves2bScaley: 0.3,
		PWaves2bUnity: 1, PWaves3WfScalex: 0.3, PWaves3WfFreqy: 2, PWaves22Scalex: 0.2, PWaves22Freqx: 3, PWaves22Powerx: 2,
		PWaves3Scalex: 0.2, PWaves3Freqx: 3, PWaves4Scalex: 0.3, PWaves4Freqx: 4, PXheartRatio: 0.5,
		PFdiscAshift: 1, PFdiscRshift: 1, PFdiscTerm1: 1, POctagonX: 0.1, POctagonMode: 1, PNpolarN: 3,
		PVibration2Freq: 1.5, PVibration2Amp: 0.3, PVibration2Freq2: 0.8, PVibration2Amp2: 0.2, PVibration2Tm: 0.1,
		PXtrbPower: 3, PXtrbRadius: 1, PXtrbWidth: 0.5, PXtrbDist: 1, PXtrbA: 0.8, PXtrbB: 1.1,
		PWavesnFreqx: 2, PWavesnScalex: 0.5, PWavesnPower: 3, PNBlurNumEdges: 5, PNBlurNumStripes: 2,
		PNBlurRatioStripes: 0.5, PNBlurRatioHole: 0.3, PJulian3DxPower: 3, PJulian3DxDist: 1, PJulian3DxA: 1, PJulian3DxD: 1,
		PTileHlpWidth: 0.6, PFalloff2Scatter: 1, PFalloff2MulX: 1, PFalloff2MulY: 0.5, PFalloff2Type: 1,
		PMobiusFrReA: 0.8, PMobiusFrImB: 0.3, PMobiusFrReC: 0.4, PMobiusFrReD: 1.1, PBwrapsCellsize: 0.6, PBwrapsGain: 1.2,
		PLinearT3DPowX: 1.3, PLinearT3DPowY: 0.7, PMurlC: 0.3, PMurlPower: 3, PShredlinXdistance: 0.7, PShredlinXwidth: 0.4,
		PShredlinYdistance: 1.2, PShredlinYwidth: 0.6, PTargetEven: 0.5, PTargetOdd: 2, PTargetSize: 0.7,
		PBarycentroidA: 1, PBarycentroidB: 0.2, PBarycentroidC: -0.3, PBarycentroidD: 0.9, PBTransformPower: 2,
		PBTransformRotate: 0.3, PGlynnSim1Radius: 0.8, PGlynnSim1Radius1: 0.2, PGlynnSim1Phi1: 45,
		PGlynnSim1Thickness: 0.2, PGlynnSim1Pow: 1.5, PGlynnSim1Contrast: 0.5, PHypertileP: 4, PHypertileQ: 5,
		PHypertileN: 1, PTruchetExponent: 2, PTruchetArcWidth: 0.6, PTruchetSize: 1, PTruchetSeed: 7,
		PMcarpetX: 0.8, PMcarpetY: 0.6, PMcarpetTwist: 0.3, PCos2BsX1: 1.2, PCos2BsX2: 0.8, PCos2BsY1: 1, PCos2BsY2: 0.5,
		PSec2BsX1: 1, PSec2BsX2: 0.6, PSec2BsY1: 1.2, PSec2BsY2: 0.4, PMapleLeafFilled: 0.4, PJapaneseMapleLeafFilled: 0.2,
		PDisc3DPi: 3, PLissajousTmin: -3, PLissajousTmax: 3, PLissajousA: 2, PLissajousB: 3, POscilloscope2Separation: 0.8,
		POscilloscope2Frequencyx: 2, POscilloscope2Frequencyy: 1.5, POscilloscope2Amplitude: 0.7, PSpligonSides: 4, PSpligonR: 0.8,
		PSpligonI: 1, PGlynnSim2Radius: 0.8, PGlynnSim2Thickness: 0.2, PGlynnSim2Contrast: 0.5, PGlynnSim2Pow: 1.5,
		PGlynnSim2Phi1: 30, PGlynnSim2Phi2: 120, PDSphericalDSpherWeight: 0.4, PMinkowskopeSeparation: 0.5,
		PMinkowskopeFrequencyx: -2, PMinkowskopeFrequencyy: 2, PMinkowskopeAmplitude: 0.5, PMinkowskopePerturbation: 1,
		PCirclesplitCsRadius: 0.8, PCirclesplitCsSplit: 0.3, PEJuliaPower: 3, PCirclize2Hole: 0.1, PCpow3WfR: 1,
		PCpow3WfA: 0.2, PCpow3WfDivisor: 2, PCpow3WfSpread: 1.5, PCpow3WfDiscreteSpread: 1, PCpow3WfOffset2: 1,
		PSpirograph3DA: 1, PSpirograph3DB: 0.4, PSpirograph3DC: 0.3, PSpirograph3DTmax: 10, PSpirograph3DWidth: 0.1,
		PChunkA: 1, PChunkC: 1, PChunkF: -1, PCsc2BsX1: 1, PCsc2BsX2: 0.8, PCsc2BsY1: 1.2, PCsc2BsY2: 1,
		PCosh2BsX1: 1, PCosh2BsX2: 0.7, PCosh2BsY1: 1, PCosh2BsY2: 1.3, PCot2BsX1: 2, PCot2BsX2: 1.5, PCot2BsY1: 2,
		PCot2BsY2: 2.5, PCoth2BsX1: 2, PCoth2BsX2: 2.5, PCoth2BsY1: 2, PCoth2BsY2: 1.5, PSech2BsX1: 1.25, PSech2BsX2: 0.75,
		PSech2BsY1: 1.5, PSech2BsY2: 0.75, PSinh2BsX1: 1, PSinh2BsX2: 0.9, PSinh2BsY1: 1.1, PSinh2BsY2: 1, PTan2BsX1: 2,
		PTan2BsX2: 1.6, PTan2BsY1: 2, PTan2BsY2: 2.4, PTanh2BsX1: 2, PTanh2BsX2: 2.4, PTanh2BsY1: 2, PTanh2BsY2: 1.6,
		PExp2BsX1: 1, PExp2BsY1: 1, PExp2BsY2: 0.8, PCardioidA: 2, PChecksX: 2, PChecksY: 1, PChecksSize: 0.5, PChecksRnd: 0.3,
		PSph3DX: 0.8, PSph3DY: 1, PSph3DZ: 0.5, PSigmoidShiftx: 2, PSigmoidShifty: 0.5, PShiftShiftX: 0.2, PShiftAngle: 30,
		PTriangleX1: -0.3, PTriangleX2: 0.3, PTriangleY3: 0.4, PConeRadius1: 0.5, PConeRadius2: 1, PConeSize1: 0.5,
		PConeSize2: 2, PConeYwave: 1, PConeXwave: 1, PConeHeight: 1, PConeWarp: 1, PConeWeight: 2,
		PPowBlockNumerator: 3, PPowBlockDenominator: 2, PPowBlockRoot: 1, PPowBlockCorrectn: 1, PPowBlockCorrectd: 1,
		PLoonie2Sides: 5, PLoonie2Star: 0.2, PLoonie2Circle: 0.3, PHypershiftShift: 0.5, PHypershiftStretch: 1,
		PEnnepers2A: 1, PEnnepers2B: 0.4, PEnnepers2C: 0.1, PEScaleScale: 1.5, PEScaleAngle: 0.2, PLineDelta: 0.3,
		PLinePhi: 0.1, PSphericalNPower: 3, PSphericalNDist: 1, PLoziA: 0.5, PLoziB: 1, PLoziC: 1, PHenonA: 0.5, PHenonB: 1,
		PHenonC: 1, PCpow3R: 1, PCpow3D: 1.5, PCpow3Divisor: 2, PCpow3Spread: 1, PHypertile3DP: 4, PHypertile3DQ: 5,
		PSuperShape3dRho: 5, PSuperShape3dPhi: 2, PSuperShape3dM1: 4, PSuperShape3dM2: 3, PSuperShape3dA1: 1, PSuperShape3dA2: 1,
		PSuperShape3dB1: 1, PSuperShape3dB2: 1, PSuperShape3dN11: 1, PSuperShape3dN12: 1, PSuperShape3dN21: 1,
		PSuperShape3dN22: 1, PSuperShape3dN31: 1, PSuperShape3dN32: 1, PEMotionMove: 0.3, PEMotionRotate: 0.2,
		PHypertile3D2P: 4, PHypertile3D2Q: 5, PCubic3DXpand: 0.3, PCubic3DStyle: 1, PCollideoscopeA: 0.2, PCollideoscopeNum: 3,
		PAsteriaAlpha: 0.1, PFalloffFrScatter: 1, PFalloffFrMindist: 0.3, PFalloffFrMulX: 1, PFalloffFrMulY: 1,
		PFalloffFrBoxpow: 2, PRblurStrength: 1, PRblurOffset: 0.5, PSphereblurPower: 1, PBcircleScale: 1, PBcircleBorderwidth: 0.3,
		PSeashell3DFinalRadius: 0.3, PSeashell3DHeight: 2, PSeashell3DInnerRadius: 0.4, PSeashell3DNSpirals: 3, PRoseWfAmp: 0.5,
		PRoseWfWaves: 4, PRoseWfFilled: 0.5, PPTransformRotate: 0.3, PPTransformPower: 2, PPTransformMove: 0.4,
		PPTransformUseLog: 1, PKaleidoscopeRotate: 1, PKaleidoscopeLineUp: 1, PWaveblurWfCount: 5, PWaveblurWfAmplitudeZ: 0.5,
		PHexesCellsize: 0.7, PHexesPower: 1.2, PHexesRotate: 0.2, PHexesScale: 1, PFalloff3BlurStrength: 1.5,
		PFalloff3MinDistance: 0.3, PFalloff3MulX: 1, PFalloff3MulY: 0.8, PFalloff3BlurType: 1,
		PLazyTravisSpinIn: 0.5, PLazyTravisSpinOut: 0.3, PLazyTravisSpace: 0.2, PJoukowskiP1: 1.5, PJoukowskiP2: 0.1,
		PGnarlyCellsize: 0.8, PGnarlyTwist: 0.5,
		PExBlurDist: 0.5, PExBlurR: 0.25, PGlitchy1ScaleX: 1, PGlitchy1NX: 2, PGlitchy1ScaleY: 1, PGlitchy1NY: 2,
		PGlitchy1NZ: 2, PGlitchy1Width: 1, PGlitchy1Seed: 42, PGlitchy1Angle: 30, PGlitchy1U: 1, PGlitchy1V: 1, PGlitchy1W: 1,
		PLazysensenScaleX: 1, PLazysensenScaleY: 1, PShreddedX1: 1, PShreddedX2: 3, PShreddedX3: 1, PShreddedY1: 1,
		PShreddedY2: 3, PShreddedY3: 1, PShreddedZ1: 1, PShreddedZ2: 3, PShreddedZ3: 1, PCrackleCellsize: 0.6,
		PCracklePower: 0.3, PCrackleDistort: 0.4, PCrackleScale: 1, PPlaneWfPosition: 0.5, PPlaneWfSize: 2,
		PTqmirrorA: 1, PTqmirrorB: 1, PTqmirrorC: 1, PTqmirrorD: 1, PTqmirrorE: 1, PTqmirrorF: 1, PTqmirrorG: 1, PTqmirrorH: 1,
		PTqmirrorI: 1, PTqmirrorJ: 1, PTqmirrorK: 1, PTqmirrorR: 1, PTqmirrorS: 1,
		PScramblyL: 4, PScramblySeed: 77, PScramblyCellsize: 2, PFarblurX: 1, PFarblurY: 1, PFarblurZ: 1,
		PSymNg15Radius: 0.4, PMaurerRoseKn: 2, PMaurerRoseKd: 1, PMaurerRoseLineOffsetDegrees: 71, PMaurerRoseLineCount: 360,
		PMaurerRoseShowLines: 1, PPRose3DL: 1, PPRose3DK: 5, PPRose3DZ1: 1, PPRose3DOpt: 1, PPRose3DOptSc: 1,
		PCliffordJsA: -1.4, PCliffordJsB: 1.6, PCliffordJsC: 1, PCliffordJsD: 0.7, PSattractorJsM: 10,
	}
	for id, v := range set {
		p[id] = v
	}
	return p
}

var (
	varTestCoefs  = Affine{0.9, 0.2, -0.3, 0.8, 0.25, -0.15}
	varTestPoints = [][2]float64{{0.3, -0.7}, {-1.2, 0.4}, {0.9, 1.1}, {-0.25, -0.6}, {1.7, 0.2}, {-0.8, -1.3}}
)

// varRefPoints are the fixed test points and 300 random ones in [-2, 2]².
var varRefPoints = func() [][2]float64 {
	pts := append([][2]float64(nil), varTestPoints...)
	r := rng.NewStream(11)
	for range 300 {
		pts = append(pts, [2]float64{4*r.Float64() - 2, 4*r.Float64() - 2})
	}
	return pts
}()

func varTestXform(c Affine, p Params, terms ...VarTerm) *Xform {
	x := &Xform{Coefs: c, Post: Identity, Params: p, Vars: terms}
	Precalc(x)
	return x
}

func closeTo(got, want, scale float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= 1e-9+1e-8*math.Max(scale, math.Max(math.Abs(got), math.Abs(want)))
}

// refDraws returns the n raw draws a variation will take from r, leaving r
// untouched.
func refDraws(r rng.Stream, n uint8) []uint64 {
	d := make([]uint64, n)
	for i := range d {
		d[i] = r.Uint64()
	}
	return d
}

func TestVarHandDerived(t *testing.T) {
	id := Identity
	shift := func(e, f float64) Affine { return Affine{1, 0, 0, 1, e, f} }
	s3 := math.Sqrt(3)
	tests := []struct {
		name   string
		v      VarID
		c      Affine
		set    map[ParamID]float64
		px, py float64 // input point
		x, y   float64 // expected output
	}{
		{"linear", VarLinear, id, nil, 0.5, -0.25, 0.5, -0.25},
		{"sinusoidal", VarSinusoidal, id, nil, math.Pi / 2, math.Pi / 6, 1, 0.5},
		{"spherical", VarSpherical, id, nil, 1, 1, 0.5, 0.5},
		{"spherical axis", VarSpherical, id, nil, 2, 0, 0.5, 0},
		{"swirl", VarSwirl, id, nil, 1, 0, math.Sin(1), math.Cos(1)},
		{"swirl quarter", VarSwirl, id, nil, 0, math.Sqrt(math.Pi / 2), 0, math.Sqrt(math.Pi / 2)},
		{"horseshoe", VarHorseshoe, id, nil, 3, 4, -1.4, 4.8},
		{"polar", VarPolar, id, nil, 0, 2, 0, 1},
		{"polar x axis", VarPolar, id, nil, 1, 0, 0.5, 0},
		{"handkerchief", VarHandkerchief, id, nil, 0, 1, math.Sin(1), math.Cos(1)},
		{"heart", VarHeart, id, nil, 0, 1, 0, -1},
		{"heart x axis", VarHeart, id, nil, 1, 0, 1, 0},
		{"disc", VarDisc, id, nil, 1, 0, 0, -0.5},
		{"spiral", VarSpiral, id, nil, 0, 1, 1 + math.Sin(1), -math.Cos(1)},
		{"hyperbolic", VarHyperbolic, id, nil, 2, 0, 0.5, 0},
		{"diamond", VarDiamond, id, nil, 1, 0, math.Cos(1), 0},
		{"ex", VarEx, id, nil, 0, 1, math.Pow(math.Sin(1), 3) + math.Pow(math.Cos(1), 3), math.Pow(math.Sin(1), 3) - math.Pow(math.Cos(1), 3)},
		{"bent", VarBent, id, nil, -1, -1, -2, -0.5},
		// waves: x + c·sin(y/e²), y + d·sin(x/f²) with c = 0.5, d = 1, e = f = 1.
		{"waves", VarWaves, Affine{1, 0, 0.5, 1, 1, 1}, nil, math.Pi/2 - 1 - 0.5*(math.Pi/6-1), math.Pi/6 - 1, math.Pi/2 + 0.25, math.Pi/6 + 1},
		{"fisheye", VarFisheye, id, nil, 3, 4, 4.0 / 3, 1},
		{"popcorn", VarPopcorn, shift(0.1, 0.2), nil, math.Pi/12 - 0.1, math.Pi/12 - 0.2, math.Pi/12 + 0.1*math.Sin(1), math.Pi/12 + 0.2*math.Sin(1)},
		{"exponential", VarExponential, id, nil, 1, 0.5, 0, 1},
		{"power", VarPower, id, nil, 3, 4, 0.8 * math.Pow(5, 0.6), 0.6 * math.Pow(5, 0.6)},
		{"cosine", VarCosine, id, nil, 0.5, 0, 0, 0},
		{"cosine at (1, 1)", VarCosine, id, nil, 1, 1, -math.Cosh(1), 0},
		// rings with e = 0.5 (dx = 0.25) at t = (0, 1): fmod(1.25, 0.5) − 0.25 + 0.75 = 0.75.
		{"rings", VarRings, shift(0.5, 0), nil, -0.5, 1, 0.75, 0},
		// fan with e = 1 (wedge π) at t = (1, 1): θ = π/4 < π/2, so θ + π/2.
		{"fan", VarFan, shift(1, 0), nil, 0, 1, -1, 1},
		{"eyefish", VarEyefish, id, nil, 3, 4, 1, 4.0 / 3},
		{"bubble", VarBubble, id, nil, 2, 0, 1, 0},
		{"cylinder", VarCylinder, id, nil, math.Pi / 2, 0.7, 1, 0.7},
		// perspective angle 1/3 (30°), dist 2 at (1, 2): 2/(2 − 2·½) = 1.
		{"perspective", VarPerspective, id, map[ParamID]float64{PPerspectiveAngle: 1.0 / 3, PPerspectiveDist: 2}, 1, 2, 2, 2 * s3},
		{"curl real", VarCurl, id, map[ParamID]float64{PCurlC1: 1}, 1, 0, 0.5, 0},
		{"curl imaginary", VarCurl, id, map[ParamID]float64{PCurlC1: 1}, 0, 1, 0.5, 0.5},
		{"rectangles", VarRectangles, id, map[ParamID]float64{PRectanglesX: 1, PRectanglesY: 1}, 0.3, -0.2, 0.7, -0.8},
		{"rectangles zero", VarRectangles, id, map[ParamID]float64{PRectanglesX: 0, PRectanglesY: 0.5}, 0.3, 0.6, 0.3, 0.9},
		{"cross", VarCross, id, nil, 2, 1, 2.0 / 3, 1.0 / 3},
		{"exp", VarExp, id, nil, 0, math.Pi / 2, 0, 1},
		{"log", VarLog, id, nil, 0, math.E, 1, math.Pi / 2},
		{"mobius 1/z", VarMobius, id, map[ParamID]float64{PMobiusReB: 1, PMobiusReC: 1}, 0, 2, 0, -0.5},
		{"polar2", VarPolar2, id, nil, 0, math.E, 0, 1 / math.Pi},
		{"splits", VarSplits, id, map[ParamID]float64{PSplitsX: 0.5, PSplitsY: 0.25}, -1, 1, -1.5, 1.25},
		{"cell", VarCell, id, map[ParamID]float64{PCellSize: 1}, -0.25, 1.5, 1.75, -2.5},
		{"loonie inside", VarLoonie, id, nil, 0.6, 0, 0.6 * math.Sqrt(1/0.36-1), 0},
		{"loonie outside", VarLoonie, id, nil, 2, 0, 2, 0},
		{"rectangles y zero", VarRectangles, id, map[ParamID]float64{PRectanglesX: 0.5, PRectanglesY: 0}, 0.3, 0.6, 0.2, 0.6},
		// curve clamps a zero length to 1e-20: the bump is 1 on its axis, 0 off it.
		{"curve zero length", VarCurve, id, map[ParamID]float64{PCurveXamp: 1, PCurveYamp: 1, PCurveXlength: 0, PCurveYlength: 0}, 0, 0.5, 0, 1.5},
		// bipolar at (0, ±1): u = 0, v = ±π/4 before the shift of −shift·π/2.
		{"bipolar", VarBipolar, id, nil, 0, 1, 0, 0.5},
		{"bipolar wrap up", VarBipolar, id, map[ParamID]float64{PBipolarShift: -1}, 0, 1, 0, -0.5},
		{"bipolar wrap down", VarBipolar, id, map[ParamID]float64{PBipolarShift: 1}, 0, -1, 0, 0.5},
		// oscilloscope defaults: band |y| <= cos(2π²x) + 1.
		{"oscilloscope inside", VarOscilloscope, id, nil, 0, 0.5, 0, -0.5},
		{"oscilloscope outside", VarOscilloscope, id, nil, 0.5, 1.5, 0.5, 1.5},
		// twintrian at the origin: log10(0) is replaced by −30, times x = 0.
		{"twintrian origin", VarTwintrian, id, nil, 0, 0, 0, 0},
		{"modulus", VarModulus, id, map[ParamID]float64{PModulusX: 1, PModulusY: 0.5}, 1.5, -0.75, -0.5, 0.25},
		{"splits at zero", VarSplits, id, map[ParamID]float64{PSplitsX: 0.5, PSplitsY: 0.25}, 0, 0, 0.5, 0.25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := varTestDefaults()
			for k, v := range tc.set {
				p[k] = v
			}
			x := varTestXform(tc.c, p, VarTerm{tc.v, 1})
			r := rng.NewStream(1)
			gx, gy, _ := ApplyXform(x, tc.px, tc.py, &r)
			if !closeTo(gx, tc.x, 1) || !closeTo(gy, tc.y, 1) {
				t.Errorf("%s(%g, %g) = (%.15g, %.15g), want (%.15g, %.15g)", VarNames[tc.v], tc.px, tc.py, gx, gy, tc.x, tc.y)
			}
		})
	}
}

// TestVarRandomBranches checks the random branches of julia and julian by
// hand: at t = (4, 0) julia gives ±(√2, √2) by the drawn bit; julian with
// power 2 at t = (0, 4) gives ±(√2, √2) by trunc(2u).
func TestVarRandomBranches(t *testing.T) {
	h := math.Sqrt2
	for _, tc := range []struct {
		name   string
		v      VarID
		px, py float64
		branch func(d uint64) int
	}{
		{"julia", VarJulia, 4, 0, func(d uint64) int { return int(d & 1) }},
		{"julian", VarJulian, 0, 4, func(d uint64) int { return int(2 * rng.Float64(d)) }},
	} {
		p := varTestDefaults()
		p[PJulianPower], p[PJulianDist] = 2, 1
		x := varTestXform(Identity, p, VarTerm{tc.v, 1})
		var seen [2]bool
		for seed := uint64(0); seed < 64; seed++ {
			r := rng.NewStream(seed)
			b := tc.branch(refDraws(r, 1)[0])
			seen[b] = true
			want := h * float64(1-2*b)
			gx, gy, _ := ApplyXform(x, tc.px, tc.py, &r)
			if !closeTo(gx, want, 1) || !closeTo(gy, want, 1) {
				t.Errorf("%s seed %d branch %d: (%g, %g), want (%g, %g)", tc.name, seed, b, gx, gy, want, want)
			}
		}
		if !seen[0] || !seen[1] {
			t.Errorf("%s: only saw branches %v in 64 seeds", tc.name, seen)
		}
	}
}

// TestVarReference compares every variation, alone, with its reference
// formula at several points, for weight 1 and a non-unit weight, using the
// draws the "Random draws" table documents, and checks that exactly that
// many draws were taken. refs are flam3's formulas; JWildfire's variations
// are checked against JWildfire's classes (TestJWildfireReference) and by
// hand-derived z values (TestApplyXform3DZ).
func TestVarReference(t *testing.T) {
	p := varTestParams()
	for id := VarID(0); id < Flam3NumVars; id++ {
		if id == VarPreBlur {
			continue // moves t only: TestApplyXformPreBlur
		}
		for _, w := range []float64{1, 0.7, 1.6} {
			x := varTestXform(varTestCoefs, p, VarTerm{id, w})
			for i, pt := range varRefPoints {
				r := rng.NewStream(uint64(1000*int(id) + i))
				d := refDraws(r, varDraws[id])
				in := refIn{w: w, c: &x.Coefs, p: &x.Params, d: d}
				in.x, in.y = x.Coefs.Apply(pt[0], pt[1])
				wx, wy := refs[id](in)
				after := r
				for range d {
					after.Uint64()
				}
				gx, gy, _ := ApplyXform(x, pt[0], pt[1], &r)
				if !closeTo(gx, wx, 0) || !closeTo(gy, wy, 0) {
					t.Errorf("%s w=%g at t=(%g, %g): got (%.15g, %.15g), want (%.15g, %.15g)",
						VarNames[id], w, in.x, in.y, gx, gy, wx, wy)
				}
				if r != after {
					t.Errorf("%s: draws differ from the documented %d", VarNames[id], varDraws[id])
				}
			}
		}
	}
}

// TestVarAllImplemented guards against a VarID that falls through the
// dispatch and silently adds nothing.
func TestVarAllImplemented(t *testing.T) {
	p := varTestParams()
	for id := VarID(0); id < NumVars; id++ {
		if id < Flam3NumVars && refs[id] == nil {
			t.Errorf("%s has no reference formula", VarNames[id])
		}
		terms := []VarTerm{{id, 1}}
		if id == VarPreBlur || id == VarFarblur {
			terms = append(terms, VarTerm{VarLinear, 1}) // pre_blur, farblur only show through another
		}
		x := varTestXform(varTestCoefs, p, terms...)
		nonzero := false
		for _, pt := range varTestPoints {
			r := rng.NewStream(7)
			gx, gy, _ := ApplyXform(x, pt[0], pt[1], &r)
			if id == VarPreBlur || id == VarFarblur {
				tx, ty := x.Coefs.Apply(pt[0], pt[1])
				gx, gy = gx-tx, gy-ty
			}
			nonzero = nonzero || gx != 0 || gy != 0
		}
		if !nonzero && !zOnly[id] {
			t.Errorf("%s adds nothing at any test point", VarNames[id])
		}
	}
}

// zOnly are the JWildfire variations that move z only, so add nothing to x, y.
var zOnly = map[VarID]bool{VarFlatten: true, VarZscale: true, VarZtranslate: true, VarZcone: true, VarInflateZ3: true,
	VarInflateZ1: true, VarInflateZ4: true, VarInflateZ5: true, VarInflateZ6: true}

// TestVarFinite runs every variation at 1000 random points, with flam3's
// default parameters and with the test parameters: all results must pass
// the bad-value test. Three variations are NaN everywhere with flam3's own
// defaults, in flam3 too, and are skipped there: modulus (fmod by
// modulus_x = 0), perspective (0·∞ with perspective_dist = 0) and mobius
// (0/0 with all coefficients 0).
func TestVarFinite(t *testing.T) {
	for _, set := range []struct {
		name string
		p    Params
	}{{"defaults", varTestDefaults()}, {"test params", varTestParams()}} {
		for id := VarID(0); id < NumVars; id++ {
			if set.name == "defaults" && (id == VarModulus || id == VarPerspective || id == VarMobius) {
				continue
			}
			x := varTestXform(varTestCoefs, set.p, VarTerm{id, 1})
			pts := rng.NewStream(uint64(id))
			r := rng.NewStream(uint64(id) + 500)
			bad := 0
			for range 1000 {
				px, py := 4*pts.Float64()-2, 4*pts.Float64()-2
				if _, _, ok := ApplyXform(x, px, py, &r); !ok {
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%s (%s): %d of 1000 points bad", VarNames[id], set.name, bad)
			}
		}
	}
}

func TestVarDeterministic(t *testing.T) {
	p := varTestParams()
	for id := VarID(0); id < NumVars; id++ {
		x := varTestXform(varTestCoefs, p, VarTerm{id, 0.8}, VarTerm{VarLinear, 0.3})
		r1, r2 := rng.NewStream(42), rng.NewStream(42)
		for _, pt := range varTestPoints {
			x1, y1, ok1 := ApplyXform(x, pt[0], pt[1], &r1)
			x2, y2, ok2 := ApplyXform(x, pt[0], pt[1], &r2)
			if math.Float64bits(x1) != math.Float64bits(x2) || math.Float64bits(y1) != math.Float64bits(y2) || ok1 != ok2 || r1 != r2 {
				t.Errorf("%s is not deterministic", VarNames[id])
			}
		}
	}
}

func TestVarZeroWeightDrawsNothing(t *testing.T) {
	p := varTestParams()
	for id := VarID(0); id < NumVars; id++ {
		x := varTestXform(varTestCoefs, p, VarTerm{VarLinear, 1}, VarTerm{id, 0})
		r := rng.NewStream(3)
		before := r
		gx, gy, _ := ApplyXform(x, 0.3, -0.4, &r)
		tx, ty := x.Coefs.Apply(0.3, -0.4)
		if id != VarLinear && (gx != tx || gy != ty) || r != before {
			t.Errorf("%s with weight 0 changed the result or drew", VarNames[id])
		}
	}
}
