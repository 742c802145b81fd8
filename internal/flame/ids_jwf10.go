package flame

// The tenth set of plugin variations (variations_jwf10.go): IDs after
// ids_jwf9.go's, parameters (all read from the XML) after its parameters.
// NumVars and NumParams end here: a later set moves them.
const (
	VarExBlur VarID = VarGnarly + 1 + iota
	VarGlitchy1
	VarLazysensen
	VarShredded
	VarCrackle // variations_jwf10_crackle.go
	VarPlaneWf
	VarTqmirror
	VarTrig // post_trig: variations_jwf10_trig.go
	VarScrambly
	VarSymNg15
	VarMaurerRose
	VarPRose3D
	VarCliffordJs
	VarSattractorJs
	// farblur reads the sum of the variations applied before it, which run
	// in ID order: it stays the last, a later set moving it with NumVars
	// (TestJWF10Farblur).
	VarFarblur
	NumVars // all the variations the CPU has
)

const (
	PExBlurDist ParamID = PGnarlyTwist + 1 + iota
	PExBlurR
	PExBlurXOrigin
	PExBlurYOrigin
	PExBlurZOrigin
	PGlitchy1ScaleX
	PGlitchy1ShiftX
	PGlitchy1NX
	PGlitchy1ScaleY
	PGlitchy1ShiftY
	PGlitchy1NY
	PGlitchy1ScaleZ
	PGlitchy1ShiftZ
	PGlitchy1NZ
	PGlitchy1Width
	PGlitchy1Seed
	PGlitchy1Angle
	PGlitchy1U
	PGlitchy1V
	PGlitchy1W
	PLazysensenScaleX
	PLazysensenScaleY
	PLazysensenScaleZ
	PShreddedX1
	PShreddedX2
	PShreddedX3
	PShreddedXBlurAmount
	PShreddedY1
	PShreddedY2
	PShreddedY3
	PShreddedYBlurAmount
	PShreddedZ1
	PShreddedZ2
	PShreddedZ3
	PShreddedZBlurAmount
	PShreddedType
	PShreddedBlur
	PCrackleCellsize
	PCracklePower
	PCrackleDistort
	PCrackleScale
	PCrackleZ
	PPlaneWfPosition
	PPlaneWfSize
	PPlaneWfAxis
	PPlaneWfDirectColor
	PPlaneWfColorMode
	PPlaneWfBlendColormap
	PPlaneWfDisplAmount
	PPlaneWfBlendDisplMap
	PPlaneWfCalcColorIdx
	PPlaneWfReceiveOnlyShadows
	PTqmirrorPreset
	PTqmirrorA
	PTqmirrorB
	PTqmirrorC
	PTqmirrorD
	PTqmirrorE
	PTqmirrorF
	PTqmirrorG
	PTqmirrorH
	PTqmirrorI
	PTqmirrorJ
	PTqmirrorK
	PTqmirrorL
	PTqmirrorM
	PTqmirrorN
	PTqmirrorO
	PTqmirrorP
	PTqmirrorQ
	PTqmirrorR
	PTqmirrorS
	PTqmirrorType
	PTqmirrorMode
	PTrigReciprocal
	PTrigLogDivide
	PTrigSqrt
	PTrigExp
	PTrigLog
	PTrigAsinh
	PTrigAcosh
	PTrigAtanh
	PTrigAsin
	PTrigAcos
	PTrigAtan
	PTrigSin
	PTrigCos
	PTrigTan
	PTrigSinh
	PTrigCosh
	PTrigTanh
	PScramblyL
	PScramblySeed
	PScramblyByrows
	PScramblyCellsize
	PFarblurX
	PFarblurY
	PFarblurZ
	PFarblurXOrigin
	PFarblurYOrigin
	PFarblurZOrigin
	PSymNg15Radius
	PSymNg15Stepx
	PSymNg15Stepy
	PMaurerRoseKn
	PMaurerRoseKd
	PMaurerRoseC
	PMaurerRoseLineOffsetDegrees
	PMaurerRoseLineCount
	PMaurerRoseShowLines
	PMaurerRoseShowPoints
	PMaurerRoseShowCurve
	PMaurerRoseLineThickness
	PMaurerRosePointThickness
	PMaurerRoseCurveThickness
	PPRose3DL
	PPRose3DK
	PPRose3DC
	PPRose3DZ1
	PPRose3DZ2
	PPRose3DRefSc
	PPRose3DOpt
	PPRose3DOptSc
	PPRose3DOpt3
	PPRose3DTransp
	PPRose3DDist
	PPRose3DWagsc
	PPRose3DSrvsc
	PPRose3DF
	PPRose3DWigsc
	PPRose3DOffset
	PCliffordJsA
	PCliffordJsB
	PCliffordJsC
	PCliffordJsD
	PSattractorJsM
	NumParams // all the parameters the CPU has
)
