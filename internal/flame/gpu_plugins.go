package flame

import (
	"math"
	"slices"
)

// gpuPlugin is a JWildfire plugin variation the kernels have
// (cuda/flame_variations_jwf.cuh) and the parameters (read from the XML and
// precalculated) its device code reads, in the order of its local indices:
// the header names params[k] P_<NAME> k.
type gpuPlugin struct {
	id     VarID
	params []ParamID
}

// gpuPlugins are the ported variations, in order of their use in the
// artists' corpus. Only 2D ones: the kernels carry no z.
//
// Their parameters do not each get a slot of the GPU xform, whose size is
// what every genome pays (it sits in shared memory, per xform): they share
// gpuPluginSlab floats after flam3's GPUNumParams, filled per xform by
// gpuPluginPack with the parameters of the plugin variations that xform
// uses. So a flam3 genome's xform is as large as before, whatever the
// number of ported variations.
var gpuPlugins = [...]gpuPlugin{
	{VarSineblur, []ParamID{PSineblurPower}},
	{VarHypertile2, []ParamID{PHypertile2P, PHypertile2Pa, PHypertile2R}},
	{VarEpispiralWf, []ParamID{PEpispiralWfWaves}},
	{VarBwraps7, []ParamID{PBwraps7Cellsize, PBwraps7InnerTwist, PBwraps7OuterTwist, PBwraps7G2, PBwraps7R2,
		PBwraps7Rfactor}},
	{VarBoarders2, []ParamID{PBoarders2Cc, PBoarders2Cl, PBoarders2Cr}},
	{VarHypertile1, []ParamID{PHypertile1P, PHypertile1Pa, PHypertile1R}},
	{VarWaves4Wf, []ParamID{PWaves4WfScalex, PWaves4WfScaley, PWaves4WfFreqx, PWaves4WfFreqy, PWaves4WfUseCosX,
		PWaves4WfUseCosY, PWaves4WfDampingX, PWaves4WfDampingY}},
	{VarJulian2, []ParamID{PJulian2Power, PJulian2A, PJulian2B, PJulian2C, PJulian2D, PJulian2E, PJulian2F,
		PJulian2AbsN, PJulian2CN}},
	{VarSpirograph, []ParamID{PSpirographA, PSpirographB, PSpirographD, PSpirographTmin, PSpirographTmax,
		PSpirographYmin, PSpirographYmax, PSpirographC1, PSpirographC2}},
	{VarCannabiscurveWf, []ParamID{PCannabiscurveWfFilled}},
	{VarJuliac, []ParamID{PJuliacRe, PJuliacIm, PJuliacDist}},
	{VarWaves23, []ParamID{PWaves23Scalex, PWaves23Scaley, PWaves23Freqx, PWaves23Freqy}},
	{VarYinYang, []ParamID{PYinYangRadius, PYinYangAng1, PYinYangAng2, PYinYangDualT, PYinYangOutside}},
	{VarCloverleafWf, []ParamID{PCloverleafWfFilled}},
	{VarJuliaq, []ParamID{PJuliaqPower, PJuliaqHalfInvPower, PJuliaqInvPower, PJuliaqInvPower2pi}},
	// cuda/flame_variations_jwf2.cuh
	{VarWaves2b, []ParamID{PWaves2bFreqx, PWaves2bFreqy, PWaves2bPwx, PWaves2bPwy, PWaves2bScalex, PWaves2bScaleinfx,
		PWaves2bScaley, PWaves2bScaleinfy, PWaves2bUnity, PWaves2bJacok}},
	{VarStarblur, []ParamID{PStarblurPower, PStarblurAlpha, PStarblurLength}},
	{VarWaffle, []ParamID{PWaffleSlices, PWaffleXthickness, PWaffleYthickness, PWaffleRotation}},
	{VarWaves3Wf, []ParamID{PWaves3WfScalex, PWaves3WfScaley, PWaves3WfFreqx, PWaves3WfFreqy, PWaves3WfUseCosX,
		PWaves3WfUseCosY, PWaves3WfDampx, PWaves3WfDampy}},
	{VarWavesn, []ParamID{PWavesnFreqx, PWavesnFreqy, PWavesnScalex, PWavesnScaley, PWavesnIncx, PWavesnIncy,
		PWavesnPower}},
	{VarBlurLinear, []ParamID{PBlurLinearLength, PBlurLinearAngle}},
	{VarBlurZoom, []ParamID{PBlurZoomLength, PBlurZoomX, PBlurZoomY}},
	{VarEpispiral, []ParamID{PEpispiralN, PEpispiralThickness, PEpispiralHoles}},
	{VarFdisc, []ParamID{PFdiscAshift, PFdiscRshift, PFdiscXshift, PFdiscYshift, PFdiscTerm1, PFdiscTerm2, PFdiscTerm3,
		PFdiscTerm4}},
	{VarIdisc, nil},
	{VarLinearT, []ParamID{PLinearTPowX, PLinearTPowY}},
	{VarNpolar, []ParamID{PNpolarParity, PNpolarN}},
	{VarTileHlp, []ParamID{PTileHlpWidth}},
	{VarUnpolar, nil},
	{VarWaves22, []ParamID{PWaves22Scalex, PWaves22Scaley, PWaves22Freqx, PWaves22Freqy, PWaves22Modex, PWaves22Modey,
		PWaves22Powerx, PWaves22Powery}},
	{VarWaves2Radial, []ParamID{PWaves2RadialScalex, PWaves2RadialScaley, PWaves2RadialFreqx, PWaves2RadialFreqy,
		PWaves2RadialNull, PWaves2RadialDistance}},
	{VarWaves2Wf, []ParamID{PWaves2WfScalex, PWaves2WfScaley, PWaves2WfFreqx, PWaves2WfFreqy, PWaves2WfUseCosX,
		PWaves2WfUseCosY, PWaves2WfDampingX, PWaves2WfDampingY}},
	{VarWaves3, []ParamID{PWaves3Scalex, PWaves3Scaley, PWaves3Freqx, PWaves3Freqy, PWaves3SxFreq, PWaves3SyFreq}},
	{VarWaves4, []ParamID{PWaves4Scalex, PWaves4Scaley, PWaves4Freqx, PWaves4Freqy, PWaves4Cont, PWaves4Yfact}},
	{VarXheart, []ParamID{PXheartAngle, PXheartRatio}},
	// cuda/flame_variations_jwf3.cuh; synth's layer k is at P_SYNTH_B + 6k,
	// vibration2's waves and modulations in ParamID order.
	{VarSynth, gpuParamRange(PSynthA, PSynthFLayer)},
	{VarVibration2, gpuParamRange(PVibration2Dir, PVibration2A2mfreq)},
	{VarXtrb, []ParamID{PXtrbPower, PXtrbRadius, PXtrbWidth, PXtrbDist, PXtrbA, PXtrbB}},
	{VarNBlur, gpuParamRange(PNBlurNumEdges, PNBlurHighlightEdges)},
	// cuda/flame_variations_jwf4.cuh: the CPU-only variations that held
	// the most artists' flames off the GPU (each the last one a flame
	// lacked, by TestArtistsCorpusGPU's count), then the families they
	// belong to (the "_bs" functions) and the small maps beside them.
	{VarMobiusFr, gpuParamRange(PMobiusFrReA, PMobiusFrImD)},
	{VarAcosech, nil},
	{VarAcoth, nil},
	{VarBwraps, []ParamID{PBwrapsCellsize, PBwrapsSpace, PBwrapsGain, PBwrapsInnerTwist, PBwrapsOuterTwist}},
	{VarChunk, []ParamID{PChunkA, PChunkB, PChunkC, PChunkD, PChunkE, PChunkF, PChunkMode}},
	{VarCirclize2, []ParamID{PCirclize2Hole}},
	{VarLissajous, []ParamID{PLissajousTmin, PLissajousTmax, PLissajousA, PLissajousB, PLissajousC, PLissajousD,
		PLissajousE}},
	{VarTarget, []ParamID{PTargetEven, PTargetOdd, PTargetSize}},
	{VarCardioid, []ParamID{PCardioidA}},
	{VarCircleblur, nil},
	{VarCirclesplit, []ParamID{PCirclesplitCsRadius, PCirclesplitCsSplit}},
	{VarCos2Bs, gpuParamRange(PCos2BsX1, PCos2BsX1+3)},
	{VarCosh2Bs, gpuParamRange(PCosh2BsX1, PCosh2BsX1+3)},
	{VarCot2Bs, gpuParamRange(PCot2BsX1, PCot2BsX1+3)},
	{VarCoth2Bs, gpuParamRange(PCoth2BsX1, PCoth2BsX1+3)},
	{VarCsc2Bs, gpuParamRange(PCsc2BsX1, PCsc2BsX1+3)},
	{VarDSpherical, []ParamID{PDSphericalDSpherWeight}},
	{VarFlipy, nil},
	{VarInvpolar, nil},
	{VarJapaneseMapleLeaf, []ParamID{PJapaneseMapleLeafFilled}},
	{VarLozi, []ParamID{PLoziA, PLoziB, PLoziC}},
	{VarHenon, []ParamID{PHenonA, PHenonB, PHenonC}},
	{VarMapleLeaf, []ParamID{PMapleLeafFilled}},
	{VarBarycentroid, []ParamID{PBarycentroidA, PBarycentroidB, PBarycentroidC, PBarycentroidD}},
	{VarMinkowskope, []ParamID{PMinkowskopeSeparation, PMinkowskopeFrequencyx, PMinkowskopeFrequencyy,
		PMinkowskopeAmplitude, PMinkowskopePerturbation, PMinkowskopeDamping}},
	{VarOscilloscope2, []ParamID{POscilloscope2Separation, POscilloscope2Frequencyx, POscilloscope2Frequencyy,
		POscilloscope2Amplitude, POscilloscope2Perturbation, POscilloscope2Damping}},
	{VarPetal, nil},
	{VarSec2Bs, gpuParamRange(PSec2BsX1, PSec2BsX1+3)},
	{VarSech2Bs, gpuParamRange(PSech2BsX1, PSech2BsX1+3)},
	{VarShift, []ParamID{PShiftShiftX, PShiftShiftY, PShiftAngle}},
	{VarSigmoid, []ParamID{PSigmoidShiftx, PSigmoidShifty}},
	{VarSinh2Bs, gpuParamRange(PSinh2BsX1, PSinh2BsX1+3)},
	{VarSphericalN, []ParamID{PSphericalNPower, PSphericalNDist}},
	{VarSpligon, []ParamID{PSpligonSides, PSpligonR, PSpligonI}},
	{VarSquarize, nil},
	{VarTan2Bs, gpuParamRange(PTan2BsX1, PTan2BsX1+3)},
	{VarTancos, nil},
	{VarTanh2Bs, gpuParamRange(PTanh2BsX1, PTanh2BsX1+3)},
	{VarWdisc, nil},
	{VarBiLinear, nil},
	{VarMcarpet, []ParamID{PMcarpetX, PMcarpetY, PMcarpetTwist, PMcarpetTilt}},
	// cuda/flame_variations_jwf5.cuh
	{VarAsteria, []ParamID{PAsteriaAlpha}},
	{VarCpow3, []ParamID{PCpow3R, PCpow3D, PCpow3Divisor, PCpow3Spread}},
	{VarCpow3Wf, []ParamID{PCpow3WfR, PCpow3WfA, PCpow3WfDivisor, PCpow3WfSpread, PCpow3WfDiscreteSpread,
		PCpow3WfSpread2, PCpow3WfOffset2}},
	{VarEScale, []ParamID{PEScaleScale, PEScaleAngle}},
	{VarChrysanthemum, nil},
	{VarLazyTravis, []ParamID{PLazyTravisSpinIn, PLazyTravisSpinOut, PLazyTravisSpace}},
	{VarGnarly, []ParamID{PGnarlyCellsize, PGnarlyTwist}},
	// cuda/flame_variations_jwf6.cuh: the 2D ones the corpus uses a few
	// times more, in flames that other names keep on the CPU.
	{VarAcosh, nil},
	{VarGlynnSim1, gpuParamRange(PGlynnSim1Radius, PGlynnSim1Contrast)},
	{VarGlynnSim2, gpuParamRange(PGlynnSim2Radius, PGlynnSim2Phi2)},
	{VarMurl, []ParamID{PMurlC, PMurlPower}},
	{VarEJulia, []ParamID{PEJuliaPower}},
	{VarExp2Bs, []ParamID{PExp2BsX1, PExp2BsY1, PExp2BsY2}},
	{VarFlipcircle, nil},
	{VarTwoface, nil},
	{VarChecks, []ParamID{PChecksX, PChecksY, PChecksSize, PChecksRnd}},
	{VarHypertile, []ParamID{PHypertileP, PHypertileQ, PHypertileN}},
	// cuda/flame_variations_jwf7.cuh
	{VarHypershift, []ParamID{PHypershiftShift, PHypershiftStretch}},
	{VarLoonie2, []ParamID{PLoonie2Sides, PLoonie2Star, PLoonie2Circle}},
	{VarCollideoscope, []ParamID{PCollideoscopeA, PCollideoscopeNum}},
	{VarRoseWf, []ParamID{PRoseWfAmp, PRoseWfWaves, PRoseWfFilled}},
	{VarPTransform, gpuParamRange(PPTransformRotate, PPTransformUseLog)},
	{VarKaleidoscope, gpuParamRange(PKaleidoscopePull, PKaleidoscopeY)},
	{VarEMotion, []ParamID{PEMotionMove, PEMotionRotate}},
	{VarShredlin, gpuParamRange(PShredlinXdistance, PShredlinYwidth)},
	{VarRays2, nil},
	{VarTruchet, gpuParamRange(PTruchetExtended, PTruchetSeed)}, // direct_color: the CPU's too (unhonouredParam9)
	// cuda/flame_variations_3d.cuh: variations that read or write z, run
	// by the flame3d family only (gpuCarriesZ), which carries z; flatten
	// is gpuXform.Flatten.
	{VarLinear3D, nil},
	{VarZscale, nil},
	{VarZtranslate, nil},
	{VarZcone, nil},
	{VarHemisphere, nil},
	{VarBlur3D, nil},
	{VarSpherical3D, nil},
	{VarJulia3D, []ParamID{PJulia3DN, PJulia3DCPower}},
	{VarJulia3Dz, []ParamID{PJulia3DzN, PJulia3DzCPower}},
	{VarCurl3D, []ParamID{PCurl3DCx, PCurl3DCy, PCurl3DCz, PCurl3DC2}},
	{VarBlob3D, []ParamID{PBlob3DLow, PBlob3DHigh, PBlob3DWaves}},
	{VarAffine3D, []ParamID{PAffine3DTranslateX, PAffine3DTranslateY, PAffine3DTranslateZ, PAffine3DScaleX,
		PAffine3DScaleY, PAffine3DScaleZ, PAffine3DShearXY, PAffine3DShearXZ, PAffine3DShearYX, PAffine3DShearYZ,
		PAffine3DShearZX, PAffine3DShearZY, PAffine3DSinX, PAffine3DCosX, PAffine3DSinY, PAffine3DCosY,
		PAffine3DSinZ, PAffine3DCosZ}},
	{VarPoincare3D, []ParamID{PPoincare3DCx, PPoincare3DCy, PPoincare3DCz, PPoincare3DC2, PPoincare3DS2x,
		PPoincare3DS2y, PPoincare3DS2z}},
	{VarAxisSymmetryWf, []ParamID{PAxisSymmetryWfAxis, PAxisSymmetryWfCentreX, PAxisSymmetryWfCentreY,
		PAxisSymmetryWfCentreZ, PAxisSymmetryWfRotation}}, // the colour shifts are not honoured (colourShiftParams)
	{VarPointSymmetryWf, []ParamID{PPointSymmetryWfCentreX, PPointSymmetryWfCentreY, PPointSymmetryWfOrder}},
	{VarCylinderApo, nil},
	{VarBubble2, []ParamID{PBubble2X, PBubble2Y, PBubble2Z}},
	{VarTileLog, []ParamID{PTileLogSpread}},
	{VarBlade3D, nil},
	{VarJulian3Dx, []ParamID{PJulian3DxPower, PJulian3DxDist, PJulian3DxA, PJulian3DxB, PJulian3DxC, PJulian3DxD,
		PJulian3DxE, PJulian3DxF}},
	// cuda/flame_variations_jwf8.cuh: the 2D ones that kept the most
	// artists' flames on the CPU after the 3D block.
	{VarCrackle, gpuParamRange(PCrackleCellsize, PCrackleZ)},
	{VarGaussian, nil},
	// mirror_x replaces the sum before it (gpuPluginRefused) and, in the
	// flame3d family, passes z (flame_variations_3d.cuh).
	{VarMirrorX, nil},
	{VarTrig, gpuParamRange(PTrigReciprocal, PTrigTanh)},
	{VarHexes, gpuParamRange(PHexesCellsize, PHexesScale)},
	{VarTqmirror, gpuParamRange(PTqmirrorA, PTqmirrorMode)}, // preset: read, not applied (as on the CPU)
	{VarBTransform, gpuParamRange(PBTransformRotate, PBTransformSplit)},
	{VarSymNg15, gpuParamRange(PSymNg15Radius, PSymNg15Stepy)},
	{VarCliffordJs, gpuParamRange(PCliffordJsA, PCliffordJsD)},
	// cuda/flame_variations_jwf9.cuh
	{VarMaurerRose, gpuParamRange(PMaurerRoseKn, PMaurerRoseCurveThickness)},
	{VarScrambly, gpuParamRange(PScramblyL, PScramblyCellsize)},
	{VarSattractorJs, []ParamID{PSattractorJsM}},
	{VarJoukowski, []ParamID{PJoukowskiP1, PJoukowskiP2, PJoukowskiInverse}},
	{VarRblur, gpuParamRange(PRblurStrength, PRblurCenterY)},
	// cuda/flame_variations_3d2.cuh: more that read or write z, flame3d's.
	{VarFalloff2, []ParamID{PFalloff2Scatter, PFalloff2Mindist, PFalloff2MulX, PFalloff2MulY, PFalloff2MulZ,
		PFalloff2X0, PFalloff2Y0, PFalloff2Z0, PFalloff2Invert, PFalloff2Type}}, // mul_c: the CPU's too (unhonouredParam)
	{VarOctagon, gpuParamRange(POctagonX, POctagonMode)},
	{VarButterfly3D, nil},
	{VarDisc3D, []ParamID{PDisc3DPi}},
	{VarFalloff3, []ParamID{PFalloff3BlurType, PFalloff3BlurShape, PFalloff3BlurStrength, PFalloff3MinDistance,
		PFalloff3InvertDistance, PFalloff3MulX, PFalloff3MulY, PFalloff3MulZ, PFalloff3CenterX, PFalloff3CenterY,
		PFalloff3CenterZ, PFalloff3Alpha}},
	{VarInflateZ3, nil},
	{VarLinearT3D, gpuParamRange(PLinearT3DPowX, PLinearT3DPowZ)},
	{VarSpirograph3D, gpuParamRange(PSpirograph3DA, PSpirograph3DMode)}, // direct_color: the CPU's too
	{VarExBlur, gpuParamRange(PExBlurDist, PExBlurZOrigin)},
	{VarGlitchy1, gpuParamRange(PGlitchy1ScaleX, PGlitchy1W)},
	{VarLazysensen, gpuParamRange(PLazysensenScaleX, PLazysensenScaleZ)},
	{VarShredded, gpuParamRange(PShreddedX1, PShreddedBlur)},
	// cuda/flame_variations_3d3.cuh
	{VarPRose3D, gpuParamRange(PPRose3DL, PPRose3DOffset)},
	{VarSuperShape3d, gpuParamRange(PSuperShape3dRho, PSuperShape3dToroidmap)},
	{VarCone, gpuParamRange(PConeRadius1, PConeWeight)},
	{VarFoci3D, nil},
	// cuda/flame_variations_3d4.cuh: the last variation (or stage) of an
	// artists' flame each, with 16-bit ids. cubic3D, farblur, rotate_y and
	// rotate_z read or replace the sum before them (gpuReplacesSum).
	{VarCubic3D, []ParamID{PCubic3DXpand, PCubic3DStyle}},
	{VarEnnepers2, []ParamID{PEnnepers2A, PEnnepers2B, PEnnepers2C}},
	{VarFarblur, gpuParamRange(PFarblurX, PFarblurZOrigin)},
	{VarHypertile3D, []ParamID{PHypertile3DP, PHypertile3DQ, PHypertile3DN}},
	{VarInflateZ1, nil},
	{VarInflateZ4, nil},
	{VarInflateZ5, nil},
	{VarInflateZ6, nil},
	{VarLine, []ParamID{PLineDelta, PLinePhi}},
	{VarPlaneWf, []ParamID{PPlaneWfPosition, PPlaneWfSize, PPlaneWfAxis}}, // direct_color: the CPU's too (unhonouredParam10)
	{VarSpherical3DFr, nil},
	{VarRotateY, nil},
	{VarRotateZ, nil},
	{VarSphereblur, []ParamID{PSphereblurPower}},
	{VarFalloffFr, gpuParamRange(PFalloffFrScatter, PFalloffFrBoxpow)},
	{VarPyramid, nil},
	// cuda/flame_variations_jwf10.cuh: 2D ones, stages in the corpus.
	{VarBlurCircle, nil},
	{VarPowBlock, gpuParamRange(PPowBlockNumerator, PPowBlockCorrectd)},
	{VarBcircle, []ParamID{PBcircleScale, PBcircleBorderwidth}},
	// cuda/flame_variations_3d5.cuh: those that kept flames on the CPU
	// once the ones above were ported. triangle replaces the sum before it
	// (gpuReplacesSum).
	{VarSecq, nil},
	{VarTanhq, nil},
	{VarSph3D, []ParamID{PSph3DX, PSph3DY}}, // sph3D_z: unused, as on the CPU
	{VarSquare3D, nil},
	{VarWhitneyUmbrella, nil},
	{VarTriangle, gpuParamRange(PTriangleX1, PTriangleZ3)},
	{VarHypertile3D2, []ParamID{PHypertile3D2P, PHypertile3D2Q}},
	{VarSeashell3D, gpuParamRange(PSeashell3DFinalRadius, PSeashell3DNSpirals)},
	{VarWaveblurWf, gpuParamRange(PWaveblurWfCount, PWaveblurWfDampingZ)}, // direct_color: the CPU's too (unhonouredParam9h)
	// cuda/flame_variations_jwf12.cuh and flame_variations_3d6.cuh (waves2's
	// z): flam3 variations with other programs' parameters, which read
	// flam3's too.
	{VarEllipticMode, []ParamID{PEllipticMode}},
	{VarSplitsShear, []ParamID{PSplitsX, PSplitsY, PSplitsLshear, PSplitsRshear, PSplitsUshear, PSplitsDshear}},
	{VarLogBase, []ParamID{PLogBase}},
	{VarWaves2Z, []ParamID{PWaves2Freqx, PWaves2Scalex, PWaves2Freqy, PWaves2Scaley, PWaves2Freqz, PWaves2Scalez}},
	// The same files: JWildfire's next in the artists' corpus.
	{VarWaves23D, []ParamID{PWaves23DFreq, PWaves23DScale}},
	{VarSpherical3DWf, []ParamID{PSpherical3DWfInvert, PSpherical3DWfExponent}},
	{VarHeartWf, gpuParamRange(PHeartWfScaleX, PHeartWfScaleRRight)},
}

// gpuCarriesZ reports whether g renders with points that carry z on the
// GPU (the flame3d family): it has a 3D camera, or a 3D variation with a
// weight whose z does not stay 0 (zStaysZero: then the 2D families run it).
func gpuCarriesZ(g *Genome) bool {
	if g.Camera.Active() {
		return true
	}
	if zStaysZero(g) {
		return false
	}
	for i := range g.Xforms {
		if xformUses3D(&g.Xforms[i]) {
			return true
		}
	}
	return g.Final != nil && xformUses3D(g.Final)
}

// gpuParamRange is the parameters first..last in ParamID order.
func gpuParamRange(first, last ParamID) []ParamID {
	var out []ParamID
	for id := first; id <= last; id++ {
		out = append(out, id)
	}
	return out
}

// gpuReplacesSum reports whether ported variation id replaces (a coordinate
// of) the sum before it on the CPU: the device clears it before adding the
// variation's (cuda/flame_variations.cuh's pg_jwf_replaces for the 2D
// ones, flame_variations_3d.cuh's pg_flame_replaces3 for the others; a
// kernel compiled for a genome's xforms, specialSource, assigns). cubic3D
// also reads it, as farblur does: pg_flame_apply_vars3 hands it to them.
func gpuReplacesSum(id VarID) bool {
	switch id {
	case VarShredlin, VarRays2, VarMirrorX, VarTriangle, VarRotateY, VarRotateZ, VarCubic3D:
		return true
	}
	return false
}

// gpuPluginRefused names a ported variation of x whose parameters ask for
// what the device code cannot do, or is "": synth's mode 1005 after
// another variation (it replaces the sum there).
func gpuPluginRefused(x *Xform) string {
	before := false
	for _, v := range x.Vars {
		if v.Weight == 0 {
			continue
		}
		if before && v.ID == VarSynth && ftoi(x.Params[PSynthMode]) == 1005 {
			return "synth (mode 1005 after another variation)"
		}
		before = true
	}
	return ""
}

// gpuPluginSlab is the room for plugin parameters in the GPU xform: an
// xform whose plugin variations need more (gpuPluginPack) renders on the
// CPU. 61 keeps the xform at the size it had before the slab (189 floats).
const gpuPluginSlab = 61

// gpuNumParams is the length of the GPU xform's params: cuda/flame_ids.cuh's
// NUM_PARAMS.
const gpuNumParams = int(GPUNumParams) + gpuPluginSlab

// gpuPluginOf returns the ported variation id, or nil.
func gpuPluginOf(id VarID) *gpuPlugin {
	for i := range gpuPlugins {
		if gpuPlugins[i].id == id {
			return &gpuPlugins[i]
		}
	}
	return nil
}

// gpuPluginPack lays out the plugin parameters of x's ported variations in
// slab, as the device's pg_jwf_params reads them: first one header entry per
// distinct variation with a weight, its id | offset<<16 as a float (exact:
// below 2^24, as offsets stay below gpuPluginSlab), then each variation's parameters at its
// offset from the slab's start, in its gpuPlugin order. A variation met
// twice shares its parameters, as on the CPU. It reports false, and the
// name of the variation that did not fit, when they need more than the slab.
func gpuPluginPack(x *Xform, slab []float32) (string, bool) {
	var used []*gpuPlugin
	need := 0
	for _, v := range x.Vars {
		pl := gpuPluginOf(v.ID)
		if v.Weight == 0 || pl == nil || slices.Contains(used, pl) {
			continue
		}
		used = append(used, pl)
		need += 1 + len(pl.params)
		if need > len(slab) {
			return VarNames[v.ID], false
		}
	}
	off := len(used)
	for k, pl := range used {
		slab[k] = float32(int(pl.id) | off<<16)
		for j, id := range pl.params {
			slab[off+j] = gpuFloat(x.Params[id])
		}
		off += len(pl.params)
	}
	return "", true
}

// gpuHasVar reports whether the kernels have variation id. The device
// knows a variation by its CPU id (the GPU xform's ids are 16 bits, as VarID
// is), in the xform's ids and the plugin slab's header alike.
func gpuHasVar(id VarID) bool {
	return id < GPUNumVars || gpuPluginOf(id) != nil
}

// zStaysZero reports whether g's points keep z = 0 on the CPU, so that its
// 3D variations reduce to 2D ones the kernels have: every 3D term with a
// weight is linear3D or zscale (each maps z = 0 to 0; starts and restarts
// have z = 0), and no xform has stage terms. Then linear3D is linear in
// (x, y) and zscale adds nothing to them, exactly.
func zStaysZero(g *Genome) bool {
	ok := func(x *Xform) bool {
		if len(x.Stages) != 0 {
			return false
		}
		for _, v := range x.Vars {
			if v.Weight != 0 && uses3D(v.ID) && v.ID != VarLinear3D && v.ID != VarZscale {
				return false
			}
		}
		return true
	}
	for i := range g.Xforms {
		if !ok(&g.Xforms[i]) {
			return false
		}
	}
	return g.Final == nil || ok(g.Final)
}

// gpuFloat is v in float32, a finite value beyond float32's range its
// largest finite value rather than an infinity.
func gpuFloat(v float64) float32 {
	f := float32(v)
	if math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
		f = float32(math.Copysign(math.MaxFloat32, v))
	}
	return f
}

// gpuParams converts x's parameters to the GPU xform's layout: flam3's,
// then the plugin slab (gpuPluginPack; left partly empty where the xform's
// plugin parameters do not fit, which pluginVarZ refuses first).
func gpuParams(x *Xform) [gpuNumParams]float32 {
	var out [gpuNumParams]float32
	for i, v := range x.Params[:GPUNumParams] {
		out[i] = gpuFloat(v)
	}
	gpuPluginPack(x, out[GPUNumParams:])
	return out
}

// gpuUsesPlugins reports whether any of the GPU xforms has a plugin
// variation: then the iterate kernel is the flame_plugins family's (or an
// NVRTC kernel compiled with them), flam3 genomes keep the flame family's.
func gpuUsesPlugins(xs []gpuXform) bool {
	for i := range xs {
		for _, id := range xs[i].IDs[:xs[i].NVars] {
			if VarID(id) >= GPUNumVars {
				return true
			}
		}
	}
	return false
}
