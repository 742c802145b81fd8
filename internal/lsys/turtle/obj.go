package turtle

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
)

// OBJOptions control EncodeOBJ.
type OBJOptions struct {
	// Sides above 2 write each segment as a tube of that many sides and
	// radius Width/2 (open unless Caps; zero-length segments are left
	// out); otherwise segments are OBJ lines, chained into polylines where
	// one segment starts exactly where the one before it ended.
	Sides int
	// Caps closes both ends of each tube with a polygon.
	Caps bool
	// WidthScale multiplies the segments' widths (Geometry.WorldWidthScale
	// gives the scale of WidthsRelative); 0 means 1.
	WidthScale float64
	// Normals writes vertex normals for tubes and one normal per polygon.
	Normals bool
	// Digits is the number of significant digits per coordinate; 0 means
	// the fewest that read back as the same float32.
	Digits int
	// MTLLib, when not empty, is written as the material library, and each
	// element gets the material MaterialName(colour index).
	MTLLib string
	// Workers format blocks of elements in parallel; 0 means GOMAXPROCS.
	// The output does not depend on it.
	Workers int
}

// MaterialName is the OBJ material of a colour index.
func MaterialName(color uint16) string { return "color" + strconv.Itoa(int(color)) }

// Colors returns the colour indices g uses, in increasing order.
func (g *Geometry) Colors() []uint16 {
	var used [maxColor + 1]bool
	for _, s := range g.Segments {
		used[s.Color] = true
	}
	for _, p := range g.Polygons {
		used[p.Color] = true
	}
	var out []uint16
	for c, u := range used {
		if u {
			out = append(out, uint16(c))
		}
	}
	return out
}

const (
	objBlock    = 8192 // segments formatted per task
	tubeCheck   = 512  // tubes formatted between looks at the context
	maxPolyline = 256  // vertices per OBJ 'l' element
)

// EncodeOBJ writes g to w as Wavefront OBJ: segments (group "segments"),
// then polygons (group "polygons"). Blocks of segments are formatted in
// parallel and written in order, a bounded number at a time, so memory stays
// small for any size of geometry.
func EncodeOBJ(ctx context.Context, w io.Writer, g *Geometry, o OBJOptions) error {
	if o.Sides > 1<<16 || o.Digits < 0 || o.Digits > 17 {
		return fmt.Errorf("turtle: obj: sides %d or digits %d out of range", o.Sides, o.Digits)
	}
	if err := checkName(o.MTLLib); err != nil {
		return err
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := &objEncoder{g: g, o: o, tubes: o.Sides > 2}
	if e.tubes {
		e.ring = make([][2]float64, o.Sides)
		for j := range e.ring {
			s, c := math.Sincos(2 * math.Pi * float64(j) / float64(o.Sides))
			e.ring[j] = [2]float64{c, s}
		}
	}
	var head []byte
	head = fmt.Appendf(head, "# procgen turtle: %d segments, %d polygons\n", len(g.Segments), len(g.Polygons))
	if o.MTLLib != "" {
		head = fmt.Appendf(head, "mtllib %s\n", o.MTLLib)
	}
	if len(g.Segments) > 0 {
		head = append(head, "g segments\n"...)
	}
	if _, err := w.Write(head); err != nil {
		return err
	}

	// Vertex and normal numbers where each block starts.
	nb := (len(g.Segments) + objBlock - 1) / objBlock
	base := make([][2]int, nb+1)
	base[0] = [2]int{1, 1}
	err := forEach(ctx, workers, nb, func(b int) { base[b+1] = e.count(b) })
	if err != nil {
		return err
	}
	for b := range nb {
		base[b+1][0] += base[b][0]
		base[b+1][1] += base[b][1]
	}
	bufs := make([][]byte, max(2*workers, 1))
	for first := 0; first < nb; first += len(bufs) {
		n := min(len(bufs), nb-first)
		err := forEach(ctx, workers, n, func(k int) {
			b := first + k
			if bufs[k] == nil { // a rough size, to spare most regrowing
				per := 48
				if e.tubes {
					per = 160 * e.o.Sides
				}
				bufs[k] = make([]byte, 0, objBlock*per)
			}
			bufs[k] = e.block(ctx, bufs[k][:0], b, base[b][0], base[b][1])
		})
		if err != nil {
			return err
		}
		for k := range n {
			if _, err := w.Write(bufs[k]); err != nil {
				return err
			}
		}
	}
	return e.writePolygons(ctx, w, base[nb][0], base[nb][1])
}

// writePolygons writes the polygons, objBlock at a time with a look at the
// context before each: a million leaves are seconds of formatting.
func (e *objEncoder) writePolygons(ctx context.Context, w io.Writer, v, n int) error {
	polys := e.g.Polygons
	if len(polys) == 0 {
		return nil
	}
	buf := []byte("g polygons\n")
	color := -1
	for lo := 0; lo < len(polys); lo += objBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf, v, n = e.polygons(buf, polys[lo:min(lo+objBlock, len(polys))], v, n, &color)
		if _, err := w.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}
	return nil
}

func checkName(s string) error {
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return fmt.Errorf("turtle: obj: material library %q contains white space", s)
		}
	}
	return nil
}

type objEncoder struct {
	g     *Geometry
	o     OBJOptions
	tubes bool
	ring  [][2]float64 // cos and sin around a tube
}

// chained reports whether segment i continues the polyline of i-1: within
// a block, so that blocks are independent, and of the same material.
func (e *objEncoder) chained(i, lo, run int) bool {
	s := e.g.Segments
	return i > lo && s[i].A == s[i-1].B && run < maxPolyline &&
		(e.o.MTLLib == "" || s[i].Color == s[i-1].Color)
}

// count is the number of vertices and normals block b writes.
func (e *objEncoder) count(b int) [2]int {
	lo, hi := b*objBlock, min((b+1)*objBlock, len(e.g.Segments))
	nv, nn := 0, 0
	if e.tubes {
		sides := e.o.Sides
		for i := lo; i < hi; i++ {
			if s := &e.g.Segments[i]; s.A != s.B {
				nv += 2 * sides
				if e.o.Normals {
					nn += sides
					if e.o.Caps {
						nn += 2
					}
				}
			}
		}
		return [2]int{nv, nn}
	}
	run := 0
	for i := lo; i < hi; i++ {
		if e.chained(i, lo, run) {
			nv++
			run++
		} else {
			nv += 2
			run = 2
		}
	}
	return [2]int{nv, 0}
}

// block formats block b, whose first vertex and normal are numbered v and n.
// Tubes are many lines each: it stops, the block unfinished, once ctx is
// done (forEach then fails with ctx's error).
func (e *objEncoder) block(ctx context.Context, buf []byte, b, v, n int) []byte {
	segs := e.g.Segments
	lo, hi := b*objBlock, min((b+1)*objBlock, len(segs))
	color := -1 // each block names its first material, to stay independent
	if e.tubes {
		for i := lo; i < hi; i++ {
			if (i-lo)%tubeCheck == 0 && ctx.Err() != nil {
				return buf
			}
			s := &segs[i]
			if s.A == s.B {
				continue
			}
			if e.o.MTLLib != "" && int(s.Color) != color {
				color = int(s.Color)
				buf = e.usemtl(buf, s.Color)
			}
			buf = e.tube(buf, s, v, n)
			v += 2 * e.o.Sides
			if e.o.Normals {
				n += e.o.Sides
				if e.o.Caps {
					n += 2
				}
			}
		}
		return buf
	}
	// Lines: a polyline's vertices, then its 'l' element.
	var line []byte
	run := 0
	flush := func() {
		if len(line) > 0 {
			buf = append(append(buf, line...), '\n')
			line = line[:0]
		}
	}
	for i := lo; i < hi; i++ {
		s := &segs[i]
		if e.chained(i, lo, run) {
			buf = e.vertex(buf, s.B)
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(v), 10)
			v++
			run++
			continue
		}
		flush()
		if e.o.MTLLib != "" && int(s.Color) != color {
			color = int(s.Color)
			buf = e.usemtl(buf, s.Color)
		}
		buf = e.vertex(e.vertex(buf, s.A), s.B)
		line = append(line, 'l', ' ')
		line = strconv.AppendInt(line, int64(v), 10)
		line = append(line, ' ')
		line = strconv.AppendInt(line, int64(v+1), 10)
		v += 2
		run = 2
	}
	flush()
	return buf
}

func (e *objEncoder) usemtl(buf []byte, c uint16) []byte {
	return append(append(buf, "usemtl "...), MaterialName(c)+"\n"...)
}

func (e *objEncoder) float(buf []byte, x float32) []byte {
	if x == 0 {
		x = 0 // no "-0"
	}
	prec := -1
	if e.o.Digits > 0 {
		prec = e.o.Digits
	}
	return strconv.AppendFloat(buf, float64(x), 'g', prec, 32)
}

func (e *objEncoder) triple(buf []byte, key string, p [3]float32) []byte {
	buf = append(buf, key...)
	for k := range 3 {
		buf = e.float(append(buf, ' '), p[k])
	}
	return append(buf, '\n')
}

func (e *objEncoder) vertex(buf []byte, p [3]float32) []byte { return e.triple(buf, "v", p) }

// tube writes one segment's rings, normals and faces. The ring's frame comes
// from the segment's axis alone (Duff et al. 2017), so tubes of a branch may
// twist against each other; the turtle frame is not kept per segment.
func (e *objEncoder) tube(buf []byte, s *Segment, v, n int) []byte {
	a := vec3{float64(s.A[0]), float64(s.A[1]), float64(s.A[2])}
	b := vec3{float64(s.B[0]), float64(s.B[1]), float64(s.B[2])}
	d := b.add(a.neg())
	t := d.scale(1 / math.Sqrt(dot(d, d)))
	sign := math.Copysign(1, t.z)
	ka := -1 / (sign + t.z)
	kb := t.x * t.y * ka
	b1 := vec3{1 + sign*t.x*t.x*ka, sign * kb, -sign * t.x}
	b2 := vec3{kb, sign + t.y*t.y*ka, -t.y} // b1 × b2 = t
	r := float64(s.Width) / 2
	if e.o.WidthScale != 0 {
		r *= e.o.WidthScale
	}
	sides := e.o.Sides
	for _, c := range [2]vec3{a, b} {
		for j := range sides {
			dir := b1.scale(e.ring[j][0]).add(b2.scale(e.ring[j][1]))
			buf = e.vertex(buf, c.add(dir.scale(r)).f32())
		}
	}
	if e.o.Normals {
		for j := range sides {
			buf = e.triple(buf, "vn", b1.scale(e.ring[j][0]).add(b2.scale(e.ring[j][1])).f32())
		}
		if e.o.Caps {
			buf = e.triple(buf, "vn", t.neg().f32())
			buf = e.triple(buf, "vn", t.f32())
		}
	}
	// Quads counter-clockwise seen from outside: A_j, A_j+1, B_j+1, B_j.
	for j := range sides {
		k := (j + 1) % sides
		buf = append(buf, 'f')
		buf = e.ref(buf, v+j, n+j)
		buf = e.ref(buf, v+k, n+k)
		buf = e.ref(buf, v+sides+k, n+k)
		buf = e.ref(buf, v+sides+j, n+j)
		buf = append(buf, '\n')
	}
	if e.o.Caps {
		buf = append(buf, 'f') // at A, facing -t: the ring reversed
		for j := sides - 1; j >= 0; j-- {
			buf = e.ref(buf, v+j, n+sides)
		}
		buf = append(buf, "\nf"...)
		for j := range sides {
			buf = e.ref(buf, v+sides+j, n+sides+1)
		}
		buf = append(buf, '\n')
	}
	return buf
}

// ref writes " v" or, with normals, " v//n".
func (e *objEncoder) ref(buf []byte, v, n int) []byte {
	buf = strconv.AppendInt(append(buf, ' '), int64(v), 10)
	if e.o.Normals {
		buf = strconv.AppendInt(append(buf, '/', '/'), int64(n), 10)
	}
	return buf
}

// polygons formats polys; v and n number their first vertex and normal, and
// color is the material in use (-1 none). It returns the numbers after them.
func (e *objEncoder) polygons(buf []byte, polys []Polygon, v, n int, color *int) ([]byte, int, int) {
	g := e.g
	for _, p := range polys {
		vs := g.PolyVerts[p.First : p.First+p.Count]
		if e.o.MTLLib != "" && int(p.Color) != *color {
			*color = int(p.Color)
			buf = e.usemtl(buf, p.Color)
		}
		for _, q := range vs {
			buf = e.vertex(buf, q)
		}
		if e.o.Normals {
			buf = e.triple(buf, "vn", newell(vs).f32())
		}
		buf = append(buf, 'f')
		for j := range vs {
			buf = e.ref(buf, v+j, n)
		}
		buf = append(buf, '\n')
		v += len(vs)
		n++
	}
	return buf, v, n
}

// newell is a polygon's unit normal by Newell's method, which also serves
// polygons that are not quite planar; +Z for degenerate ones.
func newell(vs [][3]float32) vec3 {
	var nv vec3
	for i, p := range vs {
		q := vs[(i+1)%len(vs)]
		nv.x += float64(p[1]-q[1]) * float64(p[2]+q[2])
		nv.y += float64(p[2]-q[2]) * float64(p[0]+q[0])
		nv.z += float64(p[0]-q[0]) * float64(p[1]+q[1])
	}
	l := math.Sqrt(dot(nv, nv))
	if l == 0 || math.IsNaN(l) {
		return vec3{0, 0, 1}
	}
	return nv.scale(1 / l)
}
