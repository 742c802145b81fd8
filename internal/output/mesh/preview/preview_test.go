package preview

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"math"
	"sync/atomic"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// boxChunk appends an axis-aligned box from lo to hi: 8 corners, 6 face
// normals, quads wound counter-clockwise seen from outside.
func boxChunk(c *mesh.Chunk, lo, hi [3]float32) {
	p0, n0, v0 := int32(len(c.Positions)), int32(len(c.Normals)), int32(len(c.Vertices))
	for i := range 8 {
		p := lo
		for k := range 3 {
			if i>>k&1 == 1 {
				p[k] = hi[k]
			}
		}
		c.Positions = append(c.Positions, p)
	}
	faces := []struct {
		n       [3]float32
		corners [4]int32 // bit k of a corner: hi on axis k
	}{
		{[3]float32{1, 0, 0}, [4]int32{1, 3, 7, 5}},
		{[3]float32{-1, 0, 0}, [4]int32{0, 4, 6, 2}},
		{[3]float32{0, 1, 0}, [4]int32{2, 6, 7, 3}},
		{[3]float32{0, -1, 0}, [4]int32{0, 1, 5, 4}},
		{[3]float32{0, 0, 1}, [4]int32{4, 5, 7, 6}},
		{[3]float32{0, 0, -1}, [4]int32{0, 2, 3, 1}},
	}
	for f, fc := range faces {
		c.Normals = append(c.Normals, fc.n)
		for _, k := range fc.corners {
			c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + k, N: n0 + int32(f)})
		}
		b := v0 + int32(4*f)
		c.Face(b, b+1, b+2, b+3)
	}
}

func oneMaterial(col [3]float64) []mesh.Material {
	return []mesh.Material{{Name: "m", Color: col, Roughness: 0.5}}
}

func cubeMesh() *mesh.Mesh {
	return &mesh.Mesh{Materials: oneMaterial([3]float64{0.8, 0.8, 0.8}), Parts: []mesh.Part{{Name: "cube", Count: 1,
		Build: func(lo, hi int, c *mesh.Chunk) { boxChunk(c, [3]float32{-0.5, -0.5, -0.5}, [3]float32{0.5, 0.5, 0.5}) }}}}
}

func render(t *testing.T, m *mesh.Mesh, o Options) *image.NRGBA {
	t.Helper()
	img, err := Render(context.Background(), m, o)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// pixelOf is the pixel where world point p lands in a w-wide preview of a
// model whose faces' corners are pts.
func pixelOf(w int, pts [][3]float32, p [3]float32) image.Point {
	cam := newCamera()
	b := emptyBox()
	for _, q := range pts {
		b.add(cam.view(q))
	}
	f := fit(b, w)
	v := cam.view(p)
	x := (v[0]-f.cx)*f.scale + float64(f.w*supersample)/2
	y := float64(f.h*supersample)/2 - (v[1]-f.cy)*f.scale
	return image.Pt(int(x/supersample), int(y/supersample))
}

func cubeCorners() [][3]float32 {
	var c mesh.Chunk
	boxChunk(&c, [3]float32{-0.5, -0.5, -0.5}, [3]float32{0.5, 0.5, 0.5})
	return c.Positions
}

func luma(c color.NRGBA) int { return 299*int(c.R) + 587*int(c.G) + 114*int(c.B) }

// TestCubeShades: the three faces seen from the south-east (top, south +z,
// east +x) are each one flat colour, the roof brightest, then south, then
// east, each as the lighting formula gives it.
func TestCubeShades(t *testing.T) {
	const w = 300
	img := render(t, cubeMesh(), Options{Width: w})
	cam := newCamera()
	faces := []struct {
		name   string
		centre [3]float32
		n      [3]float64
	}{
		{"top", [3]float32{0, 0.5, 0}, [3]float64{0, 1, 0}},
		{"south", [3]float32{0, 0, 0.5}, [3]float64{0, 0, 1}},
		{"east", [3]float32{0.5, 0, 0}, [3]float64{1, 0, 0}},
	}
	var got []color.NRGBA
	for _, f := range faces {
		px := pixelOf(w, cubeCorners(), f.centre)
		c := img.NRGBAAt(px.X, px.Y)
		v := srgb8(0.8 * (ambient + diffuse*max(0, dot(f.n, cam.sun))))
		if want := (color.NRGBA{v, v, v, 255}); c != want {
			t.Errorf("%s face at %v is %v, want %v", f.name, px, c, want)
		}
		got = append(got, c)
	}
	if !(luma(got[0]) > luma(got[1]) && luma(got[1]) > luma(got[2])) {
		t.Errorf("shades top %v, south %v, east %v: want top > south > east", got[0], got[1], got[2])
	}
}

// TestCubeFramed: the cube is centred, within the margin, and everything
// outside it is background.
func TestCubeFramed(t *testing.T) {
	const w = 200
	img := render(t, cubeMesh(), Options{Width: w})
	b := img.Bounds()
	if b.Dx() != w || b.Dy() < w/4 || b.Dy() > 2*w {
		t.Fatalf("image %v, want %d wide and w/4..2w tall", b, w)
	}
	bg := Background()
	drawn := image.Rectangle{Min: image.Pt(b.Max.X, b.Max.Y)}
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.NRGBAAt(x, y) == bg {
				continue
			}
			n++
			drawn.Min.X, drawn.Min.Y = min(drawn.Min.X, x), min(drawn.Min.Y, y)
			drawn.Max.X, drawn.Max.Y = max(drawn.Max.X, x+1), max(drawn.Max.Y, y+1)
		}
	}
	if n == 0 {
		t.Fatal("nothing drawn")
	}
	if c := img.NRGBAAt(b.Dx()/2, b.Dy()/2); c == bg {
		t.Errorf("the centre is background")
	}
	pad := int(math.Round(margin * w))
	for _, d := range []int{drawn.Min.X - pad, b.Max.X - drawn.Max.X - pad, drawn.Min.Y - pad, b.Max.Y - drawn.Max.Y - pad} {
		if d < -1 || d > 1 {
			t.Errorf("drawn %v in %v: want a margin of %d px (±1) on every side", drawn, b, pad)
			break
		}
	}
	for _, p := range []image.Point{{0, 0}, {w - 1, 0}, {0, b.Dy() - 1}, {w - 1, b.Dy() - 1}} {
		if c := img.NRGBAAt(p.X, p.Y); c != bg {
			t.Errorf("corner %v is %v, want the background", p, c)
		}
	}
}

// TestOutline: where a low box stands in front of a tall one of the same
// colour, the low box's far roof edge is drawn darker than the roof and
// the wall behind it (a mere blend of the two lies between them).
func TestOutline(t *testing.T) {
	back := [2][3]float32{{-1, 0, -3}, {1, 4, -1}}
	front := [2][3]float32{{-1, 0, 0}, {1, 1, 2}}
	m := &mesh.Mesh{Materials: oneMaterial([3]float64{0.7, 0.7, 0.7}), Parts: []mesh.Part{{Name: "b", Count: 2,
		Build: func(lo, hi int, c *mesh.Chunk) {
			for _, b := range [][2][3]float32{back, front}[lo:hi] {
				boxChunk(c, b[0], b[1])
			}
		}}}}
	const w = 300
	img := render(t, m, Options{Width: w})
	var all mesh.Chunk
	m.Parts[0].Build(0, 2, &all)
	pts := all.Positions
	roof, wall, edge := pixelOf(w, pts, [3]float32{0, 1, 1}), pixelOf(w, pts, [3]float32{0, 2.5, -1}), pixelOf(w, pts, [3]float32{0, 1, 0})
	lr, lw := luma(img.NRGBAAt(roof.X, roof.Y)), luma(img.NRGBAAt(wall.X, wall.Y))
	darkest := lr
	for y := edge.Y - 2; y <= edge.Y+2; y++ {
		darkest = min(darkest, luma(img.NRGBAAt(edge.X, y)))
	}
	if darkest >= min(lr, lw) {
		t.Errorf("the front box's far roof edge near %v is no darker (%d) than its roof (%d) or the wall behind (%d)", edge, darkest, lr, lw)
	}
}

// TestEmpty: a mesh without faces gives the background alone, 4:3.
func TestEmpty(t *testing.T) {
	for name, m := range map[string]*mesh.Mesh{
		"no parts":   {},
		"empty part": {Parts: []mesh.Part{{Name: "p", Material: -1}}},
		"lines only": {Parts: []mesh.Part{{Name: "p", Material: -1, Count: 1, Build: func(lo, hi int, c *mesh.Chunk) {
			c.Positions = append(c.Positions, [3]float32{}, [3]float32{1, 1, 1})
			c.Lines = append(c.Lines, 0, 1)
			c.LineSizes = append(c.LineSizes, 2)
		}}}},
		"nil mesh ok": nil,
	} {
		t.Run(name, func(t *testing.T) {
			img, err := Render(context.Background(), m, Options{Width: 64})
			if m == nil {
				if err == nil {
					t.Fatal("a nil mesh drew")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
				t.Fatalf("bounds %v, want 64x48", b)
			}
			for y := range 48 {
				for x := range 64 {
					if c := img.NRGBAAt(x, y); c != Background() {
						t.Fatalf("pixel %d,%d is %v", x, y, c)
					}
				}
			}
		})
	}
}

// city is n boxes of varying heights on a grid, one per element, some
// overlapping (equal depths), in chunks of 7.
func city(n int) *mesh.Mesh {
	build := func(lo, hi int, c *mesh.Chunk) {
		for i := lo; i < hi; i++ {
			x, z := float32(i%9), float32(i/9)
			h := float32(1 + (i*7919)%13)
			boxChunk(c, [3]float32{x, 0, z}, [3]float32{x + 0.8 + float32(i%3)*0.3, h, z + 0.8})
		}
	}
	return &mesh.Mesh{Materials: []mesh.Material{{Name: "a", Color: [3]float64{0.9, 0.3, 0.2}}, {Name: "b", Color: [3]float64{0.2, 0.5, 0.9}}},
		Parts: []mesh.Part{{Name: "a", Material: 0, Count: n, Grain: 7, Build: build}, {Name: "b", Material: 1, Count: n, Grain: 5, Build: build}}}
}

// TestWorkers: the image does not depend on the number of workers.
func TestWorkers(t *testing.T) {
	one := render(t, city(81), Options{Width: 240, Workers: 1})
	for _, w := range []int{2, 3, 8} {
		if got := render(t, city(81), Options{Width: 240, Workers: w}); !bytes.Equal(got.Pix, one.Pix) {
			t.Errorf("%d workers drew another image than 1", w)
		}
	}
}

// TestInstances: an instanced part draws as its copies would.
func TestInstances(t *testing.T) {
	q := [4]float32{0, 0, 0, 1}
	ins := []mesh.Instance{{T: [3]float32{0, 0, 0}, Q: q, S: 1}, {T: [3]float32{3, 0, -2}, Q: [4]float32{0, float32(math.Sin(0.3)), 0, float32(math.Cos(0.3))}, S: 0.5}}
	inst := cubeMesh()
	inst.Parts[0].Instances = ins
	// The copies by hand, without normals: lit by their faces' geometry,
	// which for a box is the rotated normals the instances get.
	flat := cubeMesh()
	one := flat.Parts[0].Build
	flat.Parts[0].Count = len(ins)
	flat.Parts[0].Build = func(lo, hi int, c *mesh.Chunk) {
		for k := lo; k < hi; k++ {
			var b mesh.Chunk
			one(0, 1, &b)
			p0, v0 := int32(len(c.Positions)), int32(len(c.Vertices))
			for _, p := range b.Positions {
				c.Positions = append(c.Positions, ins[k].Apply(p))
			}
			for _, v := range b.Vertices {
				c.Vertices = append(c.Vertices, mesh.Vertex{P: v.P + p0})
			}
			for _, f := range b.Faces {
				c.Faces = append(c.Faces, f+v0)
			}
			c.FaceSizes = append(c.FaceSizes, b.FaceSizes...)
		}
	}
	a, b := render(t, inst, Options{Width: 160}), render(t, flat, Options{Width: 160})
	diff := 0
	for i := range a.Pix {
		if d := int(a.Pix[i]) - int(b.Pix[i]); d > 1 || d < -1 {
			diff++
		}
	}
	if diff > len(a.Pix)/500 {
		t.Errorf("instanced and copied cubes differ in %d of %d bytes", diff, len(a.Pix))
	}
	// The second copy is drawn where it stands.
	at := pixelOf(160, instCorners(ins), [3]float32{3, 0.25, -2})
	if a.NRGBAAt(at.X, at.Y) == Background() {
		t.Errorf("the second instance is not drawn")
	}
}

func instCorners(ins []mesh.Instance) [][3]float32 {
	var out [][3]float32
	for k := range ins {
		for _, p := range cubeCorners() {
			out = append(out, ins[k].Apply(p))
		}
	}
	return out
}

// TestConcave: an L-shaped face in a concave part leaves its notch empty
// (a fan from its first corner would fill it).
func TestConcave(t *testing.T) {
	l := [][3]float32{{0, 0, 0}, {2, 0, 0}, {2, 0, -1}, {1, 0, -1}, {1, 0, -2}, {0, 0, -2}}
	for _, concave := range []bool{true, false} {
		m := &mesh.Mesh{Materials: oneMaterial([3]float64{0.2, 0.6, 0.2}), Parts: []mesh.Part{{Name: "l", Count: 1, Concave: concave,
			Build: func(lo, hi int, c *mesh.Chunk) {
				// Corners from one next to the notch, so that a fan crosses it.
				for i := range l {
					c.Positions = append(c.Positions, l[(i+2)%len(l)])
					c.Vertices = append(c.Vertices, mesh.Vertex{P: int32(i)})
				}
				c.Face(0, 1, 2, 3, 4, 5)
			}}}}
		img := render(t, m, Options{Width: 200})
		notch := pixelOf(200, l, [3]float32{1.3, 0, -1.6})
		inL := pixelOf(200, l, [3]float32{0.5, 0, -0.5})
		if img.NRGBAAt(inL.X, inL.Y) == Background() {
			t.Errorf("concave %v: the L's inside is not drawn", concave)
		}
		if empty := img.NRGBAAt(notch.X, notch.Y) == Background(); empty != concave {
			t.Errorf("concave %v: notch empty %v", concave, empty)
		}
	}
}

// TestCancel: a cancelled context ends the drawing between chunks.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var built atomic.Int64
	m := city(81)
	b := m.Parts[0].Build
	m.Parts[0].Build = func(lo, hi int, c *mesh.Chunk) {
		if built.Add(1) == 3 {
			cancel()
		}
		b(lo, hi, c)
	}
	_, err := Render(ctx, m, Options{Width: 64, Workers: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if n := built.Load(); n >= int64(2*((81+6)/7)) {
		t.Errorf("%d chunks built after the cancellation at 3", n)
	}
}

// TestShape: the height follows the model's aspect, within w/4..2w; bad
// widths are refused.
func TestShape(t *testing.T) {
	box := func(hi [3]float32) *mesh.Mesh {
		return &mesh.Mesh{Parts: []mesh.Part{{Name: "b", Material: -1, Count: 1,
			Build: func(lo, h int, c *mesh.Chunk) { boxChunk(c, [3]float32{}, hi) }}}}
	}
	for _, tc := range []struct {
		name   string
		hi     [3]float32
		lo, up int
	}{
		{"tower", [3]float32{1, 100, 1}, 200, 200},
		{"slab", [3]float32{100, 0.01, 100}, 25, 70},
		{"cube", [3]float32{1, 1, 1}, 100, 120},
	} {
		img := render(t, box(tc.hi), Options{Width: 100})
		if h := img.Bounds().Dy(); h < tc.lo || h > tc.up {
			t.Errorf("%s: height %d, want %d..%d", tc.name, h, tc.lo, tc.up)
		}
	}
	for _, w := range []int{-1, 15, MaxWidth + 1} {
		if _, err := Render(context.Background(), cubeMesh(), Options{Width: w}); err == nil {
			t.Errorf("width %d drew", w)
		}
	}
	if MaxMemory(DefaultWidth) < Memory(DefaultWidth, DefaultWidth) || Memory(10, 10) != 100*36 {
		t.Errorf("memory %g, %g", MaxMemory(DefaultWidth), Memory(10, 10))
	}
}

// TestProgress: the progress reaches twice the elements, once per pass.
func TestProgress(t *testing.T) {
	var last, total int64
	m := city(20)
	render(t, m, Options{Width: 64, Progress: func(d, tot int64) { last, total = d, tot }})
	if total != 80 || last != 80 {
		t.Errorf("progress ended at %d of %d, want 80 of 80", last, total)
	}
}

// BenchmarkRender draws 40,000 boxes (480,000 triangles) 1024 pixels wide.
func BenchmarkRender(b *testing.B) {
	m := city(20000)
	for b.Loop() {
		if _, err := Render(context.Background(), m, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPartColor: a textured material with a white factor (the texture's
// own colours) is drawn mid grey, any other by its colour; no material is
// mid grey.
func TestPartColor(t *testing.T) {
	grey := [3]float64{0.5, 0.5, 0.5}
	m := &mesh.Mesh{Materials: []mesh.Material{
		{Name: "white", Color: [3]float64{1, 1, 1}, Texture: "a.png"},
		{Name: "tinted", Color: [3]float64{0.9, 0.2, 0.1}, Texture: "a.png"},
		{Name: "plain", Color: [3]float64{1, 1, 1}},
	}, Parts: []mesh.Part{{Material: 0}, {Material: 1}, {Material: 2}, {Material: -1}}}
	for i, want := range [][3]float64{grey, {0.9, 0.2, 0.1}, {1, 1, 1}, grey} {
		if got := partColor(m, i); got != want {
			t.Errorf("part %d: %v, want %v", i, got, want)
		}
	}
}
