package flame

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestSetVarDefaults: starting from zero, each variation's own parameters
// get exactly DefaultParams' values and no other parameter changes.
func TestSetVarDefaults(t *testing.T) {
	def := DefaultParams()
	for v := VarID(0); v < NumVars; v++ {
		var p Params
		for i := range p {
			p[i] = -7 // a value no default has
		}
		SetVarDefaults(&p, v)
		own := map[ParamID]bool{}
		for _, id := range ownParams[v] {
			own[id] = true
		}
		for id := range p {
			want := -7.0
			if own[ParamID(id)] {
				want = def[id]
			}
			if p[id] != want {
				t.Fatalf("%s: %s is %g, want %g", VarNames[v], ParamNames[id], p[id], want)
			}
		}
	}
	if !slices.Contains(ownParams[VarFlower], PFlowerHoles) {
		t.Errorf("flower_holes is not flower's")
	}
}

// TestOwnParamsCoverEveryParameter: every parameter a file can set belongs
// to some variation (amw_amp, flam3's orphan, aside), so Validate checks
// it wherever it can change a picture.
func TestOwnParamsCoverEveryParameter(t *testing.T) {
	owned := map[ParamID]bool{}
	for _, ps := range ownParams {
		for _, p := range ps {
			owned[p] = true
		}
	}
	for p := ParamID(0); p < NumParams; p++ {
		if !isPrecalc(p) && ParamNames[p] != "" && !owned[p] && p != PAmwAmp {
			t.Errorf("%s belongs to no variation", ParamNames[p])
		}
	}
}

// TestValidateParamsOfOwnVariations: a parameter that is not finite is an
// error where the xform's variations or stages read it, and ignored where
// none does.
func TestValidateParamsOfOwnVariations(t *testing.T) {
	g := DefaultGenome()
	g.Name = "p"
	g.Xforms = []Xform{newXform(0)}
	x := &g.Xforms[0]
	x.Weight = 1
	x.Vars = []VarTerm{{ID: VarLinear, Weight: 1}}
	x.Params[PJulianPower] = math.NaN()
	if err := g.Validate(); err != nil {
		t.Errorf("NaN in an unused variation's parameter: %v", err)
	}
	x.Vars = append(x.Vars, VarTerm{ID: VarJulian, Weight: 0.5})
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "julian_power is NaN") {
		t.Errorf("NaN julian_power with julian: %v", err)
	}
	x.Vars = x.Vars[:1]
	x.Stages = []StageTerm{{Post: true, ID: VarJulian, Weight: 1}}
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "julian_power is NaN") {
		t.Errorf("NaN julian_power with post_julian: %v", err)
	}
	x.Stages = nil
	x.Params[PJulianPower] = 1
	x.Params[PFlowerHoles] = math.Inf(1)
	x.Vars = append(x.Vars, VarTerm{ID: VarFlower, Weight: 1})
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "flower_holes is +Inf") {
		t.Errorf("Inf flower_holes with flower: %v", err)
	}
}
