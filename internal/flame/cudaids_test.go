package flame

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (refused when CI is set)")

func TestCUDAIDsHeaderUpToDate(t *testing.T) {
	for path, want := range map[string]string{
		"../../cuda/flame_ids.cuh":         CUDAIDsHeader(),
		"../../cuda/flame_ids_plugins.cuh": CUDAPluginIDsHeader(),
		"../../cuda/flame_noise.cuh":       cudaNoiseHeader(),
	} {
		if *update {
			if os.Getenv("CI") != "" {
				t.Fatal("-update is refused under CI")
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("%s is stale: run go test ./internal/flame -run TestCUDAIDs -update", path)
		}
	}
}

// The CPU-only variations and parameters come after the GPU's ranges, so
// cuda/flame_ids.cuh and the GPU xform stay flam3's: the GPU's variations
// use only GPU parameters, the CPU-only ones only CPU-only parameters, and
// each parameter is either an XML one (named in ParamNames) or a
// precalculated one (named in precalcNames), never both.
func TestCPUOnlyIDsAfterGPURanges(t *testing.T) {
	if GPUNumVars != Flam3NumVars || VarLinear3D != GPUNumVars || PJulia3DPower != GPUNumParams {
		t.Errorf("GPUNumVars %d, Flam3NumVars %d, first CPU-only var %d, GPUNumParams %d, first CPU-only param %d",
			GPUNumVars, Flam3NumVars, VarLinear3D, GPUNumParams, PJulia3DPower)
	}
	for v, ps := range varParams {
		for _, p := range ps {
			// ids_jwf12.go's extensions of flam3 variations also read
			// flam3's parameters (splits_x, waves2_freqx, ...), packed
			// into the plugin slab as their own are.
			extends := v == VarSplitsShear || v == VarWaves2Z
			if (v < GPUNumVars) != (p < GPUNumParams) && !(extends && p < GPUNumParams) {
				t.Errorf("%s uses %s (%d): across the GPU/CPU-only split at %d", VarNames[v], paramName(p), p, GPUNumParams)
			}
		}
	}
	for id := ParamID(0); id < NumParams; id++ {
		xml, pre := ParamNames[id] != "", precalcNames[id] != ""
		if xml == pre || pre != isPrecalc(id) {
			t.Errorf("param %d: XML name %q, precalc name %q, isPrecalc %v", id, ParamNames[id], precalcNames[id], isPrecalc(id))
		}
	}
	if h := CUDAIDsHeader(); strings.Contains(h, "LINEAR3D") || strings.Contains(h, "JULIA3D") {
		t.Error("flam3's CUDA header names a plugin variation or parameter")
	}
	h := CUDAPluginIDsHeader()
	for id := GPUNumVars; id < NumVars; id++ {
		if gpuPluginOf(id) == nil && strings.Contains(h, "#define VAR_"+gpuVarMacro(id)+" ") {
			t.Errorf("the plugin header names %s, which the kernels lack", VarNames[id])
		}
	}
}

// TestCUDAIDsMacrosUnique: no macro of the two headers is defined twice
// (Fractorium's Mobius and its parameters are named as flam3's mobius are
// but for case: gpuVarMacro renames them).
func TestCUDAIDsMacrosUnique(t *testing.T) {
	seen := map[string]bool{}
	define := func(name string) {
		if seen[name] {
			t.Errorf("%s is defined twice", name)
		}
		seen[name] = true
	}
	for _, line := range strings.Split(CUDAIDsHeader()+CUDAPluginIDsHeader(), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "#define":
			define(f[1])
		case strings.HasPrefix(line, "enum {"): // the plugin parameters: enum { P_A = 0, P_B = 1 };
			for _, e := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "enum {"), " };"), ",") {
				define(strings.Fields(e)[0])
			}
		}
	}
	if !seen["VAR_MOBIUS"] || !seen["VAR_MOBIUS_FR"] || !seen["P_MOBIUS_FR_RE_A"] {
		t.Error("flam3's mobius or Fractorium's Mobius is not named as expected")
	}
}
