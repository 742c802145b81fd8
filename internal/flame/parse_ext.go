package flame

// Xform attributes of the programs after flam3 (JWildfire, Fractorium,
// Apophysis 7X), read for what flam3's model can say exactly:
//
//   - a second copy of a variation, JWildfire's `bubble#1#="w"` (with its
//     parameters as `julian2#1#_power`): both copies apply, which for one
//     variation with the same parameters is one copy of the summed weight;
//   - pre_ and post_ stages, Fractorium's `pre_linear`/`post_linear` and
//     JWildfire's `linear_fx_priority="-1"|"1"`: a linear at either stage is
//     a scale folded into the affine before or after it; flam3's pre_blur
//     keeps its own stage;
//   - JWildfire's colour and material settings at their neutral values,
//     color_type NONE (the colour passes unchanged: color_speed 0), and its
//     motion curves (animation only).
//
// Everything else is a name procgen does not honour (see parse_strict.go).

import (
	"encoding/xml"
	"maps"
	"slices"
	"strings"
)

// xformExt collects one xform's extension attributes until all are read.
type xformExt struct {
	dups       []dupVar          // second copies of known variations
	dupParams  map[string]string // their parameters, base name + suffix
	priority   map[VarID]float64 // _fx_priority of known variations
	stageScale [2]float64        // pre_linear, post_linear products (0: none)
	stages     []StageTerm       // Fractorium's pre_/post_ variations
	stageNames map[string]bool   // their parameters' names as written
	stageVals  map[ParamID]float64
	colorNone  bool               // color_type NONE
	unknown    []unknownAttr      // in document order
	present    map[string]float64 // every unknown name's numeric value
	written    []VarID            // the known variations written, any weight
}

type dupVar struct {
	id     VarID
	name   string // as written, e.g. bubble#1#
	weight float64
}

type unknownAttr struct {
	name  string
	value string
}

// splitInstance splits JWildfire's "julian2#1#_power" into "julian2" and
// "_power"; ok is false for a name without a #N# instance mark.
func splitInstance(name string) (base, rest string, ok bool) {
	i := strings.IndexByte(name, '#')
	if i <= 0 {
		return "", "", false
	}
	j := strings.IndexByte(name[i+1:], '#')
	if j < 0 {
		return "", "", false
	}
	for _, c := range name[i+1 : i+1+j] {
		if c < '0' || c > '9' {
			return "", "", false
		}
	}
	return name[:i], name[i+1+j+1:], j > 0
}

// extAttr reads one xform attribute flam3's names do not cover.
func (fp *flameParser) extAttr(ext *xformExt, a xml.Attr, line int) error {
	name, names := a.Name.Local, xmlNames()
	if base, rest, ok := splitInstance(name); ok {
		n, known := names[base]
		switch {
		case known && n.isVar && rest == "":
			v, err := parseFloat(a.Value)
			if err != nil {
				return fp.errorf(line, "bad %s value %q", name, a.Value)
			}
			ext.dups = append(ext.dups, dupVar{id: n.v, name: name, weight: v})
			return nil
		case known && n.isVar:
			if ext.dupParams == nil {
				ext.dupParams = map[string]string{}
			}
			ext.dupParams[base+rest] = a.Value
			return nil
		}
		// A copy of a variation procgen does not know: counted as that one.
		name = base + rest
	}
	if base, ok := strings.CutSuffix(name, "_fx_priority"); ok {
		if n, known := names[base]; known && n.isVar {
			v, err := parseFloat(a.Value)
			if err != nil {
				return fp.errorf(line, "bad %s value %q", name, a.Value)
			}
			if ext.priority == nil {
				ext.priority = map[VarID]float64{}
			}
			ext.priority[n.v] = v
			return nil
		}
	}
	for stage, pre := range []string{"pre_linear", "post_linear"} {
		if name == pre {
			v, err := parseFloat(a.Value)
			if err != nil {
				return fp.errorf(line, "bad %s value %q", name, a.Value)
			}
			if ext.stageScale[stage] == 0 {
				ext.stageScale[stage] = 1
			}
			ext.stageScale[stage] *= v
			return nil
		}
	}
	if curve, enabled := motionCurveAttr(name, a.Value); curve {
		if enabled {
			return fp.notHonoured("motion curve", name, "xform", fp.xoff, line)
		}
		return nil
	}
	if ok, err := fp.stageAttr(ext, name, a.Value, line); ok || err != nil {
		return err
	}
	if strings.Contains(name, "Curve_") || isNeutral(name, a.Value) {
		return nil
	}
	if name == "color_type" && strings.EqualFold(strings.TrimSpace(a.Value), "NONE") {
		ext.colorNone = true
		return nil
	}
	if _, ok := neutralValues[name]; ok {
		return fp.notHonoured("xform attribute", name, "xform", fp.xoff, line)
	}
	ext.unknown = append(ext.unknown, unknownAttr{name: name, value: a.Value})
	if ext.present == nil {
		ext.present = map[string]float64{}
	}
	v, err := parseFloat(a.Value)
	if err != nil {
		v = 1 // a word: a setting, not a zero weight
	}
	ext.present[name] = v
	return nil
}

// finishExt applies what needs the whole xform: stages, copies, colour.
func (fp *flameParser) finishExt(ext *xformExt, x *Xform, w *[NumVars]float64, line int) error {
	for _, id := range slices.Sorted(maps.Keys(ext.priority)) {
		pr := ext.priority[id]
		want := 0.0
		if id == VarPreBlur {
			want = -1
		}
		switch {
		case pr == want:
		case id == VarPreBlur && pr == 0:
			// JWildfire runs a pre variation moved to the normal stage on
			// a copy of the affine point that it then discards
			// (EnforcedVariationTransformationStep): pre_blur does nothing.
			w[VarPreBlur] = 0
		case id == VarLinear && (pr == -1 || pr == 1):
			// A linear moved to the pre or post stage is a scale there.
			stage := 0
			if pr == 1 {
				stage = 1
			}
			if ext.stageScale[stage] == 0 {
				ext.stageScale[stage] = 1
			}
			ext.stageScale[stage] *= w[VarLinear]
			w[VarLinear] = 0
		default:
			if err := fp.notHonoured("variation stage", VarNames[id]+"_fx_priority", "xform", fp.xoff, line); err != nil {
				return err
			}
		}
	}
	if err := fp.finishStages(ext, x, w, line); err != nil {
		return err
	}
	for id, wt := range w {
		if name := unhonouredParam(VarID(id), &x.Params); wt != 0 && name != "" {
			if err := fp.notHonoured("variation parameter", name, "xform", fp.xoff, line); err != nil {
				return err
			}
		}
	}
	if s := ext.stageScale[0]; s != 0 {
		for i := range x.Coefs {
			x.Coefs[i] *= s
		}
	}
	if s := ext.stageScale[1]; s != 0 {
		for i := range 4 {
			x.Post[i] *= s
		}
	}
	for _, d := range ext.dups {
		if d.weight == 0 {
			continue
		}
		if !fp.sameParams(ext, x, d.id) || ext.priority[d.id] != 0 {
			if err := fp.notHonoured("variation copy", d.name, "xform", fp.xoff, line); err != nil {
				return err
			}
			continue
		}
		w[d.id] += d.weight
	}
	if ext.colorNone {
		x.ColorSpeed = 0
	}
	return fp.countUnknown(ext, line)
}

// sameParams reports whether the second copy of variation id is in the
// normal stage and has the first copy's parameters (those it does not write are JWildfire's defaults,
// which need not be flam3's: only written ones that match count).
func (fp *flameParser) sameParams(ext *xformExt, x *Xform, id VarID) bool {
	prefix := VarNames[id] + "_"
	names := xmlNames()
	for pname, v := range ext.dupParams {
		if !strings.HasPrefix(pname, prefix) {
			continue
		}
		if pname == prefix+"fx_priority" { // the copy must be a normal one too
			if f, err := parseFloat(v); err != nil || f != 0 {
				return false
			}
			continue
		}
		n, ok := names[pname]
		f, err := parseFloat(v)
		if !ok || n.isVar || err != nil || x.Params[n.p] != f {
			return false
		}
	}
	return true
}

// countUnknown reports the xform's unknown names: variations with a
// non-zero weight, and parameters of known variations. Parameters of an
// unknown variation come with it and are not counted again; a zero weight
// changes nothing and is not counted.
func (fp *flameParser) countUnknown(ext *xformExt, line int) error {
	for _, u := range ext.unknown {
		if owner := ownerOf(u.name, ext.present); owner != "" {
			continue // a parameter of an unknown variation written here
		}
		kind := "variation"
		if looksLikeParam(u.name, ext.written) {
			kind = "parameter"
		} else if ext.present[u.name] == 0 {
			continue
		}
		if err := fp.notHonoured(kind, u.name, "xform", fp.xoff, line); err != nil {
			return err
		}
	}
	return nil
}

// ownerOf returns the longest other unknown name in present that name
// starts with followed by '_': the variation name is a parameter of.
func ownerOf(name string, present map[string]float64) string {
	best := ""
	for v := range present {
		if len(v) > len(best) && len(v) < len(name) && strings.HasPrefix(name, v) && name[len(v)] == '_' {
			best = v
		}
	}
	return best
}
