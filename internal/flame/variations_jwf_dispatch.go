package flame

import "github.com/procgen-dev/procgen/internal/rng"

// applyJWF adds plugin variation id with weight w to s (apply's default).
// One switch over every plugin variation picks the switch (one per
// variations_jwf*.go file) that holds its formula: a dense switch compiles
// to a jump table, so any variation costs two jumps, not a walk down the
// files (that chain cost up to 25 ns a call for the last file's). A new
// variation goes into its file's switch and into that file's case here;
// TestPluginDispatch checks that every plugin variation reaches a formula.
// flatten is not here: it zeroes z after every other variation
// (JWildfire's priority +1), which compiledXform.apply3 does.
func (s *varState) applyJWF(id VarID, w float64, r *rng.Stream) {
	switch id {
	case VarLinear3D, VarJulia3D, VarZscale, VarZtranslate, VarSpherical3D, VarSineblur, VarCurl3D, VarHemisphere,
		VarBlur3D, VarZcone, VarJulia3Dz, VarBlob3D, VarEpispiralWf:
		s.applyJWF1(id, w, r)
	case VarAffine3D, VarHypertile2, VarHypertile1, VarBwraps7, VarBoarders2, VarJulian2, VarJuliac:
		s.applyJWF2(id, w, r)
	case VarWaves4Wf, VarPoincare3D, VarSpirograph, VarCannabiscurveWf, VarCloverleafWf, VarEpispiral, VarYinYang,
		VarJuliaq, VarWaves23:
		s.applyJWF3(id, w, r)
	case VarUnpolar, VarIdisc, VarLinearT, VarCylinderApo, VarBlurZoom, VarBlurLinear, VarWaves2Radial,
		VarStarblur, VarBubble2, VarWaffle, VarWaves2Wf, VarTileLog:
		s.applyJWF4(id, w, r)
	case VarWaves2b, VarWaves3Wf, VarWaves22, VarWaves3, VarWaves4, VarXheart, VarFdisc, VarOctagon, VarNpolar:
		s.applyJWF5(id, w, r)
	case VarSynth:
		s.synth(w, r)
	case VarAxisSymmetryWf, VarPointSymmetryWf:
		s.applyJWF7(id, w, r)
	case VarVibration2, VarXtrb, VarGaussian, VarMirrorX, VarWavesn, VarNBlur, VarBlade3D, VarJulian3Dx,
		VarTileHlp, VarFalloff2:
		s.applyJWF8(id, w, r)
	case VarAcosh, VarAcosech, VarAcoth, VarFoci3D, VarMobiusFr, VarBwraps, VarBiLinear, VarLinearT3D, VarMurl,
		VarShredlin, VarTarget, VarButterfly3D, VarBarycentroid, VarBTransform, VarGlynnSim1, VarHypertile,
		VarTruchet:
		s.applyJWF9(id, w, r)
	case VarMcarpet, VarCircleblur, VarCos2Bs, VarSec2Bs, VarInflateZ3, VarMapleLeaf, VarJapaneseMapleLeaf,
		VarDisc3D, VarLissajous, VarOscilloscope2, VarSpligon, VarWdisc:
		s.applyJWF9b(id, w, r)
	case VarGlynnSim2, VarDSpherical, VarMinkowskope, VarCirclesplit, VarEJulia, VarCirclize2, VarCpow3Wf,
		VarSpirograph3D, VarChunk:
		s.applyJWF9c(id, w, r)
	case VarCsc2Bs, VarCosh2Bs, VarCot2Bs, VarCoth2Bs, VarSech2Bs, VarSinh2Bs, VarTan2Bs, VarTanh2Bs, VarExp2Bs,
		VarInflateZ1, VarInflateZ4, VarInflateZ5, VarInflateZ6:
		s.applyJWF9d(id, w, r)
	case VarCardioid, VarChecks, VarBlurCircle, VarFlipcircle, VarFlipy, VarInvpolar, VarSecq, VarTanhq, VarSph3D,
		VarSquare3D, VarSquarize, VarSigmoid, VarShift, VarTwoface, VarTancos, VarWhitneyUmbrella, VarRays2,
		VarPetal, VarTriangle, VarCone:
		s.applyJWF9e(id, w, r)
	case VarPowBlock, VarLoonie2, VarHypershift, VarEnnepers2, VarEScale, VarPyramid, VarLine, VarSphericalN,
		VarLozi, VarHenon, VarCpow3, VarHypertile3D:
		s.applyJWF9f(id, w, r)
	case VarSuperShape3d, VarEMotion, VarHypertile3D2, VarCubic3D, VarCollideoscope, VarAsteria, VarFalloffFr,
		VarRotateY, VarRotateZ, VarRblur, VarSphereblur, VarBcircle, VarSpherical3DFr:
		s.applyJWF9g(id, w, r)
	case VarSeashell3D, VarRoseWf, VarPTransform, VarKaleidoscope, VarWaveblurWf:
		s.applyJWF9h(id, w, r)
	case VarHexes, VarFalloff3:
		s.applyJWF9i(id, w, r)
	case VarChrysanthemum, VarLazyTravis, VarJoukowski, VarGnarly:
		s.applyJWF9j(id, w, r)
	case VarExBlur, VarGlitchy1, VarLazysensen, VarShredded, VarCrackle, VarPlaneWf, VarTqmirror,
		VarTrig, VarScrambly, VarFarblur, VarSymNg15,
		VarMaurerRose, VarPRose3D, VarCliffordJs, VarSattractorJs:
		s.applyJWF10(id, w, r)
	case VarEllipticMode, VarSplitsShear, VarWaves2Z, VarLogBase, VarWaves23D, VarSpherical3DWf, VarHeartWf:
		s.applyJWF12(id, w, r)
	}
}
