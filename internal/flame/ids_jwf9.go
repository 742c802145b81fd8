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
	// variations_jwf9b.go
	VarMcarpet
	VarCircleblur
	VarCos2Bs
	VarSec2Bs
	VarInflateZ3
	VarMapleLeaf
	VarJapaneseMapleLeaf
	VarDisc3D
	VarLissajous
	VarOscilloscope2
	VarSpligon
	VarWdisc
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
	PMcarpetX
	PMcarpetY
	PMcarpetTwist
	PMcarpetTilt
	PCos2BsX1
	PCos2BsX2
	PCos2BsY1
	PCos2BsY2
	PSec2BsX1
	PSec2BsX2
	PSec2BsY1
	PSec2BsY2
	PMapleLeafFilled
	PJapaneseMapleLeafFilled
	PDisc3DPi
	PLissajousTmin
	PLissajousTmax
	PLissajousA
	PLissajousB
	PLissajousC
	PLissajousD
	PLissajousE
	POscilloscope2Separation
	POscilloscope2Frequencyx
	POscilloscope2Frequencyy
	POscilloscope2Amplitude
	POscilloscope2Perturbation
	POscilloscope2Damping
	PSpligonSides
	PSpligonR
	PSpligonI
	NumParams // all the parameters the CPU has
)
