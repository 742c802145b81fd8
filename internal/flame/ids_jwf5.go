package flame

// The fifth set of JWildfire plugin variations (variations_jwf5.go): their
// IDs follow ids.go's, and their parameters, all read from the XML, follow
// the precalculated plugin parameters (isPrecalc leaves them out).
const (
	VarWaves2b VarID = VarWaffle + 1 + iota
	VarWaves3Wf
	VarWaves22
	VarWaves3
	VarWaves4
	VarXheart
	VarFdisc
	VarOctagon
	VarNpolar // ids_jwf6.go continues
)

const (
	PWaves2bFreqx ParamID = PStarblurLength + 1 + iota
	PWaves2bFreqy
	PWaves2bPwx
	PWaves2bPwy
	PWaves2bScalex
	PWaves2bScaleinfx
	PWaves2bScaley
	PWaves2bScaleinfy
	PWaves2bUnity
	PWaves2bJacok
	PWaves3WfScalex
	PWaves3WfScaley
	PWaves3WfFreqx
	PWaves3WfFreqy
	PWaves3WfUseCosX
	PWaves3WfUseCosY
	PWaves3WfDampx
	PWaves3WfDampy
	PWaves22Scalex
	PWaves22Scaley
	PWaves22Freqx
	PWaves22Freqy
	PWaves22Modex
	PWaves22Modey
	PWaves22Powerx
	PWaves22Powery
	PWaves3Scalex
	PWaves3Scaley
	PWaves3Freqx
	PWaves3Freqy
	PWaves3SxFreq
	PWaves3SyFreq
	PWaves4Scalex
	PWaves4Scaley
	PWaves4Freqx
	PWaves4Freqy
	PWaves4Cont
	PWaves4Yfact
	PXheartAngle
	PXheartRatio
	PFdiscAshift
	PFdiscRshift
	PFdiscXshift
	PFdiscYshift
	PFdiscTerm1
	PFdiscTerm2
	PFdiscTerm3
	PFdiscTerm4
	POctagonX
	POctagonY
	POctagonZ
	POctagonMode
	PNpolarParity
	PNpolarN // ids_jwf6.go continues
)
