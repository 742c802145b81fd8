package flame

import "math"

// The JWildfire plugin variations the kernels have (cuda/flame_variations_jwf.cuh),
// in order of their use in the artists' corpus. Only 2D ones: the kernels
// carry no z. Their parameters travel in the GPU xform's params after
// flam3's (GPUNumParams), in gpuPluginParams' order, so a flam3 genome's
// xform keeps its layout and the CPU's ParamIDs stay as they are.
var gpuPluginVars = [...]VarID{
	VarSineblur, VarHypertile2, VarEpispiralWf, VarBwraps7, VarBoarders2, VarHypertile1, VarWaves4Wf,
	VarJulian2, VarSpirograph, VarCannabiscurveWf, VarJuliac, VarWaves23, VarYinYang, VarCloverleafWf,
	VarJuliaq,
}

// gpuPluginParams are the parameters (read from the XML and precalculated)
// that the device code of gpuPluginVars reads; GPU parameter GPUNumParams+k
// is gpuPluginParams[k].
var gpuPluginParams = [...]ParamID{
	PSineblurPower,
	PHypertile2P, PHypertile2Pa, PHypertile2R,
	PEpispiralWfWaves,
	PBwraps7Cellsize, PBwraps7InnerTwist, PBwraps7OuterTwist, PBwraps7G2, PBwraps7R2, PBwraps7Rfactor,
	PBoarders2Cc, PBoarders2Cl, PBoarders2Cr,
	PHypertile1P, PHypertile1Pa, PHypertile1R,
	PWaves4WfScalex, PWaves4WfScaley, PWaves4WfFreqx, PWaves4WfFreqy, PWaves4WfUseCosX, PWaves4WfUseCosY,
	PWaves4WfDampingX, PWaves4WfDampingY,
	PJulian2Power, PJulian2A, PJulian2B, PJulian2C, PJulian2D, PJulian2E, PJulian2F, PJulian2AbsN, PJulian2CN,
	PSpirographA, PSpirographB, PSpirographD, PSpirographTmin, PSpirographTmax, PSpirographYmin,
	PSpirographYmax, PSpirographC1, PSpirographC2,
	PCannabiscurveWfFilled,
	PJuliacRe, PJuliacIm, PJuliacDist,
	PWaves23Scalex, PWaves23Scaley, PWaves23Freqx, PWaves23Freqy,
	PYinYangRadius, PYinYangAng1, PYinYangAng2, PYinYangDualT, PYinYangOutside,
	PCloverleafWfFilled,
	PJuliaqPower, PJuliaqHalfInvPower, PJuliaqInvPower, PJuliaqInvPower2pi,
}

// gpuNumParams is the length of the GPU xform's params: cuda/flame_ids.cuh's
// NUM_PARAMS.
const gpuNumParams = int(GPUNumParams) + len(gpuPluginParams)

// gpuHasVar reports whether the kernels have variation id.
func gpuHasVar(id VarID) bool {
	if id < GPUNumVars {
		return true
	}
	for _, v := range gpuPluginVars {
		if v == id {
			return true
		}
	}
	return false
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

// gpuParams converts x's parameters to the GPU xform's layout: flam3's,
// then gpuPluginParams. A finite value beyond float32's range becomes its
// largest finite value rather than an infinity.
func gpuParams(x *Xform) [gpuNumParams]float32 {
	var out [gpuNumParams]float32
	f := func(v float64) float32 {
		f := float32(v)
		if math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
			f = float32(math.Copysign(math.MaxFloat32, v))
		}
		return f
	}
	for i, v := range x.Params[:GPUNumParams] {
		out[i] = f(v)
	}
	for k, id := range gpuPluginParams {
		out[int(GPUNumParams)+k] = f(x.Params[id])
	}
	return out
}
