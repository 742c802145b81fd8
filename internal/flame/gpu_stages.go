package flame

import "fmt"

// Fractorium's pre_ and post_ stage terms on the GPU (variations_stage.go's
// stage, cuda/flame_variations_3d.cuh's pg_flame_stage): only the flame3d
// family runs them (a stage makes the genome carry z: xformUses3D), as terms
// after the xform's regular variations in the GPU xform's IDs and Weights.

// gpuStageTerms appends x's stage terms with a weight to gx after its nvars
// regular terms and returns them as VarTerms, for the plugin slab to hold
// their parameters (shared with the regular variation of the same name).
// A stage the kernels lack (or flatten as a stage) was refused before by
// pluginVarZ; too many terms for the GPU xform is an error here.
func gpuStageTerms(gx *gpuXform, x *Xform, nvars int, name string) ([]VarTerm, error) {
	var terms []VarTerm
	k := 0
	for _, t := range x.Stages {
		if t.Weight == 0 {
			continue
		}
		i := nvars + k
		if i >= gpuMaxVars {
			return nil, fmt.Errorf("flame %q: an xform with %d variations and stage terms, the GPU backend takes at most %d",
				name, nvars+len(x.Stages), gpuMaxVars)
		}
		gx.IDs[i] = uint16(t.ID)
		gx.Weights[i] = float32(t.Weight)
		if t.Post {
			gx.StagePost |= 1 << k
		}
		terms = append(terms, VarTerm{ID: t.ID, Weight: t.Weight})
		k++
	}
	if k == 0 {
		return nil, nil
	}
	gx.Stages = int32(k)
	gx.LinearOnly = 0
	if !hasRegularVar(x) {
		gx.StagePost |= 1 << 31
	}
	return terms, nil
}

// hasRegularVar reports whether x has a variation the CPU sums (compileXform's
// cx.vars: a weight, not pre_blur, not flatten); without one an xform with
// stage terms passes its point through as Fractorium does.
func hasRegularVar(x *Xform) bool {
	for _, v := range x.Vars {
		if v.Weight != 0 && v.ID != VarPreBlur && v.ID != VarFlatten {
			return true
		}
	}
	return false
}
