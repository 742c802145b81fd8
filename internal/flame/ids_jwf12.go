package flame

// The twelfth set of plugin variations (variations_jwf12.go): IDs after
// ids_jwf10.go's, parameters (all read from the XML) after its parameters.
// NumVars and NumParams end here: a later set moves them.
//
// The first four are flam3 variations as other programs extend them with
// parameters flam3 lacks. Their VarNames are flam3's (elliptic, splits,
// waves2, log), so they are written back under them; a name maps to its
// smallest id (xmlNames), flam3's, and the parser moves the weight to the
// extended id only where the file sets an extra parameter away from what
// flam3's formula means (extendFlam3Vars), so flam3 genomes keep flam3's
// variations and kernels.
const (
	VarEllipticMode VarID = VarSattractorJs + 1 + iota // JWildfire's elliptic with elliptic_mode 1 or 2
	VarSplitsShear                                     // JWildfire's splits with its four shears
	VarWaves2Z                                         // Fractorium's waves2 with waves2_scalez: writes z
	VarLogBase                                         // Fractorium's log with log_base
	// JWildfire's, next in the artists' corpus.
	VarWaves23D      // waves2_3D
	VarSpherical3DWf // spherical3D_wf
	VarHeartWf       // heart_wf
	// farblur reads the sum of the variations applied before it, which run
	// in ID order: it stays the last, a later set moving it with NumVars
	// (TestJWF10Farblur).
	VarFarblur
	NumVars // all the variations the CPU has
)

const (
	PEllipticMode ParamID = PSattractorJsM + 1 + iota
	PSplitsLshear
	PSplitsRshear
	PSplitsUshear
	PSplitsDshear
	PWaves2Scalez
	PWaves2Freqz
	PLogBase
	PWaves23DFreq
	PWaves23DScale
	PSpherical3DWfInvert
	PSpherical3DWfExponent
	PHeartWfScaleX
	PHeartWfShiftT
	PHeartWfScaleRLeft
	PHeartWfScaleRRight
	NumParams // all the parameters the CPU has
)
