package flame

// The ninth set of plugin variations (variations_jwf9.go): IDs after
// ids_jwf8.go's, parameters (all read from the XML) after its parameters.
const (
	VarAcosh VarID = VarFalloff2 + 1 + iota
	VarAcosech
	VarAcoth
	VarFoci3D
	// Fractorium's (and Apophysis') Mobius, with its own parameter names;
	// flam3's mobius is a separate variation.
	VarMobiusFr
	VarBwraps // Fractorium's bwraps: JWildfire's bwraps7 with its own names
	VarBiLinear
	VarLinearT3D
	VarMurl
	VarShredlin
	VarTarget
	VarButterfly3D
	VarBarycentroid
	VarBTransform
	VarGlynnSim1
	VarHypertile
	VarTruchet
	NumVars // all the variations the CPU has
)

const (
	PMobiusFrReA ParamID = PFalloff2Type + 1 + iota
	PMobiusFrImA
	PMobiusFrReB
	PMobiusFrImB
	PMobiusFrReC
	PMobiusFrImC
	PMobiusFrReD
	PMobiusFrImD
	PBwrapsCellsize
	PBwrapsSpace
	PBwrapsGain
	PBwrapsInnerTwist
	PBwrapsOuterTwist
	PLinearT3DPowX
	PLinearT3DPowY
	PLinearT3DPowZ
	PMurlC
	PMurlPower
	PShredlinXdistance
	PShredlinXwidth
	PShredlinYdistance
	PShredlinYwidth
	PTargetEven
	PTargetOdd
	PTargetSize
	PBarycentroidA
	PBarycentroidB
	PBarycentroidC
	PBarycentroidD
	PBTransformRotate
	PBTransformPower
	PBTransformMove
	PBTransformSplit
	PGlynnSim1Radius
	PGlynnSim1Radius1
	PGlynnSim1Phi1
	PGlynnSim1Thickness
	PGlynnSim1Pow
	PGlynnSim1Contrast
	PHypertileP
	PHypertileQ
	PHypertileN
	PTruchetExtended
	PTruchetExponent
	PTruchetArcWidth
	PTruchetRotation
	PTruchetSize
	PTruchetSeed
	PTruchetDirectColor
	NumParams // all the parameters the CPU has
)
