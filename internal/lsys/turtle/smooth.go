package turtle

import (
	"math"

	"github.com/procgen-dev/procgen/internal/output/mesh"
)

// Generalised cylinders (MeshOptions.Smooth), as cpfg and L-Py draw stems:
// one tube through a chain of segments, a ring at each joint, so a branch
// stays smooth where it turns instead of being a row of separate tubes.
//
// A chain is a run of consecutive segments (in the part: a colour change
// ends it) each starting exactly where the one before ended, as lines are
// chained into polylines; a branch ('[') starts a new chain, and so does a
// segment of no length or width, which is left out. A chain of n segments
// and k sides is (n+1) rings of k+1 vertices (the last repeats the first
// position with u = 1, the texture seam): (n+1)(k+1) vertices and n·k quads,
// plus with caps 2k vertices and two k-gons.
//
// The ring at a joint lies across the mean of the two segments' headings
// and its radius is the mean of their radii; the end rings lie across their
// segment with its radius. The frame is carried from ring to ring by the
// rotation that takes one ring's tangent to the next (parallel transport),
// so the tube does not twist about its axis however the branch turns.
//
// Texture coordinates: u = j/k around (0 to 1 from the frame's first
// direction, counter-clockwise about the heading), v the arc length divided
// by the segment's circumference (π·width), summed along the chain: a
// texture repeats once per circumference along the stem, square on the
// surface, whatever the width.

const (
	smoothGrain = 16   // chains per chunk
	maxChain    = 4096 // segments a chain holds before a new one starts, bounding a chunk
)

// chains splits the part's elements [0, count) into chains: ranges [lo, hi)
// of element numbers (positions in at), drawable segments only.
func (b *meshBuilder) chains(at []int32, count int) [][2]int32 {
	segs := b.g.Segments
	var out [][2]int32
	open := false
	for k := range count {
		i := pick(at, k)
		s := &segs[i]
		if s.A == s.B || !(float64(s.Width)*b.scale > 0) {
			open = false
			continue
		}
		last := len(out) - 1
		if open && pick(at, k-1) == i-1 && s.A == segs[i-1].B && out[last][1]-out[last][0] < maxChain {
			out[last][1]++
			continue
		}
		out = append(out, [2]int32{int32(k), int32(k + 1)})
		open = true
	}
	return out
}

// smoothPart is the part of segments at (nil: all) as generalised cylinders,
// a chain an element.
func (b *meshBuilder) smoothPart(p mesh.Part, at []int32) mesh.Part {
	cs := b.chains(at, p.Count)
	p.Count, p.Grain = len(cs), smoothGrain
	p.Build = func(lo, hi int, c *mesh.Chunk) {
		for _, ch := range cs[lo:hi] {
			b.smoothTube(c, at, int(ch[0]), int(ch[1]))
		}
	}
	return p
}

// ring is one ring of a generalised cylinder: its centre, tangent, frame,
// radius and v coordinate.
type ring struct {
	centre, t, b1, b2 vec3
	r, v              float64
}

// rings computes the rings of chain [lo, hi) of at.
func (b *meshBuilder) rings(at []int32, lo, hi int) []ring {
	segs := b.g.Segments
	n := hi - lo
	rs := make([]ring, n+1)
	v := 0.0
	var prev vec3
	for j := range n {
		s := &segs[pick(at, lo+j)]
		a, e, t := ends(s)
		r := float64(s.Width) * b.scale / 2
		d := e.add(a.neg())
		if j == 0 {
			rs[0] = ring{centre: a, t: t, r: r}
		} else {
			mid := prev.add(t)
			if l := math.Sqrt(dot(mid, mid)); l > 1e-9 {
				mid = mid.scale(1 / l)
			} else {
				mid = t // the branch turns back on itself: no mean heading
			}
			rs[j].t, rs[j].r = mid, (rs[j].r+r)/2
		}
		v += math.Sqrt(dot(d, d)) / (2 * math.Pi * r)
		rs[j+1] = ring{centre: e, t: t, r: r, v: v}
		prev = t
	}
	rs[0].b1, rs[0].b2 = basis(rs[0].t)
	for j := 1; j <= n; j++ {
		b1 := transport(rs[j-1].b1, rs[j-1].t, rs[j].t)
		// Take out what rounding left along the tangent.
		b1 = b1.add(rs[j].t.scale(-dot(b1, rs[j].t)))
		if l := math.Sqrt(dot(b1, b1)); l > 1e-6 {
			rs[j].b1 = b1.scale(1 / l)
			rs[j].b2 = cross(rs[j].t, rs[j].b1)
		} else {
			rs[j].b1, rs[j].b2 = basis(rs[j].t)
		}
	}
	return rs
}

// transport rotates v by the smallest rotation taking unit t0 to unit t1
// (Rodrigues' formula with axis t0 × t1, written without the angle); a
// reversal (t1 = -t0) has no smallest rotation and keeps v.
func transport(v, t0, t1 vec3) vec3 {
	c := dot(t0, t1)
	if c < -1+1e-9 {
		return v
	}
	k := cross(t0, t1)
	return v.scale(c).add(cross(k, v)).add(k.scale(dot(k, v) / (1 + c)))
}

// smoothTube adds chain [lo, hi) of at as one tube.
func (b *meshBuilder) smoothTube(c *mesh.Chunk, at []int32, lo, hi int) {
	rs := b.rings(at, lo, hi)
	k := int32(len(b.ring))
	p0, n0, t0, v0 := int32(len(c.Positions)), int32(len(c.Normals)), int32(len(c.UVs)), int32(len(c.Vertices))
	for _, q := range rs {
		for _, rc := range b.ring {
			dir := q.b1.scale(rc[0]).add(q.b2.scale(rc[1]))
			c.Positions = append(c.Positions, q.centre.add(dir.scale(q.r)).f32())
			if b.o.Normals {
				c.Normals = append(c.Normals, dir.f32())
			}
		}
		for j := range k + 1 {
			c.UVs = append(c.UVs, [2]float32{float32(j) / float32(k), float32(q.v)})
		}
	}
	for ri := range int32(len(rs)) {
		for j := range k + 1 {
			at := ri*k + j%k
			c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + at, N: n0 + at, T: t0 + ri*(k+1) + j})
		}
	}
	// Quads counter-clockwise seen from outside (b1 × b2 is the heading).
	for ri := range int32(len(rs) - 1) {
		a := v0 + ri*(k+1)
		for j := range k {
			c.Face(a+j, a+j+1, a+k+1+j+1, a+k+1+j)
		}
	}
	if !b.o.Caps {
		return
	}
	last := int32(len(rs) - 1)
	if b.o.Normals {
		c.Normals = append(c.Normals, rs[0].t.neg().f32(), rs[last].t.f32())
	}
	capN := int32(len(c.Normals)) - 2
	cap0 := int32(len(c.Vertices))
	for e, ri := range [2]int32{0, last} {
		for j := range k {
			c.Vertices = append(c.Vertices, mesh.Vertex{P: p0 + ri*k + j, N: capN + int32(e), T: t0 + ri*(k+1) + j})
		}
	}
	f := len(c.Faces)
	for j := k - 1; j >= 0; j-- { // the start, facing back: the ring reversed
		c.Faces = append(c.Faces, cap0+j)
	}
	c.FaceSizes = append(c.FaceSizes, int32(len(c.Faces)-f))
	for j := range k {
		c.Faces = append(c.Faces, cap0+k+j)
	}
	c.FaceSizes = append(c.FaceSizes, k)
}
