package flame

import "strings"

// JWildfire writes a motion curve for every animatable value NAME of an
// xform (a variation's weight or parameter, its pre_/post_ stage's too) as
// attributes beside it: NAME_enabled, NAME_view_xmin ... NAME_view_ymax,
// NAME_interpolation, NAME_selected_idx, NAME_locked, NAME_point_count and
// the curve's points NAME_x0, NAME_y0, NAME_x1 .... A curve that is not
// enabled changes nothing; an enabled one animates NAME over the frames of
// an animation, which procgen does not do (a still keeps NAME's value), so
// it is reported as not honoured.

// motionCurveFields are the fixed suffixes of a curve's attributes.
var motionCurveFields = []string{"_enabled", "_view_xmin", "_view_xmax", "_view_ymin", "_view_ymax",
	"_interpolation", "_selected_idx", "_locked", "_point_count"}

// motionCurveAttr reports whether attribute name is part of a motion curve
// on a value procgen knows, and whether that curve is enabled (value is
// the attribute's, read only for NAME_enabled). A name procgen knows
// itself (falloff2_x0 is a parameter) is never a curve's.
func motionCurveAttr(name, value string) (curve, enabled bool) {
	names := xmlNames()
	known := func(n string) bool {
		for _, pre := range []string{"pre_", "post_"} {
			if rest, ok := strings.CutPrefix(n, pre); ok {
				if _, ok := names[rest]; ok {
					return true
				}
			}
		}
		_, ok := names[n]
		return ok
	}
	if known(name) {
		return false, false
	}
	base := ""
	for _, f := range motionCurveFields {
		if b, ok := strings.CutSuffix(name, f); ok {
			base = b
			if f == "_enabled" {
				enabled = strings.EqualFold(strings.TrimSpace(value), "true") || strings.TrimSpace(value) == "1"
			}
			break
		}
	}
	if base == "" {
		base = curvePointBase(name)
	}
	if base == "" || !known(base) {
		return false, false
	}
	return true, enabled
}

// curvePointBase is NAME of an attribute NAME_x<digits> or NAME_y<digits>,
// "" for any other.
func curvePointBase(name string) string {
	i := strings.LastIndexByte(name, '_')
	if i < 1 || len(name) < i+3 || (name[i+1] != 'x' && name[i+1] != 'y') {
		return ""
	}
	for _, c := range name[i+2:] {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return name[:i]
}
