package flame

// The sixth set of JWildfire plugin variations (variations_jwf6.go): IDs
// after ids_jwf5.go's, parameters (all read from the XML) after its
// parameters. synth's five wave layers b..f are six parameters each, in
// JWildfire's order, so that layer k starts at PSynthB + 6·k.
const (
	VarSynth VarID = VarNpolar + 1 + iota
	// JWildfire's post_axis_symmetry_wf and post_point_symmetry_wf: read
	// as post_ stages of these (variations_stage.go), the only way
	// JWildfire has them.
	VarAxisSymmetryWf
	VarPointSymmetryWf // ids_jwf8.go continues
)

const (
	PSynthA ParamID = PNpolarN + 1 + iota
	PSynthMode
	PSynthPower
	PSynthMix
	PSynthSmooth
	PSynthB // then b_type, b_skew, b_frq, b_phs, b_layer, and c..f alike
	PSynthBType
	PSynthBSkew
	PSynthBFrq
	PSynthBPhs
	PSynthBLayer
	PSynthC
	PSynthCType
	PSynthCSkew
	PSynthCFrq
	PSynthCPhs
	PSynthCLayer
	PSynthD
	PSynthDType
	PSynthDSkew
	PSynthDFrq
	PSynthDPhs
	PSynthDLayer
	PSynthE
	PSynthEType
	PSynthESkew
	PSynthEFrq
	PSynthEPhs
	PSynthELayer
	PSynthF
	PSynthFType
	PSynthFSkew
	PSynthFFrq
	PSynthFPhs
	PSynthFLayer
	PAxisSymmetryWfAxis
	PAxisSymmetryWfCentreX
	PAxisSymmetryWfCentreY
	PAxisSymmetryWfCentreZ
	PAxisSymmetryWfRotation
	PAxisSymmetryWfX1colorshift
	PAxisSymmetryWfY1colorshift
	PAxisSymmetryWfZ1colorshift
	PAxisSymmetryWfX2colorshift
	PAxisSymmetryWfY2colorshift
	PAxisSymmetryWfZ2colorshift
	PPointSymmetryWfCentreX
	PPointSymmetryWfCentreY
	PPointSymmetryWfOrder
	PPointSymmetryWfColorshift // ids_jwf8.go continues
)

// synthLayers is the number of synth's wave layers (b..f).
const synthLayers = 5

// paramRange lists the parameters from first to last.
func paramRange(first, last ParamID) []ParamID {
	var ps []ParamID
	for p := first; p <= last; p++ {
		ps = append(ps, p)
	}
	return ps
}
