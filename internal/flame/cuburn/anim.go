package cuburn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/parallel"
)

// Anim is a cuburn edge (or a node's loop) blended into splines over
// the edge's time t in [0, 1], with the profile that renders it. Its
// genomes are flam3 genomes, so the frame renderers draw its frames.
type Anim struct {
	Name string
	// Duration is the blend duration in cuburn's abstract time units.
	Duration float64
	Profile  Profile

	supersample int
	frames      int // the frame count set by SetFrameCount, 0: cuburn's
	center      [2]*cbSpline
	rotation    *cbSpline
	scale       *cbSpline
	dither      *cbSpline
	spp         *cbSpline
	frameWidth  *cbSpline
	filters     map[string]*cbSpline
	palettes    []cbPalette
	xforms      []*cbXform
	final       *cbXform
}

// Options change how a document becomes an animation.
type Options struct {
	// DB is the genome database directory that "nodes/NAME" links are read
	// from; empty: the directory above the file's, then its own, then the
	// working directory.
	DB string
	// Half makes a node a half loop (-0.25 to +0.25 turns, duration 0.5) as
	// cuburn's --half does; otherwise a node is one whole loop (0 to 1 turn,
	// duration 1).
	Half bool
}

// ErrHalfEdge is returned for Options.Half on an edge: a half loop is
// made of one node, and an edge's ends are set by its link's phases.
var ErrHalfEdge = errors.New("a half loop applies to a cuburn node, not an edge (its link's @phases set where it starts and ends)")

// IsJSON reports whether data looks like a cuburn node or edge
// document: a JSON object whose "type" is "node" or "edge".
func IsJSON(data []byte) bool {
	s := strings.TrimLeft(string(data[:min(len(data), 1<<16)]), " \t\r\n\ufeff")
	if !strings.HasPrefix(s, "{") {
		return false
	}
	d, err := parseJSON(data, "")
	if err != nil {
		return strings.Contains(s, `"type"`) && (strings.Contains(s, `"edge"`) || strings.Contains(s, `"node"`))
	}
	t := d.root.get("type")
	return t != nil && t.kind == jStr && (t.str == "edge" || t.str == "node")
}

// LoadFile reads a cuburn edge or node file; see Load.
func LoadFile(path string, prof Profile, o Options) (*Anim, error) {
	data, err := input.ReadFile(context.Background(), path, input.CuburnJSON)
	if err != nil {
		return nil, fmt.Errorf("flame: %w", err)
	}
	return Load(data, path, prof, o)
}

// Load blends a cuburn document into an animation, as cuburn's
// get_anim does: an edge links two nodes at their temporal offsets
// ("nodes/A@0.25", in turns of each periodic value's velocity); a node
// becomes its own loop. Documents inherit from their "base" documents.
func Load(data []byte, path string, prof Profile, o Options) (*Anim, error) {
	d, err := parseJSON(data, path)
	if err != nil {
		return nil, err
	}
	if d.root.kind != jObj {
		return nil, d.root.errf("want an object, got %s", d.root.kind)
	}
	db := newCBDB(path, o.DB)
	item, err := db.resolve(d.root)
	if err != nil {
		return nil, err
	}
	var src, dst, edit *jval
	var srcOff, dstOff float64
	if item.get("type").str == "node" {
		src, dst, srcOff, dstOff = item, item, 0, 1
		if o.Half {
			srcOff, dstOff = -0.25, 0.25
		}
		edit = jobj(item, "blend", jobj(item, "duration", dstOff-srcOff, "xform_sort", &jval{kind: jStr, str: "natural"}))
	} else {
		if o.Half {
			return nil, fmt.Errorf("%s: %w", path, ErrHalfEdge)
		}
		edit = item
		link := item.get("link")
		ends := [2]*jval{}
		offs := [2]float64{}
		for i, k := range []string{"src", "dst"} {
			ref := link.get(k)
			if ref == nil {
				return nil, item.errf("an edge needs link.src and link.dst")
			}
			id, off, err := splitRef(ref)
			if err != nil {
				return nil, ref.errf("link.%s: %v", k, err)
			}
			n, err := db.get(id, ref)
			if err != nil {
				return nil, err
			}
			if n, err = db.resolve(n); err != nil {
				return nil, err
			}
			if n.get("type").str != "node" {
				return nil, ref.errf("link.%s %q is not a node", k, id)
			}
			ends[i], offs[i] = n, off
		}
		src, dst, srcOff, dstOff = ends[0], ends[1], offs[0], offs[1]
	}
	a, err := blendCB(src, dst, edit, srcOff, dstOff)
	if err != nil {
		return nil, err
	}
	a.Name = strings.TrimSuffix(filepath.Base(path), ".json")
	a.Profile = prof
	return a, nil
}

// blendCB is cuburn's blend of two nodes and an edge's edits.
func blendCB(src, dst, edit *jval, srcOff, dstOff float64) (*Anim, error) {
	b := &cbBlender{duration: 2, srcOff: srcOff, dstOff: dstOff}
	sortBy := "weightflip"
	var explicit [][2]string
	for _, n := range []*jval{src, dst, edit} {
		bl := n.get("blend")
		if v := bl.get("duration"); v != nil {
			if v.kind != jNum || !(v.num > 0) {
				return nil, v.errf("blend.duration must be a positive number")
			}
			b.duration = v.num
		}
		if v := bl.get("xform_sort"); v != nil {
			if v.kind != jStr || !map[string]bool{"weightflip": true, "weight": true, "natural": true, "color": true}[v.str] {
				return nil, v.errf("blend.xform_sort must be weightflip, weight, natural or color")
			}
			sortBy = v.str
		}
		if v := bl.get("xform_map"); v != nil {
			explicit = nil
			for _, p := range v.arr {
				if p.kind != jArr || len(p.arr) != 2 || p.arr[0].kind != jStr || p.arr[1].kind != jStr {
					return nil, p.errf(`blend.xform_map entries must be ["src id", "dst id"]`)
				}
				explicit = append(explicit, [2]string{p.arr[0].str, p.arr[1].str})
			}
		}
	}
	a := &Anim{Duration: b.duration, supersample: 1, filters: map[string]*cbSpline{}}
	sp := map[string]*cbSpline{}
	for _, k := range []string{"camera", "filters", "time"} {
		var es []*jval
		if e := edit.get(k); e != nil {
			es = append(es, e)
		}
		if err := b.merge(cbNodeSpec.fields[k], k, src.get(k), dst.get(k), es, sp); err != nil {
			return nil, err
		}
	}
	get := func(path string) *cbSpline {
		if s := sp[path]; s != nil {
			return s
		}
		d := cbNodeSpec.lookup(strings.Split(path, "."))
		return constCBSpline(d.def, d.mag)
	}
	a.center = [2]*cbSpline{get("camera.center.x"), get("camera.center.y")}
	a.rotation, a.scale, a.dither, a.spp = get("camera.rotation"), get("camera.scale"), get("camera.dither_width"), get("camera.spp")
	a.frameWidth = get("time.frame_width")
	for _, k := range []string{"colorclip.gamma", "colorclip.gamma_threshold", "colorclip.highlight_power", "colorclip.vibrance",
		"de.radius", "de.minimum", "de.curve", "logscale.brightness"} {
		a.filters[k] = get("filters." + k)
	}
	var err error
	if a.palettes, err = palettes(src, dst, edit); err != nil {
		return nil, err
	}
	editXf := func(side, key string) []*jval {
		if e := jpath(edit, "xforms", side, key); e != nil {
			return []*jval{e}
		}
		return nil
	}
	sx, dx := src.get("xforms"), dst.get("xforms")
	for _, p := range sortXforms(nodeXforms(src), nodeXforms(dst), sortBy, explicit) {
		key := orPad(p.src) + "_" + orPad(p.dst)
		xf, err := b.blendXform(key, sx.get(p.src), dx.get(p.dst), append(editXf("src", p.src), editXf("dst", p.dst)...), false)
		if err != nil {
			return nil, err
		}
		a.xforms = append(a.xforms, xf)
	}
	if len(a.xforms) == 0 {
		return nil, src.errf("no xforms in either node")
	}
	sortCBXforms(a.xforms)
	sf, df := src.get("final_xform"), dst.get("final_xform")
	if sf != nil || df != nil {
		var es []*jval
		if e := edit.get("final_xform"); e != nil {
			es = append(es, e)
		}
		if a.final, err = b.blendXform("final", sf, df, es, true); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func orPad(k string) string {
	if k == "" {
		return "pad"
	}
	return k
}

// sortCBXforms puts the blended xforms in key order, the order cuburn's
// kernel lists them.
func sortCBXforms(xs []*cbXform) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j].key < xs[j-1].key; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// XformKeys names the blended xforms in genome order: "SRC_DST", the keys
// of the source and destination node xforms, "pad" for a side blended in
// from an identity xform.
func (a *Anim) XformKeys() []string {
	keys := make([]string, len(a.xforms))
	for i, x := range a.xforms {
		keys[i] = x.key
	}
	return keys
}

// Genome is the flam3 genome at edge time t: cuburn's camera (its scale is
// relative to the image width), its filter values as flam3's tone and
// density-estimation settings (see docs/flame-cuburn.md), the xforms and
// the palette at t.
func (a *Anim) Genome(t float64) *flame.Genome {
	g := flame.DefaultGenome()
	p := &a.Profile
	g.Name = a.Name
	g.Width, g.Height = p.Width, p.Height
	g.Supersample = a.supersample
	g.Center = [2]float64{a.center[0].at(t), a.center[1].at(t)}
	g.Rotate = a.rotation.at(t)
	// A profile's logscale.scale only rescales cuburn's log-density area,
	// not the camera; it is not applied (see docs/flame-cuburn.md).
	g.Scale = a.scale.at(t) * float64(p.Width)
	g.Quality = p.SPP * a.spp.at(t)
	g.TemporalSamples = 1
	f := func(k string) float64 { return a.filters[k].at(t) * p.filter(k) }
	g.Gamma = f("colorclip.gamma")
	g.GammaThreshold = f("colorclip.gamma_threshold")
	g.HighlightPower = f("colorclip.highlight_power")
	g.Vibrancy = f("colorclip.vibrance")
	g.Brightness = f("logscale.brightness")
	g.EstimatorRadius = f("de.radius")
	g.EstimatorMinimum = f("de.minimum") * g.EstimatorRadius
	g.EstimatorCurve = f("de.curve")
	g.FilterRadius = a.dither.at(t)
	g.Palette = paletteAt(a.palettes, t)
	g.Xforms = make([]flame.Xform, len(a.xforms))
	for i, x := range a.xforms {
		x.into(t, &g.Xforms[i])
	}
	if a.final != nil {
		g.Final = new(flame.Xform)
		a.final.into(t, g.Final)
	}
	return &g
}

// At is the genome at time t as an animation keyframe.
func (a *Anim) At(t float64) *flame.AnimGenome {
	return &flame.AnimGenome{Genome: *a.Genome(t), Time: t, TemporalFilterWidth: 1}
}

// Span is the edge's time range.
func (a *Anim) Span() (first, last float64) { return 0, 1 }

// FrameCount is the number of frames cuburn renders the animation in.
func (a *Anim) FrameCount() int { return a.Profile.FrameCount(a.Duration) }

// SetFrameCount renders the animation in n frames instead (each frame's
// motion-blur window is 1/n of the edge).
func (a *Anim) SetFrameCount(n int) { a.frames = n }

// Override applies `flame render`-style options: a new width and/or height
// (the other side keeping the profile's aspect; the framing follows the
// width, as cuburn's scale is relative to it), an absolute quality (the
// profile's samples per pixel) and supersample.
func (a *Anim) Override(o flame.Options) error {
	p := &a.Profile
	switch {
	case o.Width > 0 && o.Height > 0:
		p.Width, p.Height = o.Width, o.Height
	case o.Width > 0:
		p.Width, p.Height = o.Width, max(1, int(math.Round(float64(p.Height)*float64(o.Width)/float64(p.Width))))
	case o.Height > 0:
		p.Width, p.Height = max(1, int(math.Round(float64(p.Width)*float64(o.Height)/float64(p.Height)))), o.Height
	}
	if o.Quality > 0 {
		p.SPP = o.Quality
	}
	if o.Supersample > 0 {
		a.supersample = o.Supersample
	}
	return a.Genome(0.5).Validate()
}

// Frame is the frame centred at edge time t, as cuburn renders it: the
// motion-blur window is the profile's frame width times the genome's
// time.frame_width over the frame count, sampled by TemporalSamples
// genomes at even steps from its start, equally weighted.
func (a *Anim) Frame(t float64) (*flame.FrameSpec, error) {
	if !finite(t) {
		return nil, fmt.Errorf("flame: frame time %g: %w", t, ErrInvalid)
	}
	n := a.frames
	if n <= 0 {
		n = max(a.FrameCount(), 1)
	}
	td := a.Profile.FrameWidth * a.frameWidth.at(t) / float64(n)
	ns := a.Profile.TemporalSamples
	if ns < 1 || ns > flame.MaxTemporalSamples {
		return nil, fmt.Errorf("flame: %d temporal samples, want 1..%d: %w", ns, flame.MaxTemporalSamples, flame.ErrTooLarge)
	}
	if td == 0 {
		ns = 1
	}
	c := a.At(t)
	fs := &flame.FrameSpec{Time: t, Center: c, MeanWeight: 1, FilterShape: c.FilterShape, FilterRadius: c.FilterRadius}
	fs.Samples = make([]flame.TemporalSample, ns)
	errs := make([]error, ns)
	ts := t - td/2
	parallel.For(ns, 8, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ti := ts + float64(i)*td/float64(ns)
			g := &c.Genome
			if ns > 1 {
				g = a.Genome(ti)
			}
			if err := g.Validate(); err != nil {
				errs[i] = fmt.Errorf("flame: %s: genome at time %g: %w", a.Name, ti, err)
			}
			fs.Samples[i] = flame.TemporalSample{Genome: g, Time: ti, Weight: 1}
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		fs.MaxEstimator = max(fs.MaxEstimator, fs.Samples[i].Genome.EstimatorRadius)
	}
	return fs, nil
}
