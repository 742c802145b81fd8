package flame

import "fmt"

// A variation's own parameters, and the defaults flam3 (or the program
// that made it) gives them. An xform carries every variation's parameters
// (NumParams, most of them JWildfire's), but only those of its own
// variations change what it draws: checking or defaulting just those keeps
// the thousands of temporal genomes of an animation frame cheap.

// ownParams lists the parameters of each variation, precalculated ones
// included: varParams (flam3_copy_params' lists) and flower_holes, which
// flam3 leaves out of them. (amw_amp belongs to no variation.)
var ownParams = makeOwnParams()

func makeOwnParams() [NumVars][]ParamID {
	var own [NumVars][]ParamID
	for v, ps := range varParams {
		own[v] = append([]ParamID(nil), ps...)
	}
	own[VarFlower] = append(own[VarFlower], PFlowerHoles)
	return own
}

// SetVarDefaults gives variation v's parameters in p their defaults
// (DefaultParams' values) and leaves every other parameter as it is: an
// xform built from zero that sets the defaults of each of its variations
// draws what one starting from DefaultParams draws.
func SetVarDefaults(p *Params, v VarID) {
	for _, id := range ownParams[v] {
		p[id] = defaultParams[id]
	}
}

// paramsProblem names the first parameter of x's variations and stages
// that is not finite ("" if none). Precalculated slots are Precalc's to
// fill and are not checked; parameters of variations x does not use draw
// nothing and are not checked either.
func (x *Xform) paramsProblem() string {
	check := func(v VarID) string {
		for _, id := range ownParams[v] {
			if val := x.Params[id]; val-val != 0 && !isPrecalc(id) { // NaN and ±Inf
				return fmt.Sprintf("%s is %g", ParamNames[id], val)
			}
		}
		return ""
	}
	for _, t := range x.Vars {
		if msg := check(t.ID); msg != "" {
			return msg
		}
	}
	for _, s := range x.Stages {
		if msg := check(s.ID); msg != "" {
			return msg
		}
	}
	return ""
}
