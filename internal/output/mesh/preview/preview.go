// Package preview draws a mesh.Mesh as a small picture, for a look at a
// model without a 3D viewer: `pga city ... -o city.png`, and the README's
// pictures.
//
// The camera is fixed so that every preview of every model is comparable:
// an orthographic (axonometric) view from the south-east, looking north-west
// and 30° down, of the mesh's frame as pga and glTF have it (x east, y up,
// z south). The view is fitted to the bounds of the faces seen that way,
// with a margin of 4% of the width on each side: the image is Width pixels
// wide (1024 unless set) and as tall as the model's aspect needs, from a
// quarter of the width (a wide, flat city) to twice the width (a tower,
// then scaled to fit the height).
//
// Faces are z-buffered and shaded flat: each part's material colour (a
// textured material's colour, or mid grey where that is white: textures are
// not sampled) times an ambient 0.25 plus 0.75 of Lambert's cosine with a
// fixed sun 18° east of south and 52° high, so the roofs are the
// brightest, the south walls next and the east walls darker. Faces seen
// from behind are lit as their front (pga's materials are double-sided,
// and winding is not relied on). Lines are not drawn. Where the depth jumps
// (a silhouette) the near side is darkened, so a wall stands out from a
// wall of the same colour behind it. Each pixel is the mean of 2x2 samples,
// over a light grey background.
//
// The chunks are built and drawn on all cores, as the writers build them
// (mesh.Walk), twice: once for the bounds, once to draw. Each sample keeps
// the nearest depth and its colour in one 64-bit word updated by
// compare-and-swap, where an equal depth keeps the smaller colour, so the
// image does not depend on the number of workers or their order.
package preview

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// DefaultWidth is the width of a preview when Options.Width is 0.
const DefaultWidth = 1024

// MaxWidth bounds Options.Width: a preview is a look at a model, not a
// rendering.
const MaxWidth = 8192

// supersample is the samples per pixel along each axis.
const supersample = 2

// margin is the empty border on each side, as a fraction of the width.
const margin = 0.04

// Background is the colour where no face is drawn: a light grey, so that
// white walls still show their outline.
func Background() color.NRGBA { return color.NRGBA{R: 242, G: 243, B: 245, A: 255} }

// Options are what Render takes besides the mesh.
type Options struct {
	Width int // pixels; 0 means DefaultWidth
	// Workers build and draw chunks in parallel; 0 means GOMAXPROCS. The
	// image does not depend on it.
	Workers int
	// Progress, when not nil, is told of the elements built over both
	// passes (twice the mesh's elements in all).
	Progress func(done, total int64)
}

func (o *Options) width() int {
	if o.Width == 0 {
		return DefaultWidth
	}
	return o.Width
}

// MaxHeight is the tallest image of a preview width pixels wide.
func MaxHeight(width int) int { return 2 * width }

// Memory is the bytes a width x height preview holds while it is drawn:
// the image and the samples with their depths.
func Memory(width, height int) float64 {
	return float64(width) * float64(height) * (4 + 8*supersample*supersample)
}

// MaxMemory is the most memory a preview width pixels wide needs, whatever
// the model: Memory at MaxHeight. A caller checks it before the work.
func MaxMemory(width int) float64 { return Memory(width, MaxHeight(width)) }

// Render draws m as the package comment says. A mesh without faces gives
// an image of the background alone, Width wide and 3/4 of it tall.
func Render(ctx context.Context, m *mesh.Mesh, o Options) (*image.NRGBA, error) {
	w := o.width()
	if w < 16 || w > MaxWidth {
		return nil, fmt.Errorf("preview: width %d out of range 16..%d", w, MaxWidth)
	}
	cam := newCamera()
	total := int64(0)
	if m != nil {
		for _, p := range m.Parts {
			n := p.Count
			if p.Instances != nil {
				n = len(p.Instances)
			}
			total += 2 * int64(n)
		}
	}
	progress := func(base int64) func(done, _ int64) {
		if o.Progress == nil {
			return nil
		}
		return func(done, _ int64) { o.Progress(base+done, total) }
	}
	b, err := cam.bounds(ctx, m, mesh.Options{Workers: o.Workers, Progress: progress(0)})
	if err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	if b.empty() {
		img := image.NewNRGBA(image.Rect(0, 0, w, w*3/4))
		fill(img, Background())
		return img, nil
	}
	f := fit(b, w)
	s := newSamples(f.w*supersample, f.h*supersample)
	err = mesh.Walk(ctx, m, mesh.Options{Workers: o.Workers, Progress: progress(total / 2)}, func(part int, c *mesh.Chunk) error {
		var d drawer
		d.draw(s, &cam, &f, c, m.Parts[part].Concave, partColor(m, part))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	return s.resolve(f.w, f.h, float32(f.outlineGap())), nil
}

// partColor is the linear colour part p is shaded with.
func partColor(m *mesh.Mesh, p int) [3]float64 {
	grey := [3]float64{0.5, 0.5, 0.5}
	mi := m.Parts[p].Material
	if mi < 0 {
		return grey
	}
	mat := &m.Materials[mi]
	if mat.Texture != "" && mat.Color == [3]float64{1, 1, 1} {
		return grey // a white factor leaves the texture's own colours, which are not sampled
	}
	return mat.Color
}

func fill(img *image.NRGBA, c color.NRGBA) {
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
}

// camera is the view's frame: right and up across the image, eye towards
// the viewer (depth grows away from it), and the sun.
type camera struct {
	right, up, eye, sun [3]float64
}

// Elevation is the camera's angle above the horizon, in degrees.
const Elevation = 30

func newCamera() camera {
	el := Elevation * math.Pi / 180
	h := math.Cos(el) / math.Sqrt2
	c := camera{eye: [3]float64{h, math.Sin(el), h}} // east, up, south
	c.right = [3]float64{1 / math.Sqrt2, 0, -1 / math.Sqrt2}
	c.up = cross(c.eye, c.right)
	c.sun = unit([3]float64{0.25, 1, 0.75})
	return c
}

// box is the bounds of the faces' corners in the camera's frame (right,
// up, eye).
type box struct{ lo, hi [3]float64 }

func (b *box) empty() bool { return !(b.lo[0] <= b.hi[0]) }

func (b *box) add(q [3]float64) {
	for k := range 3 {
		b.lo[k], b.hi[k] = min(b.lo[k], q[k]), max(b.hi[k], q[k])
	}
}

func emptyBox() box {
	inf := math.Inf(1)
	return box{lo: [3]float64{inf, inf, inf}, hi: [3]float64{-inf, -inf, -inf}}
}

func (c *camera) view(p [3]float32) [3]float64 {
	q := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	return [3]float64{dot(q, c.right), dot(q, c.up), dot(q, c.eye)}
}

// bounds is the box of every corner of every face of m.
func (c *camera) bounds(ctx context.Context, m *mesh.Mesh, o mesh.Options) (box, error) {
	var mu sync.Mutex
	all := emptyBox()
	err := mesh.Walk(ctx, m, o, func(_ int, ch *mesh.Chunk) error {
		b := emptyBox()
		for _, v := range ch.Faces {
			b.add(c.view(ch.Positions[ch.Vertices[v].P]))
		}
		if b.empty() {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		all.add(b.lo)
		all.add(b.hi)
		return nil
	})
	return all, err
}

// frame maps the camera's frame to samples: sample x = (right - cx) * scale
// + sw/2, y = sh/2 - (up - cy) * scale; depth 0 at the nearest corner, 1
// at the farthest.
type frame struct {
	w, h           int // pixels
	cx, cy, scale  float64
	near, depthInv float64
}

// fit is the image that frames b, w pixels wide: as tall as b's aspect
// needs, within a quarter and MaxHeight of w.
func fit(b box, w int) frame {
	ex, ey := b.hi[0]-b.lo[0], b.hi[1]-b.lo[1]
	if !(ex > 0) && !(ey > 0) {
		ex, ey = 1, 1 // a point, drawn at the centre
	}
	pad := math.Round(margin * float64(w))
	scale, h := 0.0, 0
	if ex > 0 {
		scale = (float64(w) - 2*pad) / ex
		h = int(math.Ceil(ey*scale + 2*pad))
	}
	if !(ex > 0) || h > MaxHeight(w) { // taller than wide: fit the height
		h = MaxHeight(w)
		if s := (float64(h) - 2*pad) / ey; !(ex > 0) || s < scale {
			scale = s
		}
	}
	h = max(h, w/4)
	f := frame{w: w, h: h, cx: (b.lo[0] + b.hi[0]) / 2, cy: (b.lo[1] + b.hi[1]) / 2, scale: scale * supersample}
	f.near = b.hi[2]
	if d := b.hi[2] - b.lo[2]; d > 0 {
		f.depthInv = 1 / d
	}
	return f
}

// outlineGap is the second difference of depth that makes an outline: 3
// samples' width, more than where two faces meet at a crease (walls at
// right angles: 2), less than most steps from a wall to what stands behind
// it.
func (f *frame) outlineGap() float64 { return 3 / f.scale * f.depthInv }

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func unit(a [3]float64) [3]float64 {
	l := math.Sqrt(dot(a, a))
	if !(l > 0) {
		return a
	}
	return [3]float64{a[0] / l, a[1] / l, a[2] / l}
}

// samples is the supersampled z-buffer: per sample the depth's float32
// bits over the 8-bit sRGB colour, so the smallest word is the nearest
// face (and of equal depths the smallest colour).
type samples struct {
	w, h int
	s    []atomic.Uint64
}

const clear = math.MaxUint64

func newSamples(w, h int) *samples {
	s := &samples{w: w, h: h, s: make([]atomic.Uint64, w*h)}
	for i := range s.s {
		s.s[i].Store(clear)
	}
	return s
}

// put keeps key at sample i if it is nearer than what is there.
func (s *samples) put(i int, key uint64) {
	a := &s.s[i]
	for {
		old := a.Load()
		if key >= old || a.CompareAndSwap(old, key) {
			return
		}
	}
}

// resolve averages each pixel's samples into the image, with the outline
// (outlined) drawn where the depth jumps by more than gap.
func (s *samples) resolve(w, h int, gap float32) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			var sum [3]uint32
			for j := range supersample {
				for i := range supersample {
					c := s.outlined(x*supersample+i, y*supersample+j, gap)
					sum[0], sum[1], sum[2] = sum[0]+uint32(c[0]), sum[1]+uint32(c[1]), sum[2]+uint32(c[2])
				}
			}
			const n = supersample * supersample
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = uint8((sum[0]+n/2)/n), uint8((sum[1]+n/2)/n), uint8((sum[2]+n/2)/n), 255
		}
	}
	return img
}

// outlineShade is what is left of a colour on an outline.
const outlineShade = 0.55

// outlined is the colour of sample (x, y): the background where nothing was
// drawn; else its face's colour, darkened on an outline: next to the
// background, or where the sample is nearer by more than gap than the line
// through its two neighbours (left and right, or above and below), which
// is the near side of a step in depth. A plane of any slope has no second
// difference, so only steps are outlined: a wall stands out from a wall
// of the same colour behind it, and a roof seen nearly edge-on does not.
func (s *samples) outlined(x, y int, gap float32) [3]uint8 {
	k := s.s[y*s.w+x].Load()
	if k == clear {
		c := Background()
		return [3]uint8{c.R, c.G, c.B}
	}
	c := [3]uint8{uint8(k >> 16), uint8(k >> 8), uint8(k)}
	if s.edge(x, y, math.Float32frombits(uint32(k>>32)), gap) {
		for i := range c {
			c[i] = uint8(float64(c[i])*outlineShade + 0.5)
		}
	}
	return c
}

// edge says whether the sample (x, y) of depth z is on an outline.
func (s *samples) edge(x, y int, z, gap float32) bool {
	for _, d := range [2][2]int{{1, 0}, {0, 1}} {
		ax, ay, bx, by := x-d[0], y-d[1], x+d[0], y+d[1]
		if ax < 0 || ay < 0 || bx >= s.w || by >= s.h {
			continue
		}
		a, b := s.s[ay*s.w+ax].Load(), s.s[by*s.w+bx].Load()
		if a == clear || b == clear {
			return true
		}
		if math.Float32frombits(uint32(a>>32))+math.Float32frombits(uint32(b>>32))-2*z > gap {
			return true
		}
	}
	return false
}
