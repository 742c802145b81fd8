package flame

import (
	"fmt"
	"strings"
	"testing"
)

// heavyInputs is the GPU view of testdata's heavy genome (many variation
// kinds, a post affine, a final xform).
func heavyInputs(t *testing.T) (gpuGenome, []gpuXform) {
	t.Helper()
	gs, _, err := ParseFile("../../testdata/flame/heavy.flam3", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlan(gs[0], Options{Width: 64, Quality: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	gg, xs, err := p.gpuInputs(p.chaosGame(1))
	if err != nil {
		t.Fatal(err)
	}
	return gg, xs
}

// TestSpecialShape: genomes that differ only in data (weights, affines)
// share a shape and a kernel source; a different variation, a post affine
// or a pre_blur makes another.
func TestSpecialShape(t *testing.T) {
	gg, xs := heavyInputs(t)
	nx := int(gg.NXforms)
	base := string(appendShape(nil, xs, nx))
	src := specialSource(xs, nx)
	data := append([]gpuXform(nil), xs...)
	for i := range data {
		data[i].Coefs[0] *= 1.5
		data[i].Weights[0] *= 0.5
	}
	if string(appendShape(nil, data, nx)) != base || specialSource(data, nx) != src {
		t.Error("weights and coefficients changed the shape")
	}
	var nonLinear int = -1
	for i := range xs {
		if xs[i].LinearOnly == 0 {
			nonLinear = i
			break
		}
	}
	if nonLinear < 0 {
		t.Fatal("heavy.flam3 has no non-linear xform")
	}
	changes := map[string]func(x *gpuXform){
		"variation": func(x *gpuXform) { x.IDs[0] = uint16(VarSwirl) ^ x.IDs[0] },
		"post":      func(x *gpuXform) { x.HasPost ^= 1 },
		"pre_blur":  func(x *gpuXform) { x.PreBlur = 0 },
	}
	for name, change := range changes {
		c := append([]gpuXform(nil), xs...)
		change(&c[nonLinear])
		if string(appendShape(nil, c, nx)) == base || specialSource(c, nx) == src {
			t.Errorf("a changed %s kept the shape", name)
		}
	}
	// The source applies every variation of every xform by its constant id,
	// and names no other (no dispatch compiled in).
	for i := range xs {
		x := &xs[i]
		if x.LinearOnly != 0 {
			continue
		}
		for j, id := range x.IDs[:x.NVars] {
			call := fmt.Sprintf("pg_flame_var(%du, f.weights[%d]", id, j)
			if VarID(id) >= VarArch { // rare: its case inlined
				call = fmt.Sprintf("pg_flame_var_rare_body(%du, f.weights[%d]", id, j)
			}
			if VarID(id) != VarPreBlur && !strings.Contains(src, call) {
				t.Errorf("xform %d: the source lacks %s", i, call)
			}
		}
	}
	if strings.Contains(src, "apply_xform") || strings.Contains(src, "pg_flame_var_rare(") {
		t.Error("the source compiles in the run-time dispatch")
	}
	if len(xs) > nx && !strings.Contains(src, fmt.Sprintf("return pg_xf%d(f, x, y, rng);", nx)) {
		t.Error("the final xform is not applied")
	}
}
