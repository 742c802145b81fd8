package flame

// Keyframes with different xform counts are aligned before they are
// interpolated, as flam3_align does: every genome is padded to the largest
// number of standard xforms (and a final xform if any has one) with
// "padding" xforms that change nothing, and those are then given better
// identities where a neighbour's variations need one.

// axform is an xform with its variation weights dense, as flam3 keeps them.
type axform struct {
	Xform
	v       [NumVars]float64
	padding bool
	wind    [2]float64 // asymmetric reference angles (sequence edges)
}

// aligned is a keyframe after alignment: nstd standard xforms, then the
// final one when final is set.
type aligned struct {
	k     *AnimGenome
	xf    []axform
	nstd  int
	final bool
	chaos [][]float64 // nstd×nstd; nil when every entry is 1 (no xaos)
}

func denseXform(x *Xform) axform {
	a := axform{Xform: *x}
	a.Vars = nil
	a.Chaos = nil
	for _, t := range x.Vars {
		a.v[t.ID] += t.Weight
	}
	return a
}

// paddingXform is flam3's freshly initialised xform at position i, marked
// as padding.
func paddingXform(i int) axform {
	x := axform{Xform: newXform(i), padding: true}
	x.v[VarLinear] = 1
	return x
}

// copyx is flam3_copyx: src padded to nstd standard xforms and, with final,
// a final xform.
func copyx(src *AnimGenome, nstd int, final bool) aligned {
	a := aligned{k: src, nstd: nstd, final: final}
	ns := len(src.Xforms)
	for i := 0; i < nstd; i++ {
		if i < ns {
			a.xf = append(a.xf, denseXform(&src.Xforms[i]))
		} else {
			a.xf = append(a.xf, paddingXform(i))
		}
	}
	xaos := false
	for i := range src.Xforms {
		xaos = xaos || src.Xforms[i].Chaos != nil
	}
	if xaos {
		a.chaos = make([][]float64, nstd)
	}
	for i := range a.chaos {
		row := make([]float64, nstd)
		for j := range row {
			row[j] = 1
			if i < ns && j < ns && j < len(src.Xforms[i].Chaos) {
				row[j] = src.Xforms[i].Chaos[j]
			}
		}
		a.chaos[i] = row
	}
	if final {
		if src.Final != nil {
			a.xf = append(a.xf, denseXform(src.Final))
		} else {
			p := paddingXform(nstd)
			p.Animate, p.ColorSpeed = 0, 0
			a.xf = append(a.xf, p)
		}
	}
	return a
}

// varParams lists the parameters flam3_copy_params copies for a variation
// (flam3 copies flower_petals twice and never flower_holes; so does this).
var varParams = map[VarID][]ParamID{
	VarBlob:         {PBlobLow, PBlobHigh, PBlobWaves},
	VarPdj:          {PPdjA, PPdjB, PPdjC, PPdjD},
	VarFan2:         {PFan2X, PFan2Y},
	VarRings2:       {PRings2Val},
	VarPerspective:  {PPerspectiveAngle, PPerspectiveDist, PPerspVsin, PPerspVfcos},
	VarJulian:       {PJulianPower, PJulianDist, PJulianRn, PJulianCn},
	VarJuliascope:   {PJuliascopePower, PJuliascopeDist, PJuliascopeRn, PJuliascopeCn},
	VarRadialBlur:   {PRadialBlurAngle},
	VarPie:          {PPieSlices, PPieRotation, PPieThickness},
	VarNgon:         {PNgonSides, PNgonPower, PNgonCorners, PNgonCircle},
	VarCurl:         {PCurlC1, PCurlC2},
	VarRectangles:   {PRectanglesX, PRectanglesY},
	VarDisc2:        {PDisc2Rot, PDisc2Twist},
	VarSuperShape:   {PSuperShapeRnd, PSuperShapeM, PSuperShapeN1, PSuperShapeN2, PSuperShapeN3, PSuperShapeHoles},
	VarFlower:       {PFlowerPetals},
	VarConic:        {PConicEccentricity, PConicHoles},
	VarParabola:     {PParabolaHeight, PParabolaWidth},
	VarBent2:        {PBent2X, PBent2Y},
	VarBipolar:      {PBipolarShift},
	VarCell:         {PCellSize},
	VarCpow:         {PCpowI, PCpowR, PCpowPower},
	VarCurve:        {PCurveXamp, PCurveYamp, PCurveXlength, PCurveYlength},
	VarEscher:       {PEscherBeta},
	VarLazysusan:    {PLazysusanX, PLazysusanY, PLazysusanSpin, PLazysusanSpace, PLazysusanTwist},
	VarModulus:      {PModulusX, PModulusY},
	VarOscilloscope: {POscilloscopeSeparation, POscilloscopeFrequency, POscilloscopeAmplitude, POscilloscopeDamping},
	VarPopcorn2:     {PPopcorn2X, PPopcorn2Y, PPopcorn2C},
	VarSeparation:   {PSeparationX, PSeparationY, PSeparationXinside, PSeparationYinside},
	VarSplit:        {PSplitXsize, PSplitYsize},
	VarSplits:       {PSplitsX, PSplitsY},
	VarStripes:      {PStripesSpace, PStripesWarp},
	VarWedge:        {PWedgeAngle, PWedgeHole, PWedgeCount, PWedgeSwirl},
	VarWedgeJulia: {PWedgeJuliaAngle, PWedgeJuliaCount, PWedgeJuliaPower, PWedgeJuliaDist,
		PWedgeJuliaCf, PWedgeJuliaCn, PWedgeJuliaRn},
	VarWedgeSph:    {PWedgeSphAngle, PWedgeSphHole, PWedgeSphCount, PWedgeSphSwirl},
	VarWhorl:       {PWhorlInside, PWhorlOutside},
	VarWaves2:      {PWaves2Scalex, PWaves2Scaley, PWaves2Freqx, PWaves2Freqy},
	VarAuger:       {PAugerSym, PAugerWeight, PAugerFreq, PAugerScale},
	VarFlux:        {PFluxSpread},
	VarMobius:      {PMobiusReA, PMobiusReB, PMobiusReC, PMobiusReD, PMobiusImA, PMobiusImB, PMobiusImC, PMobiusImD},
	VarJulia3D:     {PJulia3DPower},
	VarJulia3Dz:    {PJulia3DzPower},
	VarCurl3D:      {PCurl3DCx, PCurl3DCy, PCurl3DCz},
	VarBlob3D:      {PBlob3DLow, PBlob3DHigh, PBlob3DWaves},
	VarSineblur:    {PSineblurPower},
	VarEpispiralWf: {PEpispiralWfWaves},
	VarAffine3D: {PAffine3DTranslateX, PAffine3DTranslateY, PAffine3DTranslateZ, PAffine3DScaleX, PAffine3DScaleY,
		PAffine3DScaleZ, PAffine3DRotateX, PAffine3DRotateY, PAffine3DRotateZ, PAffine3DShearXY, PAffine3DShearXZ,
		PAffine3DShearYX, PAffine3DShearYZ, PAffine3DShearZX, PAffine3DShearZY},
	VarHypertile2: {PHypertile2P, PHypertile2Q},
	VarHypertile1: {PHypertile1P, PHypertile1Q},
	VarBwraps7:    {PBwraps7Cellsize, PBwraps7Space, PBwraps7Gain, PBwraps7InnerTwist, PBwraps7OuterTwist},
	VarBoarders2:  {PBoarders2C, PBoarders2Left, PBoarders2Right},
	VarJulian2:    {PJulian2Power, PJulian2Dist, PJulian2A, PJulian2B, PJulian2C, PJulian2D, PJulian2E, PJulian2F},
	VarJuliac:     {PJuliacRe, PJuliacIm, PJuliacDist},
	VarWaves4Wf: {PWaves4WfScalex, PWaves4WfScaley, PWaves4WfFreqx, PWaves4WfFreqy, PWaves4WfUseCosX, PWaves4WfUseCosY,
		PWaves4WfDampx, PWaves4WfDampy},
	VarPoincare3D: {PPoincare3DR, PPoincare3DA, PPoincare3DB},
	VarSpirograph: {PSpirographA, PSpirographB, PSpirographD, PSpirographTmin, PSpirographTmax, PSpirographYmin,
		PSpirographYmax, PSpirographC1, PSpirographC2},
	VarCannabiscurveWf: {PCannabiscurveWfFilled},
	VarCloverleafWf:    {PCloverleafWfFilled},
	VarEpispiral:       {PEpispiralN, PEpispiralThickness, PEpispiralHoles},
	VarYinYang:         {PYinYangRadius, PYinYangAng1, PYinYangAng2, PYinYangDualT, PYinYangOutside},
	VarJuliaq:          {PJuliaqPower, PJuliaqDivisor},
	VarWaves23:         {PWaves23Scalex, PWaves23Scaley, PWaves23Freqx, PWaves23Freqy},
	VarLinearT:         {PLinearTPowX, PLinearTPowY},
	VarBlurZoom:        {PBlurZoomLength, PBlurZoomX, PBlurZoomY},
	VarBlurLinear:      {PBlurLinearLength, PBlurLinearAngle},
	VarWaves2Radial: {PWaves2RadialScalex, PWaves2RadialScaley, PWaves2RadialFreqx, PWaves2RadialFreqy,
		PWaves2RadialNull, PWaves2RadialDistance},
	VarWaves2Wf: {PWaves2WfScalex, PWaves2WfScaley, PWaves2WfFreqx, PWaves2WfFreqy, PWaves2WfUseCosX, PWaves2WfUseCosY,
		PWaves2WfDampx, PWaves2WfDampy},
	VarTileLog:  {PTileLogSpread},
	VarStarblur: {PStarblurPower, PStarblurRange},
	VarBubble2:  {PBubble2X, PBubble2Y, PBubble2Z},
	VarWaffle:   {PWaffleSlices, PWaffleXthickness, PWaffleYthickness, PWaffleRotation},
	VarWaves2b: {PWaves2bFreqx, PWaves2bFreqy, PWaves2bPwx, PWaves2bPwy, PWaves2bScalex, PWaves2bScaleinfx,
		PWaves2bScaley, PWaves2bScaleinfy, PWaves2bUnity, PWaves2bJacok},
	VarWaves3Wf: {PWaves3WfScalex, PWaves3WfScaley, PWaves3WfFreqx, PWaves3WfFreqy, PWaves3WfUseCosX, PWaves3WfUseCosY,
		PWaves3WfDampx, PWaves3WfDampy},
	VarWaves22: {PWaves22Scalex, PWaves22Scaley, PWaves22Freqx, PWaves22Freqy, PWaves22Modex, PWaves22Modey,
		PWaves22Powerx, PWaves22Powery},
	VarWaves3: {PWaves3Scalex, PWaves3Scaley, PWaves3Freqx, PWaves3Freqy, PWaves3SxFreq, PWaves3SyFreq},
	VarWaves4: {PWaves4Scalex, PWaves4Scaley, PWaves4Freqx, PWaves4Freqy, PWaves4Cont, PWaves4Yfact},
	VarXheart: {PXheartAngle, PXheartRatio},
	VarFdisc: {PFdiscAshift, PFdiscRshift, PFdiscXshift, PFdiscYshift, PFdiscTerm1, PFdiscTerm2, PFdiscTerm3,
		PFdiscTerm4},
	VarOctagon:           {POctagonX, POctagonY, POctagonZ, POctagonMode},
	VarNpolar:            {PNpolarParity, PNpolarN},
	VarSynth:             paramRange(PSynthA, PSynthFLayer),
	VarAxisSymmetryWf:    paramRange(PAxisSymmetryWfAxis, PAxisSymmetryWfZ2colorshift),
	VarPointSymmetryWf:   paramRange(PPointSymmetryWfCentreX, PPointSymmetryWfColorshift),
	VarVibration2:        paramRange(PVibration2Dir, PVibration2A2mfreq),
	VarXtrb:              paramRange(PXtrbPower, PXtrbB),
	VarWavesn:            paramRange(PWavesnFreqx, PWavesnPower),
	VarNBlur:             paramRange(PNBlurNumEdges, PNBlurHighlightEdges),
	VarJulian3Dx:         paramRange(PJulian3DxPower, PJulian3DxF),
	VarTileHlp:           {PTileHlpWidth},
	VarFalloff2:          paramRange(PFalloff2Scatter, PFalloff2Type),
	VarMobiusFr:          paramRange(PMobiusFrReA, PMobiusFrImD),
	VarBwraps:            paramRange(PBwrapsCellsize, PBwrapsOuterTwist),
	VarLinearT3D:         paramRange(PLinearT3DPowX, PLinearT3DPowZ),
	VarMurl:              {PMurlC, PMurlPower},
	VarShredlin:          paramRange(PShredlinXdistance, PShredlinYwidth),
	VarTarget:            paramRange(PTargetEven, PTargetSize),
	VarBarycentroid:      paramRange(PBarycentroidA, PBarycentroidD),
	VarBTransform:        paramRange(PBTransformRotate, PBTransformSplit),
	VarGlynnSim1:         paramRange(PGlynnSim1Radius, PGlynnSim1Contrast),
	VarHypertile:         paramRange(PHypertileP, PHypertileN),
	VarTruchet:           paramRange(PTruchetExtended, PTruchetDirectColor),
	VarMcarpet:           paramRange(PMcarpetX, PMcarpetTilt),
	VarCos2Bs:            paramRange(PCos2BsX1, PCos2BsY2),
	VarSec2Bs:            paramRange(PSec2BsX1, PSec2BsY2),
	VarMapleLeaf:         {PMapleLeafFilled},
	VarJapaneseMapleLeaf: {PJapaneseMapleLeafFilled},
	VarDisc3D:            {PDisc3DPi},
	VarLissajous:         paramRange(PLissajousTmin, PLissajousE),
	VarOscilloscope2:     paramRange(POscilloscope2Separation, POscilloscope2Damping),
	VarSpligon:           paramRange(PSpligonSides, PSpligonI),
	VarGlynnSim2:         paramRange(PGlynnSim2Radius, PGlynnSim2Phi2),
	VarDSpherical:        {PDSphericalDSpherWeight},
	VarMinkowskope:       paramRange(PMinkowskopeSeparation, PMinkowskopeDamping),
	VarCirclesplit:       {PCirclesplitCsRadius, PCirclesplitCsSplit},
	VarEJulia:            {PEJuliaPower},
	VarCirclize2:         {PCirclize2Hole},
	VarCpow3Wf:           paramRange(PCpow3WfR, PCpow3WfOffset2),
	VarSpirograph3D:      paramRange(PSpirograph3DA, PSpirograph3DDirectColor),
	VarChunk:             paramRange(PChunkA, PChunkMode),
	VarCsc2Bs:            paramRange(PCsc2BsX1, PCsc2BsY2),
	VarCosh2Bs:           paramRange(PCosh2BsX1, PCosh2BsY2),
	VarCot2Bs:            paramRange(PCot2BsX1, PCot2BsY2),
	VarCoth2Bs:           paramRange(PCoth2BsX1, PCoth2BsY2),
	VarSech2Bs:           paramRange(PSech2BsX1, PSech2BsY2),
	VarSinh2Bs:           paramRange(PSinh2BsX1, PSinh2BsY2),
	VarTan2Bs:            paramRange(PTan2BsX1, PTan2BsY2),
	VarTanh2Bs:           paramRange(PTanh2BsX1, PTanh2BsY2),
	VarExp2Bs:            paramRange(PExp2BsX1, PExp2BsY2),
	VarCardioid:          {PCardioidA},
	VarChecks:            paramRange(PChecksX, PChecksRnd),
	VarSph3D:             paramRange(PSph3DX, PSph3DZ),
	VarSigmoid:           {PSigmoidShiftx, PSigmoidShifty},
	VarShift:             paramRange(PShiftShiftX, PShiftAngle),
	VarTriangle:          paramRange(PTriangleX1, PTriangleZ3),
	VarCone:              paramRange(PConeRadius1, PConeWeight),
	VarPowBlock:          paramRange(PPowBlockNumerator, PPowBlockCorrectd),
	VarLoonie2:           paramRange(PLoonie2Sides, PLoonie2Circle),
	VarHypershift:        {PHypershiftShift, PHypershiftStretch},
	VarEnnepers2:         paramRange(PEnnepers2A, PEnnepers2C),
	VarEScale:            {PEScaleScale, PEScaleAngle},
	VarLine:              {PLineDelta, PLinePhi},
	VarSphericalN:        {PSphericalNPower, PSphericalNDist},
	VarLozi:              paramRange(PLoziA, PLoziC),
	VarHenon:             paramRange(PHenonA, PHenonC),
	VarCpow3:             paramRange(PCpow3R, PCpow3Spread),
	VarHypertile3D:       paramRange(PHypertile3DP, PHypertile3DN),
	VarSuperShape3d:      paramRange(PSuperShape3dRho, PSuperShape3dToroidmap),
	VarEMotion:           {PEMotionMove, PEMotionRotate},
	VarHypertile3D2:      {PHypertile3D2P, PHypertile3D2Q},
	VarCubic3D:           {PCubic3DXpand, PCubic3DStyle},
	VarCollideoscope:     {PCollideoscopeA, PCollideoscopeNum},
	VarAsteria:           {PAsteriaAlpha},
	VarFalloffFr:         paramRange(PFalloffFrScatter, PFalloffFrBoxpow),
	VarRblur:             paramRange(PRblurStrength, PRblurCenterY),
	VarSphereblur:        {PSphereblurPower},
	VarBcircle:           {PBcircleScale, PBcircleBorderwidth},
	VarSeashell3D:        paramRange(PSeashell3DFinalRadius, PSeashell3DNSpirals),
	VarRoseWf:            paramRange(PRoseWfAmp, PRoseWfFilled),
	VarPTransform:        paramRange(PPTransformRotate, PPTransformUseLog),
	VarKaleidoscope:      paramRange(PKaleidoscopePull, PKaleidoscopeY),
	VarWaveblurWf:        paramRange(PWaveblurWfCount, PWaveblurWfColorOffset),
	VarHexes:             paramRange(PHexesCellsize, PHexesScale),
	VarFalloff3:          paramRange(PFalloff3BlurType, PFalloff3Alpha),
	VarLazyTravis:        paramRange(PLazyTravisSpinIn, PLazyTravisSpace),
	VarJoukowski:         paramRange(PJoukowskiP1, PJoukowskiInverse),
	VarGnarly:            {PGnarlyCellsize, PGnarlyTwist},
	VarExBlur:            paramRange(PExBlurDist, PExBlurZOrigin),
	VarGlitchy1:          paramRange(PGlitchy1ScaleX, PGlitchy1W),
	VarLazysensen:        paramRange(PLazysensenScaleX, PLazysensenScaleZ),
	VarShredded:          paramRange(PShreddedX1, PShreddedBlur),
	VarCrackle:           paramRange(PCrackleCellsize, PCrackleZ),
	VarPlaneWf:           paramRange(PPlaneWfPosition, PPlaneWfReceiveOnlyShadows),
	VarTqmirror:          paramRange(PTqmirrorPreset, PTqmirrorMode),
	VarTrig:              paramRange(PTrigReciprocal, PTrigTanh),
	VarScrambly:          paramRange(PScramblyL, PScramblyCellsize),
	VarFarblur:           paramRange(PFarblurX, PFarblurZOrigin),
	VarSymNg15:           paramRange(PSymNg15Radius, PSymNg15Stepy),
	VarMaurerRose:        paramRange(PMaurerRoseKn, PMaurerRoseCurveThickness),
	VarPRose3D:           paramRange(PPRose3DL, PPRose3DOffset),
	VarCliffordJs:        paramRange(PCliffordJsA, PCliffordJsD),
	VarSattractorJs:      {PSattractorJsM},
	VarEllipticMode:      {PEllipticMode},
	VarSplitsShear:       {PSplitsX, PSplitsY, PSplitsLshear, PSplitsRshear, PSplitsUshear, PSplitsDshear},
	VarWaves2Z:           {PWaves2Freqx, PWaves2Scalex, PWaves2Freqy, PWaves2Scaley, PWaves2Freqz, PWaves2Scalez},
	VarLogBase:           {PLogBase},
	VarWaves23D:          {PWaves23DFreq, PWaves23DScale},
	VarSpherical3DWf:     {PSpherical3DWfInvert, PSpherical3DWfExponent},
	VarHeartWf:           {PHeartWfScaleX, PHeartWfShiftT, PHeartWfScaleRLeft, PHeartWfScaleRRight},
}

// align is flam3_align over the keyframes src.
func align(src []*AnimGenome) []aligned {
	nsrc := len(src)
	maxNx, maxFx := len(src[0].Xforms), src[0].Final != nil
	already := true
	for _, s := range src[1:] {
		if n := len(s.Xforms); n != maxNx {
			already = false
			maxNx = max(maxNx, n)
		}
		if f := s.Final != nil; f != maxFx {
			already = false
			maxFx = maxFx || f
		}
	}
	dst := make([]aligned, nsrc)
	for i, s := range src {
		dst[i] = copyx(s, maxNx, maxFx)
	}
	if t := dst[max(nsrc/2-1, 0)].k.InterpType; t == InterpCompat || t == InterpOlder {
		return dst
	}
	for i := range dst {
		for xf := range dst[i].xf {
			x := &dst[i].xf[xf]
			// A parametric variation missing here but present in the
			// neighbour takes the neighbour's parameters, so they do not
			// sweep in from the defaults.
			for j := VarBlob; j < NumVars; j++ {
				if x.v[j] != 0 {
					continue
				}
				var from *axform
				if i > 0 {
					from = &dst[i-1].xf[xf]
				} else if i < nsrc-1 {
					from = &dst[i+1].xf[xf]
				}
				if from != nil && from.v[j] != 0 {
					for _, p := range varParams[j] {
						x.Params[p] = from.Params[p]
					}
				}
			}
			if x.padding && !already {
				betterIdentity(dst, i, xf)
			}
		}
	}
	return dst
}

// betterIdentity replaces padding xform xf of dst[i] by an identity suited
// to its neighbours' variations (flam3_align).
func betterIdentity(dst []aligned, i, xf int) {
	x := &dst[i].xf[xf]
	x.v[VarLinear] = 0
	neighbours := func(fn func(n *axform)) {
		for _, ii := range []int{-1, 1} {
			if i+ii < 0 || i+ii >= len(dst) || dst[i+ii].xf[xf].padding {
				continue
			}
			fn(&dst[i+ii].xf[xf])
		}
	}
	fnd := 0
	logType := (i == 0 && dst[i].k.InterpType == InterpLog) || (i > 0 && dst[i-1].k.InterpType == InterpLog)
	if logType {
		neighbours(func(n *axform) {
			// Holes would open against a plain identity: use a 180-degree
			// rotated one with weight -1.
			if n.v[VarSpherical] > 0 || n.v[VarNgon] > 0 || n.v[VarJulian] > 0 || n.v[VarJuliascope] > 0 ||
				n.v[VarPolar] > 0 || n.v[VarWedgeSph] > 0 || n.v[VarWedgeJulia] > 0 {
				x.v[VarLinear] = -1
				x.Coefs = Affine{-1, 0, 0, -1, 0, 0}
				fnd = -1
			}
		})
	}
	if fnd == 0 {
		neighbours(func(n *axform) {
			if n.v[VarRectangles] > 0 {
				x.v[VarRectangles] = 1
				x.Params[PRectanglesX], x.Params[PRectanglesY] = 0, 0
				fnd++
			}
			if n.v[VarRings2] > 0 {
				x.v[VarRings2] = 1
				x.Params[PRings2Val] = 0
				fnd++
			}
			if n.v[VarFan2] > 0 {
				x.v[VarFan2] = 1
				x.Params[PFan2X], x.Params[PFan2Y] = 0, 0
				fnd++
			}
			if n.v[VarBlob] > 0 {
				x.v[VarBlob] = 1
				x.Params[PBlobLow], x.Params[PBlobHigh], x.Params[PBlobWaves] = 1, 1, 1
				fnd++
			}
			if n.v[VarPerspective] > 0 {
				x.v[VarPerspective] = 1
				x.Params[PPerspectiveAngle] = 0
				fnd++
			}
			if n.v[VarCurl] > 0 {
				x.v[VarCurl] = 1
				x.Params[PCurlC1], x.Params[PCurlC2] = 0, 0
				fnd++
			}
			if n.v[VarSuperShape] > 0 {
				x.v[VarSuperShape] = 1
				x.Params[PSuperShapeN1], x.Params[PSuperShapeN2], x.Params[PSuperShapeN3] = 2, 2, 2
				x.Params[PSuperShapeRnd], x.Params[PSuperShapeHoles] = 0, 0
				fnd++
			}
		})
	}
	if fnd == 0 {
		neighbours(func(n *axform) {
			if n.v[VarFan] > 0 {
				x.v[VarFan] = 1
				fnd++
			}
			if n.v[VarRings] > 0 {
				x.v[VarRings] = 1
				fnd++
			}
		})
		if fnd > 0 {
			x.Coefs = Affine{0, 1, 1, 0, 0, 0}
		}
	}
	switch {
	case fnd == 0:
		x.v[VarLinear] = 1
	case fnd > 0:
		sum := 0.0
		for _, w := range x.v {
			sum += w
		}
		for j := range x.v {
			x.v[j] /= sum
		}
	}
}
