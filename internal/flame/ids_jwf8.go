package flame

// The eighth set of plugin variations (variations_jwf8.go): IDs after
// ids_jwf6.go's, parameters (all read from the XML) after its parameters.
// vibration2's two waves are thirteen parameters each, in JWildfire's
// order (dir, angle, freq, amp, phase for each, then the modulations).
const (
	VarVibration2 VarID = VarPointSymmetryWf + 1 + iota
	VarXtrb
	// Fractorium's gaussian and mirror_x, which its files use as
	// pre_gaussian and pre_mirror_x stages.
	VarGaussian
	VarMirrorX
	VarWavesn
	VarNBlur
	VarBlade3D
	VarJulian3Dx
	VarTileHlp
	VarFalloff2 // ids_jwf9.go continues
)

const (
	PVibration2Dir ParamID = PPointSymmetryWfColorshift + 1 + iota
	PVibration2Angle
	PVibration2Freq
	PVibration2Amp
	PVibration2Phase
	PVibration2Dir2
	PVibration2Angle2
	PVibration2Freq2
	PVibration2Amp2
	PVibration2Phase2
	PVibration2Dm
	PVibration2Dmfreq
	PVibration2Tm
	PVibration2Tmfreq
	PVibration2Fm
	PVibration2Fmfreq
	PVibration2Am
	PVibration2Amfreq
	PVibration2D2m
	PVibration2D2mfreq
	PVibration2T2m
	PVibration2T2mfreq
	PVibration2F2m
	PVibration2F2mfreq
	PVibration2A2m
	PVibration2A2mfreq
	PXtrbPower
	PXtrbRadius
	PXtrbWidth
	PXtrbDist
	PXtrbA
	PXtrbB
	PWavesnFreqx
	PWavesnFreqy
	PWavesnScalex
	PWavesnScaley
	PWavesnIncx
	PWavesnIncy
	PWavesnPower
	PNBlurNumEdges
	PNBlurNumStripes
	PNBlurRatioStripes
	PNBlurRatioHole
	PNBlurCircumCircle
	PNBlurAdjustToLinear
	PNBlurEqualBlur
	PNBlurExactCalc
	PNBlurHighlightEdges
	PJulian3DxPower
	PJulian3DxDist
	PJulian3DxA
	PJulian3DxB
	PJulian3DxC
	PJulian3DxD
	PJulian3DxE
	PJulian3DxF
	PTileHlpWidth
	PFalloff2Scatter
	PFalloff2Mindist
	PFalloff2MulX
	PFalloff2MulY
	PFalloff2MulZ
	PFalloff2MulC
	PFalloff2X0
	PFalloff2Y0
	PFalloff2Z0
	PFalloff2Invert
	PFalloff2Type // ids_jwf9.go continues
)
