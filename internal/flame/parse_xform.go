package flame

// The <xform> and <finalxform> elements: attributes in flam3's order of
// application, variation and parameter names with flam3's aliases.

import (
	"encoding/xml"
	"fmt"
	"strings"
	"sync"
)

func (fp *flameParser) xform(se xml.StartElement, line int) error {
	final := se.Name.Local == "finalxform"
	fp.xoff = fp.p.off
	if fp.added >= maxXforms {
		return fp.errorf(line, "more than %d xforms", maxXforms)
	}
	x := newXform(fp.added)
	fp.added++
	label := "finalxform"
	if !final {
		label = fmt.Sprintf("xform %d", len(fp.g.Xforms))
	}
	chaos, hasChaos, err := fp.xformAttrs(&x, se.Attr, line, label)
	if err != nil {
		return err
	}
	if final {
		if x.Weight != 0 {
			fp.warnf(line, "finalxform: weight %g ignored", x.Weight)
			x.Weight = 0
		}
		if hasChaos {
			fp.warnf(line, "finalxform: chaos ignored")
		}
		if fp.g.Final != nil { // JWildfire's and Fractorium's several finals
			fp.moreFinals = append(fp.moreFinals, extraFinal{x: x, line: line, off: fp.xoff})
		} else {
			fp.g.Final = &x
		}
	} else {
		fp.g.Xforms = append(fp.g.Xforms, x)
		fp.chaos = append(fp.chaos, chaos)
		fp.chaosLine = append(fp.chaosLine, line)
	}
	// Children: only <motion> means anything, and only to animations.
	for {
		tok, cline, err := fp.p.inner()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if t.Name.Local == "motion" {
				fp.warnOnce("motion", cline, "<motion> elements ignored (they only animate)")
			}
			if err := fp.p.skip(); err != nil {
				return err
			}
		}
	}
}

// xformAttrs applies an xform's attributes in document order, as flam3
// does (a later symmetry overrides an earlier color_speed, var1 clears the
// weights set before it ...). It returns the raw chaos row, if any.
func (fp *flameParser) xformAttrs(x *Xform, attrs []xml.Attr, line int, label string) (chaos []float64, hasChaos bool, _ error) {
	var w [NumVars]float64
	var farblurFirst bool // a variation written after farblur
	names := xmlNames()
	ext := &xformExt{}
	for _, a := range attrs {
		name := a.Name.Local
		if a.Name.Space == "xmlns" || name == "xmlns" {
			continue
		}
		var err error
		switch name {
		case "weight":
			x.Weight, err = parseFloat(a.Value)
		case "color":
			// "c" or the legacy two-coordinate "c1 c2", of which flam3 uses c1.
			var v []float64
			if v, err = parseFloats(a.Value, -1); err == nil && (len(v) < 1 || len(v) > 2) {
				err = errBadCount
			}
			if err == nil {
				x.Color = v[0]
			}
		case "symmetry":
			// Legacy: flam3 maps it onto color_speed and animate.
			var s float64
			if s, err = parseFloat(a.Value); err == nil {
				x.ColorSpeed = (1 - s) / 2
				x.Animate = 1
				if s > 0 {
					x.Animate = 0
				}
			}
		case "color_speed":
			x.ColorSpeed, err = parseFloat(a.Value)
		case "animate":
			x.Animate, err = parseFloat(a.Value)
		case "opacity":
			x.Opacity, err = parseFloat(a.Value)
		case "plotmode":
			if a.Value == "off" {
				x.Opacity = 0
			}
		case "coefs", "post":
			var v []float64
			if v, err = parseFloats(a.Value, 6); err == nil {
				if name == "coefs" {
					x.Coefs = Affine(v)
				} else {
					x.Post = Affine(v)
				}
			}
		case "chaos":
			chaos, err = parseFloats(a.Value, -1)
			hasChaos = true
			if len(chaos) > maxXforms { // a row has one entry per xform
				return nil, false, fp.attrErr("chaos", fmt.Sprintf("%s: chaos has %d entries, over the %d xforms a flame may have",
					label, len(chaos), maxXforms), true)
			}
		case "var1":
			var j int
			if j, err = parseInt(a.Value); err == nil && (j < 0 || j >= int(Flam3NumVars)) {
				return nil, false, fp.errorf(line, "%s: var1 %d is not a variation", label, j)
			}
			if err == nil {
				w = [NumVars]float64{}
				w[j] = 1
			}
		case "var":
			var v []float64
			if v, err = parseFloats(a.Value, -1); err == nil && len(v) > int(Flam3NumVars) {
				err = errBadCount
			}
			if err == nil {
				w = [NumVars]float64{}
				copy(w[:], v)
			}
		case "motion_frequency", "motion_function":
			fp.warnf(line, "%s: %s ignored (animation only)", label, name)
		case "name", "var_color", "plugins":
			// Editor metadata (Apophysis, Fractorium): nothing to render.
		default:
			n, ok := names[name]
			switch {
			case !ok:
				// Other programs' names: pre_/post_ stages, second copies,
				// their xform settings, or what procgen does not know.
				if err := fp.extAttr(ext, a, line); err != nil {
					return nil, false, err
				}
			case n.isVar:
				w[n.v], err = parseFloat(a.Value)
				ext.written = append(ext.written, n.v)
				// JWildfire's farblur reads the variations written before
				// it; procgen's, all of them (variations_jwf10.go).
				farblurFirst = farblurFirst || w[VarFarblur] != 0 && n.v != VarFarblur && w[n.v] != 0
			default:
				var v float64
				if v, err = parseFloat(a.Value); err == nil {
					if n.p == PSuperShapeRnd { // flam3 clamps it to [0,1]
						v = max(0, min(1, v))
					}
					x.Params[n.p] = v
				}
			}
		}
		if err != nil {
			return nil, false, fp.errorf(line, "%s: bad %s value %q", label, name, a.Value)
		}
	}
	extendFlam3Vars(&w, &x.Params)
	if err := fp.finishExt(ext, x, &w, line); err != nil {
		return nil, false, err
	}
	if farblurFirst && w[VarFarblur] != 0 {
		if err := fp.notHonoured("variation stage", "farblur", "xform", fp.xoff, line); err != nil {
			return nil, false, err
		}
		w[VarFarblur] = 0
	}
	x.Vars = varTerms(&w)
	return chaos, hasChaos, nil
}

// varTerms lists the non-zero weights in VarID order, flam3's order of
// application.
func varTerms(w *[NumVars]float64) []VarTerm {
	var vs []VarTerm
	for id, v := range w {
		if v != 0 {
			vs = append(vs, VarTerm{ID: VarID(id), Weight: v})
		}
	}
	return vs
}

// xmlName is what an xform attribute name means: a variation weight or a
// parameter.
type xmlName struct {
	isVar bool
	v     VarID
	p     ParamID
}

// xmlNames maps variation and parameter names, with the aliases flam3's
// parser accepts, to their ids.
var xmlNames = sync.OnceValue(func() map[string]xmlName {
	m := make(map[string]xmlName, int(NumVars)+int(NumParams)+12)
	for id, name := range VarNames {
		// A name is its smallest id's: flam3's elliptic, splits, waves2
		// and log, which extendFlam3Vars moves to the ids that honour
		// other programs' parameters of them.
		if _, dup := m[name]; !dup {
			m[name] = xmlName{isVar: true, v: VarID(id)}
		}
	}
	for id, name := range ParamNames {
		if name == "" { // precalculated
			continue
		}
		m[name] = xmlName{p: ParamID(id)}
	}
	for alias, id := range map[string]ParamID{
		"oscope_separation": POscilloscopeSeparation, "oscope_frequency": POscilloscopeFrequency,
		"oscope_amplitude": POscilloscopeAmplitude, "oscope_damping": POscilloscopeDamping,
		"Re_A": PMobiusReA, "Re_B": PMobiusReB, "Re_C": PMobiusReC, "Re_D": PMobiusReD,
		"Im_A": PMobiusImA, "Im_B": PMobiusImB, "Im_C": PMobiusImC, "Im_D": PMobiusImD,
		// octagon's parameters as the FracFx plugin (Apophysis) names them.
		"octa_x": POctagonX, "octa_y": POctagonY, "octa_z": POctagonZ, "octa_mode": POctagonMode,
	} {
		m[alias] = xmlName{p: id}
	}
	return m
})

// looksLikeParam reports whether an unknown name reads as a parameter of a
// variation the xform writes (split_shift beside split: another
// program's parameter procgen does not have). A name that only starts with a
// variation's name (JWildfire's spherical3D_wf, waves2_3D, heart_wf) where
// that variation is not written is a variation of its own.
func looksLikeParam(name string, written []VarID) bool {
	for _, id := range written {
		if v := VarNames[id]; strings.HasPrefix(name, v+"_") {
			return true
		}
	}
	return false
}
