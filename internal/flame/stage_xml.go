package flame

import (
	"bufio"
	"fmt"
	"strings"
)

// Reading Fractorium's pre_ and post_ variations (variations_stage.go):
// pre_NAME="w" and post_NAME="w" for any variation procgen has, with its
// parameters as pre_NAME_param / post_NAME_param. pre_linear and
// post_linear are folded into the affines instead (parse_ext.go), and
// pre_blur is flam3's own variation.

// stageAttr reads name if it is a stage variation or one of its
// parameters; ok reports whether it was.
func (fp *flameParser) stageAttr(ext *xformExt, name, value string, line int) (ok bool, err error) {
	names := xmlNames()
	// JWildfire writes its pre_/post_ variations' priority: 0 (the class's
	// own) or the stage's (−1 pre, 1 post) is the stage procgen runs them in.
	if base, ok := strings.CutSuffix(name, "_fx_priority"); ok {
		for own, pfx := range [...]string{"pre_", "post_"} {
			v, cut := strings.CutPrefix(base, pfx)
			if n, known := names[v]; cut && known && n.isVar && n.v != VarPreBlur {
				pr, perr := parseFloat(value)
				if perr != nil {
					return true, fp.errorf(line, "bad %s value %q", name, value)
				}
				if pr != 0 && pr != float64(2*own-1) {
					return true, fp.notHonoured("variation stage", name, "xform", fp.xoff, line)
				}
				return true, nil
			}
		}
	}
	for _, pfx := range [...]string{"pre_", "post_"} {
		base, cut := strings.CutPrefix(name, pfx)
		if !cut {
			continue
		}
		n, known := names[base]
		// pre_blur is a stage of its own; farblur reads the sum of the
		// variations, which a stage does not have.
		if !known || n.isVar && (n.v == VarPreBlur || n.v == VarFarblur) {
			return false, nil
		}
		v, perr := parseFloat(value)
		if perr != nil {
			return true, fp.errorf(line, "bad %s value %q", name, value)
		}
		if n.isVar {
			if v != 0 {
				ext.stages = append(ext.stages, StageTerm{Post: pfx == "post_", ID: n.v, Weight: v})
			}
			return true, nil
		}
		if ext.stageVals == nil {
			ext.stageVals = map[ParamID]float64{}
		}
		if old, seen := ext.stageVals[n.p]; seen && old != v {
			// pre_julian_power and post_julian_power differ: kept apart
			// below as a conflict.
			ext.stageVals[n.p] = v
			if ext.stageNames == nil {
				ext.stageNames = map[string]bool{}
			}
			ext.stageNames[ParamNames[n.p]] = true
			return true, nil
		}
		ext.stageVals[n.p] = v
		return true, nil
	}
	return false, nil
}

// finishStages gives x its stage terms once the whole xform is read. A
// stage variation shares the parameter slots of the regular variation of
// the same name: where the xform also has that variation (or another stage
// of it) with other parameter values, the stage term is not honoured.
func (fp *flameParser) finishStages(ext *xformExt, x *Xform, w *[NumVars]float64, line int) error {
	if len(ext.stages) == 0 {
		return nil
	}
	def := DefaultParams()
	var staged [NumVars]bool
	for _, t := range ext.stages {
		conflict := false
		want := map[ParamID]float64{}
		for _, p := range varParams[t.ID] {
			if isPrecalc(p) {
				continue
			}
			v, written := ext.stageVals[p]
			if !written {
				v = def[p]
			}
			want[p] = v
			if ext.stageNames[ParamNames[p]] || (w[t.ID] != 0 || staged[t.ID]) && x.Params[p] != v {
				conflict = true
			}
		}
		if conflict {
			if err := fp.notHonoured("variation stage", t.Name(), "xform", fp.xoff, line); err != nil {
				return err
			}
			continue
		}
		for p, v := range want {
			x.Params[p] = v
		}
		for _, p := range colourShiftParams(t.ID) {
			if want[p] != 0 { // moved, but its colour is not shifted
				if err := fp.notHonoured("variation stage", t.Name(), "xform", fp.xoff, line); err != nil {
					return err
				}
				break
			}
		}
		staged[t.ID] = true
		x.Stages = append(x.Stages, t)
	}
	return nil
}

// writeStages writes x's stage terms and their parameters with the stage's
// prefix, as Fractorium writes them (and stageAttr reads them back).
func writeStages(w *bufio.Writer, x *Xform, f numFormat) {
	done := map[string]bool{}
	for _, t := range x.Stages {
		fmt.Fprintf(w, ` %s="%s"`, t.Name(), f(t.Weight))
	}
	for _, t := range x.Stages {
		pfx := "pre_"
		if t.Post {
			pfx = "post_"
		}
		for _, p := range varParams[t.ID] {
			if n := pfx + ParamNames[p]; !isPrecalc(p) && !done[n] {
				done[n] = true
				fmt.Fprintf(w, ` %s="%s"`, n, f(x.Params[p]))
			}
		}
	}
}
