package preview

import (
	"math"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// Lighting: the share of a colour every face gets, and the share its
// cosine to the sun adds.
const (
	ambient = 0.25
	diffuse = 1 - ambient
)

// drawer draws one chunk; its buffers serve one goroutine.
type drawer struct {
	at   [][3]float64 // the chunk's positions in samples (x, y) and depth
	tris []uint32
}

// draw rasterises c's faces into s, shaded from colour (linear RGB).
func (d *drawer) draw(s *samples, cam *camera, f *frame, c *mesh.Chunk, concave bool, colour [3]float64) {
	d.at = d.at[:0]
	for _, p := range c.Positions {
		v := cam.view(p)
		x := (v[0]-f.cx)*f.scale + float64(s.w)/2
		y := float64(s.h)/2 - (v[1]-f.cy)*f.scale
		z := min(max((f.near-v[2])*f.depthInv, 0), 1)
		d.at = append(d.at, [3]float64{x, y, z})
	}
	d.tris = c.Triangles(d.tris[:0], concave)
	for t := 0; t+2 < len(d.tris); t += 3 {
		va, vb, vc := c.Vertices[d.tris[t]], c.Vertices[d.tris[t+1]], c.Vertices[d.tris[t+2]]
		n := faceNormal(c, va, vb, vc)
		if dot(n, cam.eye) < 0 { // seen from behind: lit as its front
			n = [3]float64{-n[0], -n[1], -n[2]}
		}
		shade := ambient + diffuse*max(0, dot(n, cam.sun))
		rgb := uint64(srgb8(colour[0]*shade))<<16 | uint64(srgb8(colour[1]*shade))<<8 | uint64(srgb8(colour[2]*shade))
		s.triangle(d.at[va.P], d.at[vb.P], d.at[vc.P], rgb)
	}
}

// faceNormal is the unit normal of a triangle: the mean of its corners'
// normals where the chunk has them (the model's own idea of its surface),
// else its edges' cross product.
func faceNormal(c *mesh.Chunk, va, vb, vc mesh.Vertex) [3]float64 {
	if len(c.Normals) > 0 {
		var n [3]float64
		for _, v := range [3]mesh.Vertex{va, vb, vc} {
			for k := range 3 {
				n[k] += float64(c.Normals[v.N][k])
			}
		}
		if dot(n, n) > 1e-12 {
			return unit(n)
		}
	}
	pa, pb, pc := c.Positions[va.P], c.Positions[vb.P], c.Positions[vc.P]
	var e1, e2 [3]float64
	for k := range 3 {
		e1[k] = float64(pb[k]) - float64(pa[k])
		e2[k] = float64(pc[k]) - float64(pa[k])
	}
	return unit(cross(e1, e2))
}

// triangle z-buffers the samples whose centres (i+0.5, j+0.5) lie inside
// the triangle a, b, c (edges included) with the colour rgb.
func (s *samples) triangle(a, b, c [3]float64, rgb uint64) {
	area := edge(a, b, c)
	if !(math.Abs(area) > 1e-12) {
		return // degenerate, or seen edge-on
	}
	x0 := max(0, int(math.Ceil(min(a[0], b[0], c[0])-0.5)))
	x1 := min(s.w-1, int(math.Floor(max(a[0], b[0], c[0])-0.5)))
	y0 := max(0, int(math.Ceil(min(a[1], b[1], c[1])-0.5)))
	y1 := min(s.h-1, int(math.Floor(max(a[1], b[1], c[1])-0.5)))
	inv := 1 / area
	for j := y0; j <= y1; j++ {
		p := [3]float64{0, float64(j) + 0.5, 0}
		for i := x0; i <= x1; i++ {
			p[0] = float64(i) + 0.5
			w0, w1, w2 := edge(b, c, p)*inv, edge(c, a, p)*inv, edge(a, b, p)*inv
			if w0 < 0 || w1 < 0 || w2 < 0 {
				continue
			}
			z := float32(w0*a[2] + w1*b[2] + w2*c[2])
			s.put(j*s.w+i, uint64(math.Float32bits(max(z, 0)))<<32|rgb)
		}
	}
}

// edge is twice the signed area of the triangle a, b, p in the image
// plane.
func edge(a, b, p [3]float64) float64 {
	return (b[0]-a[0])*(p[1]-a[1]) - (b[1]-a[1])*(p[0]-a[0])
}

// srgb8 is a linear 0..1 intensity in 8-bit sRGB, as PNG viewers show it.
func srgb8(x float64) uint8 {
	x = min(max(x, 0), 1)
	if x <= 0.0031308 {
		x *= 12.92
	} else {
		x = 1.055*math.Pow(x, 1/2.4) - 0.055
	}
	return uint8(math.Round(255 * x))
}
