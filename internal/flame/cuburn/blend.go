package cuburn

import (
	"encoding/base64"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
)

// This file is cuburn's blend (genome/blend.py) as facts: two nodes, each
// at its temporal offset, and an edge's edits become one spline per
// parameter over the edge's normalized time t in [0, 1].

// cbBlender blends one edge.
type cbBlender struct {
	duration       float64
	srcOff, dstOff float64
}

// nodeVal is cuburn's split_node_val plus apply_temporal_offset: a node's
// value is a number, or [position, velocity]; a periodic value that moves
// is advanced by offset turns of its velocity.
func (b *cbBlender) nodeVal(s *cbSpec, v *jval, off float64) (p, vel float64, err error) {
	switch {
	case v == nil || v.kind == jNull:
		return s.def, 0, nil
	case v.kind == jNum:
		return v.num, 0, nil
	case v.kind == jArr && len(v.arr) == 2 && v.arr[0].kind == jNum && v.arr[1].kind == jNum:
		p, vel = v.arr[0].num, v.arr[1].num
		if s.period != 0 && vel != 0 {
			p += off * vel
		}
		return p, vel, nil
	}
	return 0, 0, v.errf("a node value must be a number or [position, velocity], got %s", describeJ(v))
}

func describeJ(v *jval) string {
	if v.kind == jArr {
		return strconv.Itoa(len(v.arr)) + "-element list"
	}
	return v.kind.String()
}

// pymod is Python's float modulo: the result takes the divisor's sign.
func pymod(a, b float64) float64 { return a - b*math.Floor(a/b) }

// spline is cuburn's tospline: the nodes' positions and velocities at both
// ends, periodic values extended by whole turns to match the average angular
// velocity, and the edge's knots (later edits win at equal times; a null
// value removes a knot; for periodic values a knot at t=0 or t=1 moves that
// end by whole turns, other ends' knots are ignored).
func (b *cbBlender) spline(s *cbSpec, src, dst *jval, edits []*jval) (*cbSpline, error) {
	sp, sv, err := b.nodeVal(s, src, b.srcOff)
	if err != nil {
		return nil, err
	}
	dp, dv, err := b.nodeVal(s, dst, b.dstOff)
	if err != nil {
		return nil, err
	}
	if s.isVar {
		if src == nil {
			sp = dp
		}
		if dst == nil {
			dp = sp
		}
	}
	type knot struct {
		t   float64
		v   float64
		set bool
	}
	var ks []knot
	for _, e := range edits {
		if e.kind != jArr || len(e.arr)%2 != 0 {
			return nil, e.errf("edge knots must be a list of time, value pairs, got %s", describeJ(e))
		}
		for i := 0; i < len(e.arr); i += 2 {
			tv, vv := e.arr[i], e.arr[i+1]
			if tv.kind != jNum {
				return nil, tv.errf("knot time must be a number, got %s", tv.kind)
			}
			if vv.kind != jNum && vv.kind != jNull {
				return nil, vv.errf("knot value must be a number or null, got %s", vv.kind)
			}
			k := knot{tv.num, vv.num, vv.kind == jNum}
			replaced := false
			for j := range ks {
				if ks[j].t == k.t {
					ks[j], replaced = k, true
				}
			}
			if !replaced {
				ks = append(ks, k)
			}
		}
	}
	var inner []cbKnot
	var e0, e1 *float64
	for i := range ks {
		k := &ks[i]
		switch {
		case k.t == 0 && k.set:
			e0 = &k.v
		case k.t == 1 && k.set:
			e1 = &k.v
		case k.t == 0 || k.t == 1 || !k.set:
		default:
			inner = append(inner, cbKnot{k.t, k.v})
		}
	}
	if s.period != 0 {
		per := s.period
		sign := 1.0
		movement := b.duration * (sv + dv) / (2 * per)
		if movement < 0 {
			sign = -1
		}
		angdiff := pymod((dp-sp)/per, sign)
		dp = sp + (math.Round(movement-angdiff)+angdiff)*per
		if e0 != nil {
			sp += math.Round((*e0-sp)/per) * per
		}
		if e1 != nil {
			dp += math.Round((*e1-dp)/per) * per
		}
	}
	if len(inner)+4 > cbMaxKnots {
		return nil, edits[len(edits)-1].errf("%d knots inside the edge: cuburn allows at most %d", len(inner), cbMaxKnots-4)
	}
	out := newCBSpline(sp, sv, dp, dv, inner, b.duration, s.mag)
	for i := range out.knots {
		if !finite(out.knots[i]) || !finite(out.times[i]) {
			at := src
			if at == nil {
				at = dst
			}
			if at == nil && len(edits) > 0 {
				at = edits[0]
			}
			if at != nil {
				return nil, at.errf("spline knot %g at time %g is not finite", out.knots[i], out.times[i])
			}
			return nil, errCB("a spline knot is not finite")
		}
	}
	return out, nil
}

func errCB(msg string) error { return &cbError{msg} }

type cbError struct{ msg string }

func (e *cbError) Error() string { return "flame: " + ErrInvalid.Error() + ": " + e.msg }
func (e *cbError) Unwrap() error { return ErrInvalid }

// merge is cuburn's merge_nodes over a dict of the spec: every spline under
// it that the source, destination or edits mention, by dotted path.
func (b *cbBlender) merge(s *cbSpec, path string, src, dst *jval, edits []*jval, out map[string]*cbSpline) error {
	switch s.kind {
	case cbSpl:
		sp, err := b.spline(s, src, dst, edits)
		if err != nil {
			return err
		}
		out[path] = sp
	case cbDict:
		keys := map[string]bool{}
		for _, v := range append([]*jval{src, dst}, edits...) {
			if v != nil && v.kind == jObj {
				for _, k := range v.keys {
					if s.fields[k] != nil {
						keys[k] = true
					}
				}
			} else if v != nil && v.kind != jNull {
				return v.errf("%s must be an object, got %s", path, v.kind)
			}
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			var es []*jval
			for _, e := range edits {
				if c := e.get(k); c != nil {
					es = append(es, c)
				}
			}
			p := k
			if path != "" {
				p = path + "." + k
			}
			if err := b.merge(s.fields[k], p, src.get(k), dst.get(k), es, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodePalette reads cuburn's ["rgb8", base64...] palette.
func decodePalette(v *jval) (flame.Palette, error) {
	var p flame.Palette
	if v.kind != jArr || len(v.arr) < 2 || v.arr[0].kind != jStr || v.arr[0].str != "rgb8" {
		return p, v.errf(`a palette must be a list ["rgb8", base64 strings...]`)
	}
	var sb strings.Builder
	for _, s := range v.arr[1:] {
		if s.kind != jStr {
			return p, s.errf("palette data must be strings, got %s", s.kind)
		}
		sb.WriteString(strings.TrimSpace(s.str))
	}
	raw, err := base64.StdEncoding.DecodeString(sb.String())
	if err != nil {
		return p, v.errf("palette data is not valid base64: %v", err)
	}
	if len(raw) != 256*3 {
		return p, v.errf("palette data holds %d bytes, want 768 (256 RGB triples)", len(raw))
	}
	for i := range p {
		for c := 0; c < 3; c++ {
			p[i][c] = float64(raw[3*i+c]) / 255
		}
		p[i][3] = 1
	}
	return p, nil
}

// cbPalette is a palette at an edge time.
type cbPalette struct {
	t   float64
	pal flame.Palette
}

// palettes is cuburn's palette list: the source's at t=0, the
// destination's at t=1, then any the edge adds as [time, "rgb8", ...].
func palettes(src, dst, edit *jval) ([]cbPalette, error) {
	var out []cbPalette
	for i, n := range []*jval{src, dst} {
		if v := n.get("palette"); v != nil {
			p, err := decodePalette(v)
			if err != nil {
				return nil, err
			}
			out = append(out, cbPalette{float64(i), p})
		}
	}
	if v := edit.get("palette"); v != nil {
		for _, e := range v.arr {
			if e.kind != jArr || len(e.arr) < 1 || e.arr[0].kind != jNum {
				return nil, e.errf(`an edge palette must be [time, "rgb8", base64 strings...]`)
			}
			rest := *e
			rest.arr = e.arr[1:]
			p, err := decodePalette(&rest)
			if err != nil {
				return nil, err
			}
			out = append(out, cbPalette{e.arr[0].num, p})
		}
	}
	if len(out) == 0 {
		return nil, src.errf("neither node has a palette")
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].t < out[j].t })
	return out, nil
}

// paletteAt is cuburn's interp_color: the palettes on either side of t
// mixed linearly (cuburn mixes in YUV, a linear map of RGB, so the mix is
// the same); past the last palette, the last one. Unlike cuburn, the mix is
// clamped at the first palette for t < 0 (a motion-blur window may reach
// there), where cuburn extrapolates by the window's fraction.
func paletteAt(ps []cbPalette, t float64) flame.Palette {
	idx := sort.Search(len(ps), func(i int) bool { return !(ps[i].t < t) }) // first not before t
	idx = max(idx, 1)
	if idx >= len(ps) || ps[idx].t > 1 {
		return ps[idx-1].pal
	}
	l, r := ps[idx-1], ps[idx]
	if !(r.t > l.t) {
		return r.pal
	}
	lf := (r.t - t) / (r.t - l.t)
	lf = min(max(lf, 0), 1)
	rf := 1 - lf
	var out flame.Palette
	for i := range out {
		for c := range out[i] {
			out[i][c] = l.pal[i][c]*lf + r.pal[i][c]*rf
		}
	}
	return out
}
