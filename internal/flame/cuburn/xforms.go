package cuburn

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
)

// This file pairs the xforms of an edge's two nodes and blends each pair
// (cuburn's sort_xforms, padding_xform and blend_xform, as facts), and
// turns a blended xform's splines into one of our Xforms at a time t.

// cbNamedXform is an xform of a node by its key.
type cbNamedXform struct {
	key string
	v   *jval
}

func nodeXforms(n *jval) []cbNamedXform {
	var out []cbNamedXform
	if xs := n.get("xforms"); xs != nil && xs.kind == jObj {
		for i, k := range xs.keys {
			out = append(out, cbNamedXform{k, xs.vals[i]})
		}
	}
	return out
}

// position reads a node value's position (a number or [pos, vel]).
func position(v *jval, def float64) float64 {
	switch {
	case v == nil:
		return def
	case v.kind == jNum:
		return v.num
	case v.kind == jArr && len(v.arr) > 0 && v.arr[0].kind == jNum:
		return v.arr[0].num
	}
	return def
}

func jpath(v *jval, path ...string) *jval {
	for _, p := range path {
		v = v.get(p)
	}
	return v
}

// humanLess is cuburn's halfhearted_human_sort_key under Python 2: integer
// keys first, in numeric order, then the others as strings.
func humanLess(a, b string) bool {
	ia, ea := strconv.Atoi(a)
	ib, eb := strconv.Atoi(b)
	switch {
	case ea == nil && eb == nil:
		return ia < ib
	case ea == nil:
		return true
	case eb == nil:
		return false
	}
	return a < b
}

// cbPair is a blended xform's source and destination keys ("" for none,
// or "pad"/"dup" from an explicit map).
type cbPair struct{ src, dst string }

// sortXforms is cuburn's sort_xforms: first the explicit xform_map pairs,
// then, within each class of xforms (whether the pre- and post-affine
// spreads exceed 90 degrees, i.e. the affine is mirrored), the source and
// destination xforms sorted by the method and zipped, the shorter side
// padded. weightflip sorts by weight and reverses the destination.
// (Python's order among equal weights is its dict order; here it is the
// natural key order.)
func sortXforms(src, dst []cbNamedXform, method string, explicit [][2]string) []cbPair {
	fwd, rev := map[string]string{}, map[string]string{}
	for _, e := range explicit {
		sx, dx := e[0], e[1]
		if sx != "pad" && sx != "dup" {
			if old, ok := fwd[sx]; ok {
				delete(fwd, sx)
				delete(rev, old)
			}
		}
		if dx != "pad" && dx != "dup" {
			if old, ok := rev[dx]; ok {
				delete(rev, dx)
				delete(fwd, old)
			}
		}
		fwd[sx] = dx
		rev[dx] = sx
	}
	var out []cbPair
	for sx, dx := range fwd {
		out = append(out, cbPair{sx, dx})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].src != out[j].src {
			return out[i].src < out[j].src
		}
		return out[i].dst < out[j].dst
	})
	class := func(x *jval) int {
		c := 0
		if position(jpath(x, "pre_affine", "spread"), 45) > 90 {
			c |= 2
		}
		if position(jpath(x, "post_affine", "spread"), 45) > 90 {
			c |= 1
		}
		return c
	}
	var scl, dcl [4][]cbNamedXform
	for _, x := range src {
		if _, ok := fwd[x.key]; !ok {
			scl[class(x.v)] = append(scl[class(x.v)], x)
		}
	}
	for _, x := range dst {
		if _, ok := rev[x.key]; !ok {
			dcl[class(x.v)] = append(dcl[class(x.v)], x)
		}
	}
	order := func(xs []cbNamedXform) []cbNamedXform {
		xs = append([]cbNamedXform(nil), xs...)
		sort.SliceStable(xs, func(i, j int) bool { return humanLess(xs[i].key, xs[j].key) })
		key := func(x cbNamedXform) float64 {
			switch method {
			case "weight", "weightflip":
				return position(x.v.get("weight"), 0)
			case "color":
				return position(x.v.get("color"), 0)
			}
			return 0
		}
		sort.SliceStable(xs, func(i, j int) bool { return key(xs[i]) < key(xs[j]) })
		return xs
	}
	for c := 0; c < 4; c++ {
		ss, ds := order(scl[c]), order(dcl[c])
		if method == "weightflip" {
			for i, j := 0, len(ds)-1; i < j; i, j = i+1, j-1 {
				ds[i], ds[j] = ds[j], ds[i]
			}
		}
		for i := 0; i < max(len(ss), len(ds)); i++ {
			var p cbPair
			if i < len(ss) {
				p.src = ss[i].key
			}
			if i < len(ds) {
				p.dst = ds[i].key
			}
			out = append(out, p)
		}
	}
	return out
}

// cuburn's padding rules: an xform using one of the hole variations pads
// with an inverted linear; the identity variations pad with themselves at
// their default parameters.
var (
	cbHoleVars  = map[string]bool{"spherical": true, "ngon": true, "julian": true, "juliascope": true, "polar": true, "wedge_sph": true, "wedge_julia": true, "bipolar": true}
	cbIdentVars = []string{"blob", "fan2", "perspective", "rectangles", "super_shape"}
)

// jobj builds an object value from key, value pairs (synthetic values carry
// the position of ref for messages).
func jobj(ref *jval, kv ...any) *jval {
	o := &jval{kind: jObj, pos: ref.pos, doc: ref.doc}
	for i := 0; i < len(kv); i += 2 {
		v, ok := kv[i+1].(*jval)
		if !ok {
			v = &jval{kind: jNum, num: kv[i+1].(float64), pos: ref.pos, doc: ref.doc}
		}
		o.keys, o.vals = append(o.keys, kv[i].(string)), append(o.vals, v)
	}
	return o
}

// cbPaddingXform is cuburn's padding_xform: the xform that blends in or out
// against xf, with identity affines (angle 45 and spread 45 give the
// identity; mirrored ones get angle and spread 135) and weight 0.
func cbPaddingXform(xf *jval, final bool) *jval {
	vars := jobj(xf)
	pre := jobj(xf, "angle", 45.0)
	out := jobj(xf, "variations", vars)
	if final {
		out = jobj(xf, "variations", vars, "weight", 0.0, "color_speed", 0.0)
	}
	if position(jpath(xf, "pre_affine", "spread"), 45) > 90 {
		pre = jobj(xf, "angle", 135.0, "spread", 135.0)
	}
	out.keys, out.vals = append(out.keys, "pre_affine"), append(out.vals, pre)
	if position(jpath(xf, "post_affine", "spread"), 45) > 90 {
		out.keys, out.vals = append(out.keys, "post_affine"), append(out.vals, jobj(xf, "angle", 135.0, "spread", 135.0))
	}
	used := xf.get("variations")
	var names []string
	if used != nil {
		names = append(names, used.keys...)
		sort.Strings(names)
	}
	for _, n := range names {
		if cbHoleVars[n] {
			pre.vals[0].num += 180
			vars.keys, vars.vals = append(vars.keys, "linear"), append(vars.vals, jobj(xf, "weight", -1.0))
			return out
		}
	}
	for _, n := range cbIdentVars {
		if used.get(n) == nil {
			continue
		}
		v := jobj(xf)
		for _, p := range cbVariations[n].params {
			v.keys, v.vals = append(v.keys, p.name), append(v.vals, &jval{kind: jNum, num: p.spec.def, pos: xf.pos, doc: xf.doc})
		}
		vars.keys, vars.vals = append(vars.keys, n), append(vars.vals, v)
	}
	if len(vars.keys) > 0 {
		for _, v := range vars.vals {
			v.keys = append(v.keys, "weight")
			v.vals = append(v.vals, &jval{kind: jNum, num: 1 / float64(len(vars.keys)), pos: xf.pos, doc: xf.doc})
		}
	} else {
		vars.keys, vars.vals = append(vars.keys, "linear"), append(vars.vals, jobj(xf, "weight", 1.0))
	}
	return out
}

// cbAffine is a blended affine: angle, spread, magnitude x and y, offset x
// and y.
type cbAffine [6]*cbSpline

// cbXVar is a blended variation.
type cbXVar struct {
	id     flame.VarID
	weight *cbSpline
	params []cbXParam
}

type cbXParam struct {
	id flame.ParamID
	s  *cbSpline
}

// cbXform is a blended xform.
type cbXform struct {
	key                           string
	pre, post                     cbAffine
	hasPost                       bool
	color, speed, weight, opacity *cbSpline
	vars                          []cbXVar
}

// blendXform is cuburn's blend_xform: a missing side is padded, and every
// spline of the pair is blended.
func (b *cbBlender) blendXform(key string, sxf, dxf *jval, edits []*jval, final bool) (*cbXform, error) {
	if sxf == nil {
		sxf = cbPaddingXform(dxf, final)
	}
	if dxf == nil {
		dxf = cbPaddingXform(sxf, final)
	}
	sp := map[string]*cbSpline{}
	if err := b.merge(cbXformSpec, "", sxf, dxf, edits, sp); err != nil {
		return nil, err
	}
	get := func(path string) *cbSpline {
		if s := sp[path]; s != nil {
			return s
		}
		d := cbXformSpec.lookup(strings.Split(path, "."))
		return constCBSpline(d.def, d.mag)
	}
	aff := func(name string) cbAffine {
		var a cbAffine
		for i, k := range []string{"angle", "spread", "magnitude.x", "magnitude.y", "offset.x", "offset.y"} {
			a[i] = get(name + "." + k)
		}
		return a
	}
	x := &cbXform{key: key, pre: aff("pre_affine"), post: aff("post_affine"),
		color: get("color"), speed: get("color_speed"), weight: get("weight"), opacity: get("opacity")}
	names := map[string]bool{}
	for path := range sp {
		if strings.HasPrefix(path, "post_affine.") {
			x.hasPost = true
		}
		if rest, ok := strings.CutPrefix(path, "variations."); ok {
			n, _, _ := strings.Cut(rest, ".")
			names[n] = true
		}
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Slice(sorted, func(i, j int) bool { return cbVariations[sorted[i]].id < cbVariations[sorted[j]].id })
	for _, n := range sorted {
		v := cbVariations[n]
		xv := cbXVar{id: v.id, weight: get("variations." + n + ".weight")}
		for _, p := range v.params {
			xv.params = append(xv.params, cbXParam{p.id, get("variations." + n + "." + p.name)})
		}
		x.vars = append(x.vars, xv)
	}
	return x, nil
}

// polarAffine is cuburn's precalc_xf_affine: the affine from its angle and
// spread (degrees), magnitudes and offset, in flam3's coefficient order
// (cuburn's IFS y axis is flipped against flam3's, and its converter flips
// b, c and f on the way in, so the product is flam3's coefs exactly).
func polarAffine(angle, spread, mx, my, ox, oy float64) flame.Affine {
	pri := angle * math.Pi / 180
	spr := spread * math.Pi / 180
	return flame.Affine{
		mx * math.Cos(pri-spr),  // a (xx)
		-mx * math.Sin(pri-spr), // b (yx)
		-my * math.Cos(pri+spr), // c (xy)
		my * math.Sin(pri+spr),  // d (yy)
		ox,                      // e
		-oy,                     // f
	}
}

func (a *cbAffine) at(t float64) flame.Affine {
	return polarAffine(a[0].at(t), a[1].at(t), a[2].at(t), a[3].at(t), a[4].at(t), a[5].at(t))
}

// into writes the xform at time t to *out, a zero Xform, in place: an xform
// is several kilobytes (every variation's parameters) and a frame makes
// thousands, so it is neither copied nor cleared twice, and only its own
// variations' parameters get their defaults (the others draw nothing). A weight a spline
// overshoots below zero is taken as zero (cuburn would feed it to its
// cumulative selection as is).
func (x *cbXform) into(t float64, out *flame.Xform) {
	out.Weight, out.Color, out.ColorSpeed = max(x.weight.at(t), 0), x.color.at(t), x.speed.at(t)
	out.Opacity, out.Coefs, out.Post = min(x.opacity.at(t), 1), x.pre.at(t), flame.Identity
	if x.hasPost {
		out.Post = x.post.at(t)
	}
	for _, v := range x.vars {
		if w := v.weight.at(t); w != 0 {
			out.Vars = append(out.Vars, flame.VarTerm{ID: v.id, Weight: w})
		}
		flame.SetVarDefaults(&out.Params, v.id)
		for _, p := range v.params {
			out.Params[p.id] = p.s.at(t)
		}
	}
}
