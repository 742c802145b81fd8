package flame

import (
	"fmt"
	"strings"
)

// CUDAIDsHeader renders cuda/flame_ids.cuh: the VarID and ParamID numbers as
// C macros, so device code indexes parameters exactly as Go does. A test
// keeps the checked-in header equal to this. Only the GPU's ranges are
// written: flam3's (GPUNumVars, GPUNumParams) here, the plugin variations
// the kernels have in flame_ids_plugins.cuh (CUDAPluginIDsHeader), which it
// includes; the other CPU-only variations and parameters are not named.
func CUDAIDsHeader() string {
	var b strings.Builder
	b.WriteString("// Generated from internal/flame/ids.go by `go test ./internal/flame -run TestCUDAIDs -update`.\n")
	b.WriteString("// Do not edit: the Go tables are the source.\n#pragma once\n\n")
	for id, name := range VarNames[:GPUNumVars] {
		fmt.Fprintf(&b, "#define VAR_%s %d\n", strings.ToUpper(name), id)
	}
	fmt.Fprintf(&b, "#define NUM_VARS %d\n\n", GPUNumVars)
	for id := ParamID(0); id < GPUNumParams; id++ {
		fmt.Fprintf(&b, "#define P_%s %d\n", strings.ToUpper(paramName(id)), id)
	}
	fmt.Fprintf(&b, "#define PRECALC_FIRST %d\n", PrecalcFirst)
	fmt.Fprintf(&b, "#define NUM_PARAMS %d\n", gpuNumParams)
	b.WriteString("\n// The plugin parameters' slab (internal/flame's gpuPluginPack).\n")
	fmt.Fprintf(&b, "#define PLUGIN_BASE %d\n#define PLUGIN_SLAB %d\n", GPUNumParams, gpuPluginSlab)
	b.WriteString("\n#include \"flame_ids_plugins.cuh\"\n")
	return b.String()
}

// CUDAPluginIDsHeader renders cuda/flame_ids_plugins.cuh: the plugin
// variations the kernels have (gpuPlugins, by their ids, which the device
// uses as they are) and, per variation, each parameter's index in its block
// of the plugin slab. Its own file: with flam3's it passed 600 lines.
func CUDAPluginIDsHeader() string {
	var b strings.Builder
	b.WriteString("// Generated from internal/flame/gpu_plugins.go by `go test ./internal/flame -run TestCUDAIDs -update`.\n")
	b.WriteString("// Do not edit: the Go tables are the source. Included by flame_ids.cuh.\n#pragma once\n\n")
	b.WriteString("// JWildfire plugin variations on the GPU (cuda/flame_variations_jwf*.cuh).\n")
	for _, pl := range gpuPlugins {
		fmt.Fprintf(&b, "#define VAR_%s %d\n", gpuVarMacro(pl.id), pl.id)
	}
	// One enum a variation keeps the header short (a #define a parameter
	// made it 800 lines); the names are used as constants only.
	b.WriteString("\n// Each parameter's index in its variation's block of the plugin slab.\n")
	for _, pl := range gpuPlugins {
		if len(pl.params) == 0 {
			continue
		}
		b.WriteString("enum {")
		for k, id := range pl.params {
			if k > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " P_%s = %d", gpuParamMacro(pl.id, id), k)
		}
		b.WriteString(" };\n")
	}
	return b.String()
}

// gpuVarMacro is plugin variation id's name in the header: its name in
// capitals, with _FR after it where that is a variation's with a smaller id
// too (Fractorium's Mobius beside flam3's mobius, Spherical3D beside
// JWildfire's spherical3D), so no macro is defined twice.
func gpuVarMacro(id VarID) string {
	name := strings.ToUpper(VarNames[id])
	for _, f := range VarNames[:id] {
		if strings.ToUpper(f) == name {
			return name + "_FR"
		}
	}
	return name
}

// gpuParamMacro is the name in the header of parameter id of plugin
// variation v: its name in capitals, the variation's part renamed as
// gpuVarMacro renames it.
func gpuParamMacro(v VarID, id ParamID) string {
	name, vn := strings.ToUpper(paramName(id)), strings.ToUpper(VarNames[v])
	if rest, ok := strings.CutPrefix(name, vn); ok {
		return gpuVarMacro(v) + rest
	}
	return name
}

// precalcNames name the derived parameters, by ParamID.
var precalcNames = [NumParams]string{
	PrecalcFirst: "persp_vsin", "persp_vfcos", "julian_rn", "julian_cn", "juliascope_rn", "juliascope_cn",
	"wedge_julia_rn", "wedge_julia_cn", "wedge_julia_cf", "radial_blur_spinvar", "radial_blur_zoomvar",
	"waves_dx2", "waves_dy2", "disc2_sinadd", "disc2_cosadd", "disc2_timespi", "super_shape_pm_4",
	"super_shape_pneg1_n1",
	PluginPrecalcFirst: "julia3D_n", "julia3D_cpower", "julia3Dz_n", "julia3Dz_cpower", "curl3D_c2",
	"affine3D_sinx", "affine3D_cosx", "affine3D_siny", "affine3D_cosy", "affine3D_sinz", "affine3D_cosz",
	"hypertile2_pa", "hypertile2_r", "hypertile1_pa", "hypertile1_r",
	"bwraps7_g2", "bwraps7_r2", "bwraps7_rfactor", "boarders2_cc", "boarders2_cl", "boarders2_cr",
	"julian2_absn", "julian2_cn", "waves4_wf_damping_x", "waves4_wf_damping_y", "poincare3D_cx", "poincare3D_cy",
	"poincare3D_cz", "poincare3D_c2", "poincare3D_s2x", "poincare3D_s2y", "poincare3D_s2z",
	"juliaq_half_inv_power", "juliaq_inv_power", "juliaq_inv_power_2pi", "waves2_wf_damping_x", "waves2_wf_damping_y",
	"starblur_alpha", "starblur_length",
}

func paramName(id ParamID) string {
	if isPrecalc(id) {
		return precalcNames[id]
	}
	return ParamNames[id]
}
