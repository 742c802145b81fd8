package flame

// What procgen does not honour: with --strict an error at the attribute or
// element (file:line:col); without it one warning per distinct name for the
// whole document, with how many xforms (or flames) use it.

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
)

// unknownUse counts the uses of one name procgen does not honour.
type unknownUse struct {
	kind, name string
	line       int
	flame      string
	uses       int
	unit       string // what a use is: "xform", "flame"
	// value and instead, for a setting procgen draws otherwise than its
	// program: the value and what procgen does.
	value, instead string
}

// unknownUses keeps them in first-seen order.
type unknownUses struct {
	order []*unknownUse
	index map[string]*unknownUse
}

func (u *unknownUses) add(kind, name, unit, flame string, line int) {
	u.addInstead(kind, name, "", "", unit, flame, line)
}

func (u *unknownUses) addInstead(kind, name, value, instead, unit, flame string, line int) {
	key := kind + "\x00" + name + "\x00" + value
	if u.index == nil {
		u.index = map[string]*unknownUse{}
	}
	e, ok := u.index[key]
	if !ok {
		e = &unknownUse{kind: kind, name: name, line: line, flame: flame, unit: unit, value: value, instead: instead}
		u.index[key] = e
		u.order = append(u.order, e)
	}
	e.uses++
}

// warnUnknown turns the counted uses into one warning each. The name is the
// first quoted text of each message (callers and tests pick it out).
func (p *parser) warnUnknown() {
	for _, e := range p.unknown.order {
		unit := e.unit
		if e.uses != 1 {
			unit += "s"
		}
		msg := fmt.Sprintf("%s %q not honoured, ignored (%d %s)", e.kind, e.name, e.uses, unit)
		switch {
		case e.kind == "variation" || e.kind == "parameter":
			msg = fmt.Sprintf("unknown %s %q ignored (%d %s)", e.kind, e.name, e.uses, unit)
		case e.instead != "":
			msg = fmt.Sprintf("%s %q (%s) not honoured exactly: %s (%d %s)", e.kind, e.name, e.value, e.instead, e.uses, unit)
		}
		p.warnings = append(p.warnings, Warning{File: p.file, Line: e.line, Flame: e.flame, Msg: msg})
	}
}

// notHonoured reports a name procgen does not honour: an error naming where
// it is under --strict (elemOff is the start of its element), else counted
// for one warning.
func (fp *flameParser) notHonoured(kind, name, unit string, elemOff int64, line int) error {
	if fp.p.opts.Strict {
		l, c := fp.p.attrPos(elemOff, name)
		return &AttrError{File: fp.p.file, Line: l, Col: c, Index: fp.index, Flame: fp.g.Name, Attr: name,
			Msg: fmt.Sprintf("%s %q is not honoured by procgen (--strict)", kind, name)}
	}
	fp.p.unknown.add(kind, name, unit, fp.g.Name, line)
	return nil
}

// approximated reports a <flame> attribute whose value procgen draws
// otherwise than the program that wrote it: an error at the attribute
// under --strict, else one warning per distinct name and value for the
// document, saying what procgen does instead.
func (fp *flameParser) approximated(name, value, instead string) error {
	if fp.p.opts.Strict {
		l, c := fp.p.attrPos(fp.off, name)
		return &AttrError{File: fp.p.file, Line: l, Col: c, Index: fp.index, Flame: fp.g.Name, Attr: name,
			Msg: fmt.Sprintf("flame attribute %q (%s) is not honoured exactly by procgen (--strict): %s", name, value, instead)}
	}
	fp.p.unknown.addInstead("flame attribute", name, value, instead, "flame", fp.g.Name, fp.line)
	return nil
}

// attrPos locates attribute name in the element starting at byte off, or
// the element itself when name is "" or not found.
func (p *parser) attrPos(off int64, name string) (line, col int) {
	pos := int(off)
	if pos < 0 || pos > len(p.src) {
		pos = 0
	}
	if name != "" {
		end := bytes.IndexByte(p.src[pos:], '>')
		if end < 0 {
			end = len(p.src) - pos
		}
		tag := p.src[pos : pos+end]
		for k := 0; ; {
			i := bytes.Index(tag[k:], []byte(name))
			if i < 0 {
				break
			}
			i += k
			rest := bytes.TrimLeft(tag[i+len(name):], " \t\r\n")
			if i > 0 && isSpace(tag[i-1]) && len(rest) > 0 && rest[0] == '=' {
				pos += i
				break
			}
			k = i + 1
		}
	}
	line = 1 + bytes.Count(p.src[:pos], []byte("\n"))
	col = pos - (bytes.LastIndexByte(p.src[:pos], '\n') + 1) + 1
	return line, col
}

// otherElement is a child of <flame> procgen does not read: <edit> is
// history and harmless; anything else is an error under --strict and is
// otherwise skipped silently, as flam3 does.
func (fp *flameParser) otherElement(t xml.StartElement, line int) error {
	if t.Name.Local == "edit" || !fp.p.opts.Strict {
		return nil
	}
	return fp.notHonoured("element", t.Name.Local, "flame", fp.p.off, line)
}

// otherFlameAttr is a <flame> attribute procgen does not read. Metadata and
// animation-only ones are fine; the other programs' settings are fine at
// their neutral values. What is left changes the picture in the program
// that wrote it: an error under --strict, a warning otherwise for the
// camera settings procgen does not honour (cam_roll, cam_zoom, JWildfire's
// focus point) and JWildfire's preserve_z (its 2D variations then carry z
// as w z): a picture that differs from the artist's; silence for the
// rest (flam3 ignores them too, and its files carry many).
func (fp *flameParser) otherFlameAttr(a xml.Attr) error {
	name := a.Name.Local
	if flameMetadata(name) || isNeutral(name, a.Value) {
		return nil
	}
	if !fp.p.opts.Strict && !warnedFlameAttr(name) {
		return nil
	}
	return fp.notHonoured("flame attribute", name, "flame", fp.off, fp.line)
}

// warnedFlameAttr reports whether a flame attribute procgen does not honour
// is warned without --strict: the 3D camera's settings beyond those it
// renders, and JWildfire's preserve_z (set, its 2D variations carry z).
func warnedFlameAttr(name string) bool {
	return strings.HasPrefix(name, "cam_") || name == "preserve_z"
}

// flameMetadata names <flame> attributes that do not change a still:
// labels, editor state, animation settings (read by the animation paths
// from keyframes, not here), and settings of features that are off unless
// another attribute, itself checked, turns them on.
func flameMetadata(name string) bool {
	switch name {
	case "name", "version", "time", "nick", "url", "notes", "parents", "plugins", "new_linear",
		"interpolation_type", "interpolation_space", "palette_interpolation", "temporal_filter_type",
		"temporal_filter_width", "temporal_filter_exp", "frame", "frame_count", "fps", "motion_exponent",
		"ai_post_denoiser_only_for_cpu", "zbuffer_filename", "sub_batch_size":
		return true
	}
	for _, pre := range []string{"cam_dof_", "post_symmetry_", "gradientEditor", "zbuffer_", "mixer_"} {
		if strings.HasPrefix(name, pre) && name != "post_symmetry_type" && name != "mixer_mode" {
			return true
		}
	}
	return strings.Contains(name, "Curve_") // JWildfire's motion curves
}

// neutralValues are other programs' settings at which they draw what
// flam3 (and so procgen) draws; a number or a word.
var neutralValues = map[string]string{
	// The 3-D camera procgen honours (cam_pitch, cam_yaw, cam_persp, cam_zpos,
	// cam_dof, cam_pos_*) is read by cameraAttr and never gets here.
	"cam_roll": "0", "cam_zoom": "1", "cam_xfocus": "0", "cam_yfocus": "0", "cam_zfocus": "0",
	"saturation": "1", "fg_opacity": "1", "balancing_red": "1", "balancing_green": "1", "balancing_blue": "1",
	"post_blur_radius": "0", "post_symmetry_type": "NONE", "mixer_mode": "OFF", "bg_transparency": "0",
	"ai_post_denoiser": "NONE", "post_noise_filter": "0", "enable_de": "1", "logscale_k2": "0",
	// JWildfire's smooth_gradient off: the palette's entries as written.
	"smooth_gradient": "0",
	// JWildfire's preserve_z off: its 2D variations add nothing to z.
	"preserve_z": "0",
	// Xform attributes of JWildfire.
	"material": "0", "material_speed": "0", "mod_gamma": "0", "mod_gamma_speed": "0", "mod_contrast": "0",
	"mod_contrast_speed": "0", "mod_saturation": "0", "mod_saturation_speed": "0", "mod_hue": "0",
	"mod_hue_speed": "0", "mirror_pre_post_translations": "0", "color_type": "DIFFUSION",
	// plane_wf's image maps: none named, none used.
	"plane_wf_colormap_filename": "", "plane_wf_displ_map_filename": "",
}

// isNeutral reports whether name="value" is one of neutralValues.
func isNeutral(name, value string) bool {
	want, ok := neutralValues[name]
	if !ok {
		return false
	}
	if v, err := parseFloat(value); err == nil {
		w, werr := parseFloat(want)
		return werr == nil && v == w
	}
	return strings.EqualFold(strings.TrimSpace(value), want)
}
