package pga

import (
	"math"
	"slices"
)

// lotContext holds what the shapes of one axiom leave for later phases:
// colliders (oriented boxes) and snap planes, by group. Context is per
// axiom: a building queries its own earlier shapes, never its neighbours',
// so lots stay independent and run in parallel.
type lotContext struct {
	colliders map[int][]obb
	snaps     map[snapKey][]float64 // world coordinates of planes, sorted by seal
}

// snapKey is a snap-line group along one world axis.
type snapKey struct {
	group int
	axis  int
}

// obb is an oriented box: centre, unit axes and half sizes. A Quad is a
// box of zero thickness; prisms and roofs are taken by their bounding box.
type obb struct {
	c    Vec3
	axes [3]Vec3
	half Vec3
}

func shapeOBB(s *Shape) obb {
	var b obb
	for i := 0; i < 3; i++ {
		b.c[i] = s.Transform[i*4+3]
		for k := 0; k < 3; k++ {
			b.axes[k][i] = s.Transform[i*4+k]
		}
		b.half[i] = math.Abs(s.Size[i]) / 2
	}
	if s.Kind == Quad {
		b.half[2] = 0
	}
	return b
}

func (c *lotContext) addCollider(group int, s *Shape) {
	if c.colliders == nil {
		c.colliders = map[int][]obb{}
	}
	c.colliders[group] = append(c.colliders[group], shapeOBB(s))
}

// worldAxis is the world axis closest to the shape's local axis a, the
// sign of that component and the component itself.
func worldAxis(s *Shape, a Axis) (k int, comp float64) {
	best := -1.0
	for i := 0; i < 3; i++ {
		if v := math.Abs(s.Transform[i*4+int(a)]); v > best {
			best, k = v, i
		}
	}
	return k, s.Transform[k*4+int(a)]
}

// addSnap registers the two planes bounding s along its local axis a, as
// world coordinates along the world axis closest to a.
func (c *lotContext) addSnap(group int, s *Shape, a Axis) {
	if c.snaps == nil {
		c.snaps = map[snapKey][]float64{}
	}
	k, comp := worldAxis(s, a)
	centre := s.Transform[k*4+3]
	d := comp * s.Size[a] / 2
	key := snapKey{group, k}
	c.snaps[key] = append(c.snaps[key], centre-d, centre+d)
}

// merge adds what another evaluator of the same lot registered.
func (c *lotContext) merge(o *lotContext) {
	for g, list := range o.colliders {
		if c.colliders == nil {
			c.colliders = map[int][]obb{}
		}
		c.colliders[g] = append(c.colliders[g], list...)
	}
	for k, v := range o.snaps {
		if c.snaps == nil {
			c.snaps = map[snapKey][]float64{}
		}
		c.snaps[k] = append(c.snaps[k], v...)
	}
}

// seal sorts and de-duplicates the snap planes at the end of a phase.
func (c *lotContext) seal() {
	for k, v := range c.snaps {
		c.snaps[k] = sortPlanes(v)
	}
}

// sortPlanes sorts plane coordinates in place and merges those closer than
// snapEps.
func sortPlanes(v []float64) []float64 {
	slices.Sort(v)
	out := v[:0]
	for _, x := range v {
		if len(out) == 0 || x-out[len(out)-1] > snapEps {
			out = append(out, x)
		}
	}
	return out
}

// snapEps merges planes closer than this and keeps cuts this far from a
// shape's ends; contactEps is the tolerance of the contact queries.
const (
	snapEps    = 1e-6
	contactEps = 1e-6
)

// snapCuts are the local coordinates, ascending, of the planes of group
// that cut s strictly inside its extent along local axis a.
func (c *lotContext) snapCuts(group int, s *Shape, a Axis) []float64 {
	k, comp := worldAxis(s, a)
	planes := c.snaps[snapKey{group, k}]
	if len(planes) == 0 || comp == 0 {
		return nil
	}
	centre, half := s.Transform[k*4+3], s.Size[a]/2
	lo, hi := centre-math.Abs(comp)*half, centre+math.Abs(comp)*half
	i, _ := slices.BinarySearch(planes, lo+snapEps)
	var cuts []float64
	for ; i < len(planes) && planes[i] < hi-snapEps; i++ {
		cuts = append(cuts, (planes[i]-centre)/comp)
	}
	if comp < 0 {
		slices.Reverse(cuts)
	}
	return cuts
}

// nearestSnap is the plane of group nearest to local coordinate t along
// axis a of s, as a local coordinate, and whether there is one.
func (c *lotContext) nearestSnap(group int, s *Shape, a Axis, t float64) (float64, bool) {
	k, comp := worldAxis(s, a)
	planes := c.snaps[snapKey{group, k}]
	if len(planes) == 0 || comp == 0 {
		return 0, false
	}
	centre := s.Transform[k*4+3]
	w := centre + comp*t
	i, _ := slices.BinarySearch(planes, w)
	best, found := 0.0, false
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(planes) {
			if l := (planes[j] - centre) / comp; !found || math.Abs(l-t) < math.Abs(best-t) {
				best, found = l, true
			}
		}
	}
	return best, found
}

// query answers Overlaps, Touches or Inside for s against the colliders of
// group.
func (c *lotContext) query(q QueryKind, group int, s *Shape) bool {
	list := c.colliders[group]
	if len(list) == 0 {
		return false
	}
	a := shapeOBB(s)
	for i := range list {
		switch q {
		case QueryInside:
			if inside(&a, &list[i]) {
				return true
			}
		default:
			overlap, touch := contact(&a, &list[i])
			if (q == QueryOverlaps && overlap) || (q == QueryTouches && touch && !overlap) {
				return true
			}
		}
	}
	return false
}

func dot(a, b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func cross3(a, b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// interval is b projected on the unit axis l.
func (b *obb) interval(l Vec3) (lo, hi float64) {
	c := dot(b.c, l)
	r := 0.0
	for k := 0; k < 3; k++ {
		r += b.half[k] * math.Abs(dot(b.axes[k], l))
	}
	return c - r, c + r
}

// contact tests two oriented boxes on the 15 separating axes. touch: they
// meet (no axis separates them by more than contactEps). overlap: their
// interiors meet, on every axis by more than contactEps; a flat shape
// counts as overlapping a solid when it lies strictly inside the solid's
// extent on its normal axis, and two coplanar flat shapes overlap when
// their areas do.
func contact(a, b *obb) (overlap, touch bool) {
	var axes [15]Vec3
	n := 0
	for k := 0; k < 3; k++ {
		axes[n], axes[n+1] = a.axes[k], b.axes[k]
		n += 2
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			v := cross3(a.axes[i], b.axes[j])
			if l := math.Sqrt(dot(v, v)); l > 1e-9 {
				axes[n] = Vec3{v[0] / l, v[1] / l, v[2] / l}
				n++
			}
		}
	}
	overlap = true
	for _, l := range axes[:n] {
		a0, a1 := a.interval(l)
		b0, b1 := b.interval(l)
		sep := math.Max(a0, b0) - math.Min(a1, b1)
		if sep > contactEps {
			return false, false
		}
		if sep < -contactEps {
			continue
		}
		flatA, flatB := a1-a0 <= contactEps, b1-b0 <= contactEps
		switch {
		case flatA && flatB: // coplanar on this axis
		case flatA && a0 > b0+contactEps && a1 < b1-contactEps:
		case flatB && b0 > a0+contactEps && b1 < a1-contactEps:
		default:
			overlap = false
		}
	}
	return overlap, true
}

// inside reports whether every corner of a lies in b.
func inside(a, b *obb) bool {
	for k := 0; k < 8; k++ {
		p := a.c
		for i := 0; i < 3; i++ {
			s := a.half[i]
			if k>>i&1 == 0 {
				s = -s
			}
			for j := 0; j < 3; j++ {
				p[j] += s * a.axes[i][j]
			}
		}
		d := Vec3{p[0] - b.c[0], p[1] - b.c[1], p[2] - b.c[2]}
		for i := 0; i < 3; i++ {
			if math.Abs(dot(d, b.axes[i])) > b.half[i]+contactEps {
				return false
			}
		}
	}
	return true
}
