package pga

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// A concave lot, or one with holes (a courtyard), stands on its own
// polygon: LotAxioms registers it as a profile of the grammar, in the unit
// square of the lot's bounding rectangle as SetAsDynamic*Prism profiles are,
// so Extrude makes a right prism of it and CompSplit gives its faces as
// CGA's comp(f) does (top, bottom, one scope per edge, hole edges
// included). Only a lot that is its bounding rectangle builds on that
// rectangle as before: a convex trapezoid or triangle would overflow it.

// footprint is a lot profile's rings (the outer ring counter-clockwise, the
// holes clockwise, in unit-square coordinates) and its cap triangles,
// indices into the rings' vertices numbered one ring after another.
type footprint struct {
	rings [][][2]float64
	tris  [][3]int
	n     int // vertices in all rings
	// size is the lot's bounding rectangle (metres) when the footprint is
	// a lot's (LotAxioms): what a shape standing on it measures until an
	// operator resizes it, which the CUDA backend's roofs are built for.
	size [2]float64
	lot  string // the lot's name (Lot.Name), for messages
	// vals is what LotAttr reads on the lot, for the host's cuts by a
	// distance over lot attributes (compile_footcut.go).
	vals lotValues
	// mirror: the footprint is another's seen from below (a bottom
	// cap's view, the profile after that footprint's).
	mirror bool
}

// footprintOf is the footprint of profile p, nil for prism profiles and
// the plain rectangle.
func (g *Grammar) footprintOf(p int32) *footprint {
	if p < 0 && g.dyn != nil {
		return g.dyn.get(p)
	}
	if g.footprints == nil {
		return nil
	}
	return g.footprints[p]
}

// needsFootprint reports whether lot l cannot be built on its bounding
// rectangle: it has holes, or its polygon is not that rectangle (a reflex
// corner, or a convex lot such as a trapezoid or a triangle, whose
// rectangle reaches outside it).
func needsFootprint(l Lot) bool {
	if len(l.Holes) > 0 {
		return true
	}
	r := l.Bounds()
	return math.Abs(ringArea(l.Polygon))/2 < r.Size[0]*r.Size[1]*(1-rectTolerance)
}

// rectTolerance is how much of its bounding rectangle a lot may leave
// uncovered and still be built on it: rounding in a rectangle's
// coordinates (a GeoJSON lot projected from degrees), not a real corner.
const rectTolerance = 1e-6

// LotAxioms is the package's LotAxioms for grammar g: lots that are not
// rectangles (concave, holed, or convex but not rectangular) get their
// polygon as the axiom's profile (registered in g,
// so call it before evaluating, from one goroutine).
func (g *Grammar) LotAxioms(kind ShapeKind, lots []Lot, seed uint64, defaultHeight float64) ([]Shape, error) {
	out := LotAxioms(kind, lots, seed, defaultHeight)
	needs := make([]bool, len(lots))
	parallel.For(len(lots), 1024, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			needs[i] = needsFootprint(lots[i])
		}
	})
	for i, l := range lots {
		if !needs[i] {
			g.rectLots = true
			continue
		}
		p, err := g.addFootprint(l)
		if err != nil {
			return nil, fmt.Errorf("pga: %s: %w", l.Name(), err)
		}
		out[i].Profile = p
	}
	return out, nil
}

// addFootprint stores lot l's rings in the unit square of its bounding
// rectangle (the frame LotAxiom gives its axiom) as a profile and its
// mirror image in v (the bottom cap's view), and returns the profile.
func (g *Grammar) addFootprint(l Lot) (int32, error) {
	r := l.Bounds()
	ux, uy := math.Cos(r.Angle), math.Sin(r.Angle)
	rings := make([][][2]float64, 0, 1+len(l.Holes))
	for _, ring := range append([][][2]float64{l.Polygon}, l.Holes...) {
		q := make([][2]float64, len(ring))
		for i, p := range ring {
			x, y := p[0]-r.Centre[0], p[1]-r.Centre[1]
			q[i] = [2]float64{(x*ux + y*uy) / r.Size[0], (-x*uy + y*ux) / r.Size[1]}
		}
		rings = append(rings, q)
	}
	top, err := newFootprint(orientRings(rings))
	if err != nil {
		return 0, err
	}
	mirror := make([][][2]float64, len(top.rings))
	for k, ring := range top.rings {
		m := make([][2]float64, len(ring))
		for i, q := range ring {
			m[len(ring)-1-i] = [2]float64{q[0], -q[1]}
		}
		mirror[k] = m
	}
	bottom, err := newFootprint(mirror)
	if err != nil {
		return 0, err
	}
	top.size, bottom.size = r.Size, r.Size
	top.lot, bottom.lot = l.Name(), l.Name()
	top.vals = lotValues{attrs: l.Attrs, height: l.Height}
	bottom.vals = top.vals
	bottom.mirror = true
	p := int32(len(g.Profiles))
	g.Profiles = append(g.Profiles, top.rings[0], bottom.rings[0])
	if g.footprints == nil {
		g.footprints = map[int32]*footprint{}
	}
	g.footprints[p], g.footprints[p+1] = top, bottom
	return p, nil
}

func newFootprint(rings [][][2]float64) (*footprint, error) {
	tris, err := triangulate(rings)
	if err != nil {
		return nil, err
	}
	fp := &footprint{rings: rings, tris: tris}
	for _, r := range rings {
		fp.n += len(r)
	}
	return fp, nil
}

// solid draws the footprint as a Quad (its cap, facing +Z) or as a right
// prism of half sizes x, y, z: caps at ±y, walls per edge facing away from
// the solid, into the courtyard for hole edges. Profile point (u, v) sits
// at local (u·2x, v·2y) on a Quad and (u·2x, ±y, -v·2z) on a Box.
func (fp *footprint) solid(kind ShapeKind, x, y, z float64) solid {
	var sd solid
	if kind == Quad {
		for _, ring := range fp.rings {
			for _, p := range ring {
				sd.corners = append(sd.corners, Vec3{p[0] * 2 * x, p[1] * 2 * y, 0})
			}
		}
		for _, t := range fp.tris {
			sd.faces = append(sd.faces, []int{t[0], t[1], t[2]})
		}
		return sd
	}
	for _, ring := range fp.rings {
		for _, p := range ring {
			sd.corners = append(sd.corners, Vec3{p[0] * 2 * x, -y, -p[1] * 2 * z}, Vec3{p[0] * 2 * x, y, -p[1] * 2 * z})
		}
	}
	for _, t := range fp.tris {
		sd.faces = append(sd.faces, []int{2*t[0] + 1, 2*t[1] + 1, 2*t[2] + 1})
	}
	for _, t := range fp.tris {
		sd.faces = append(sd.faces, []int{2 * t[2], 2 * t[1], 2 * t[0]})
	}
	base := 0
	for _, ring := range fp.rings {
		n := len(ring)
		for i := 0; i < n; i++ {
			a, b := base+i, base+(i+1)%n
			sd.faces = append(sd.faces, []int{2 * a, 2 * b, 2*b + 1, 2*a + 1})
		}
		base += n
	}
	return sd
}

// counts is the corners and triangles the encoders write for a shape of
// kind on this footprint (every face of it is a triangle or a wall quad).
func (fp *footprint) counts(kind ShapeKind) (corners, triangles int) {
	if kind == Quad {
		return fp.n, len(fp.tris)
	}
	return 2 * fp.n, 2*len(fp.tris) + 2*fp.n
}

// faceCount is the number of faces of its solid.
func (fp *footprint) faceCount(kind ShapeKind) int {
	if kind == Quad {
		return len(fp.tris)
	}
	return 2*len(fp.tris) + fp.n
}

// profileRings is the rings of profile p: the footprint's outer ring and
// holes, or the one ring of a prism profile.
func (g *Grammar) profileRings(p int32) [][][2]float64 {
	if fp := g.footprintOf(p); fp != nil {
		return fp.rings
	}
	return [][][2]float64{g.Profiles[p]}
}
