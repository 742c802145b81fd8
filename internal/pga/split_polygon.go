package pga

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/procgen-dev/procgen/internal/rng"
)

// SubDiv and Repeat on a shape standing on its own polygon (a concave or
// holed lot, or a piece Offset made of one) cut the polygon, not its
// bounding rectangle: the piece a slab gets is the polygon ∩ the slab, with
// the holes it keeps, framed by its own bounding rectangle as Offset's
// pieces are (polygonPiece). Where that intersection falls apart (an L cut
// across both arms, a courtyard cut through its hole) every part is a shape
// of its own, as CGA's split makes them; a slab the polygon misses, or one
// of no extent, makes no shape (a rectangle's slab of no extent is still a
// shape, as in OperatorGraph). All parts of slab k keep ShapeIndex() k and
// ShapeSiblings() the number of slabs, as CGA's split.index and split.total
// do; the part with the lowest bounding box along the other ground axis
// (then along the cut axis) has the seed a rectangle's slab k gets, part
// j > 0 a seed keyed by j apart from every child's. Cuts along the height of
// a prism, or across a Quad's plane, leave the polygon whole, as before.

// partStream keys the seeds of a slab's second and later parts apart from
// the seeds child gives.
const partStream = 0x5AB_9A27

// slabFootprint is the footprint cuts along axis clip on s, nil when they
// cut a rectangle (or a roof, or the height of a prism) as before.
func (ev *evaluator) slabFootprint(s *Shape, axis Axis) *footprint {
	if s.Profile == 0 || s.Roof != NoRoof || (s.Kind != Quad && s.Kind != Box) {
		return nil
	}
	if v, _ := groundAxes(s); axis != AxisX && axis != v {
		return nil
	}
	return ev.g.footprintOf(s.Profile)
}

// polygonSlab runs chain c, from its op number from, on every part of fp
// (s's footprint) in slab t of s along axis (its centre and size): slab k
// of n.
func (ev *evaluator) polygonSlab(r *Rule, op *Op, c *Chain, from int, s Shape, fp *footprint, axis Axis, t tile, k, n, depth int) error {
	vAxis, vSign := groundAxes(&s)
	fail := func(err error) error {
		return &LotOpError{Lot: int(s.Lot), Err: fmt.Errorf("rule %q at %s: %s on the lot's polygon: %w", r.Name, op.Pos, op.Kind, err)}
	}
	parts, err := footprintSlab(fp, s.Size[AxisX], s.Size[vAxis], axis == AxisX, vSign, t)
	if err != nil {
		return fail(err)
	}
	for j, p := range parts {
		ch, ok, err := ev.polygonPiece(s, p, vAxis, vSign, k, n)
		if err != nil {
			return fail(err)
		}
		if !ok {
			continue
		}
		if j > 0 {
			ch.Seed = rng.Key(ch.Seed, partStream, uint64(j))
		}
		if err := ev.sub(r, c, from, ch, depth); err != nil {
			return err
		}
	}
	return nil
}

// footprintSlab is footprint fp, sized sx by sy, ∩ slab t of a cut along
// its X (alongX) or its other ground axis, which runs along the
// footprint's v times vSign: its parts, as slabParts orders them.
func footprintSlab(fp *footprint, sx, sy float64, alongX bool, vSign float64, t tile) ([][][][2]float64, error) {
	rings := scaledRings(fp, sx, sy)
	a := 0
	lo, hi := t.centre-t.size/2, t.centre+t.size/2
	if !alongX {
		a = 1
		lo, hi = vSign*lo, vSign*hi
		lo, hi = math.Min(lo, hi), math.Max(lo, hi)
	}
	return slabParts(rings, a, lo, hi, slabTolerance*math.Max(sx, sy))
}

// slabTolerance, times the footprint's larger side, is how near a vertex
// may lie to a cut and count as on it: a vertex meant to lie on a cut is off
// by rounding (a lot 30 m wide cut 10 m in), and would leave a sliver.
const slabTolerance = 1e-9

// slabParts is polygon rings (outer counter-clockwise, holes clockwise)
// ∩ the slab lo ≤ p[a] ≤ hi: its parts, each an outer ring and its holes,
// ordered by their bounding boxes' low end along the other coordinate, then
// along a.
func slabParts(rings [][][2]float64, a int, lo, hi, eps float64) ([][][][2]float64, error) {
	if !(hi-lo > eps) {
		return nil, nil
	}
	var parts [][][][2]float64
	low, err := clipHalf(rings, a, 1, lo, eps)
	if err != nil {
		return nil, err
	}
	for _, p := range low {
		high, err := clipHalf(p, a, -1, hi, eps)
		if err != nil {
			return nil, err
		}
		parts = append(parts, high...)
	}
	b := 1 - a
	key := func(p [][][2]float64) [2]float64 {
		m := [2]float64{math.Inf(1), math.Inf(1)}
		for _, q := range p[0] {
			m[0], m[1] = math.Min(m[0], q[b]), math.Min(m[1], q[a])
		}
		return m
	}
	slices.SortStableFunc(parts, func(x, y [][][2]float64) int {
		kx, ky := key(x), key(y)
		if c := cmp.Compare(kx[0], ky[0]); c != 0 {
			return c
		}
		return cmp.Compare(kx[1], ky[1])
	})
	return parts, nil
}

// span is a ring's run inside the half-plane: from the point where it enters
// (across the line) to the point where it leaves.
type span struct{ pts [][2]float64 }

// crossing is where a run meets the line: at tau along the line (in the
// direction that keeps the half-plane on the left), slope the run's edge's
// change of tau per unit of depth into the half-plane.
type crossing struct {
	tau, slope float64
	run        int
	exit       bool
}

var errClip = errors.New("cutting the polygon: its crossings with a cut do not alternate (a degenerate ring)")

// clipHalf is polygon rings ∩ the half-plane sign·(p[a]-c) > 0, in parts.
// A vertex within eps of the line counts as outside, so the parts hold no
// slivers along the cut; their points on the line lie on it exactly. As if
// the line were moved by an infinitesimal into the half-plane, the runs'
// crossings are ordered along it by position, then by their edges' slopes,
// which pairs them right where a vertex touches the line: each exit is
// joined along the line to the next entry.
func clipHalf(rings [][][2]float64, a int, sign, c, eps float64) ([][][][2]float64, error) {
	b := 1 - a
	tauSign := sign // the line's direction keeping the inside on the left
	if a == 0 {
		tauSign = -sign
	}
	depth := func(p [2]float64) float64 {
		if d := sign * (p[a] - c); math.Abs(d) > eps {
			return d
		}
		return 0
	}
	var runs []span
	var xs []crossing
	var whole [][][2]float64 // rings wholly inside
	var wholeHoles [][][2]float64
	for ri, ring := range rings {
		n := len(ring)
		ds := make([]float64, n)
		start, in := -1, 0
		for i, p := range ring {
			if ds[i] = depth(p); ds[i] > 0 {
				in++
			}
		}
		for i := range ring {
			if ds[i] <= 0 && ds[(i+1)%n] > 0 {
				start = i
				break
			}
		}
		switch {
		case in == 0:
			continue
		case in == n && ri == 0:
			whole = append(whole, ring)
			continue
		case in == n:
			wholeHoles = append(wholeHoles, ring)
			continue
		}
		for k := 0; k < n; k++ {
			i, j := (start+k)%n, (start+k+1)%n
			p, q, dp, dq := ring[i], ring[j], ds[i], ds[j]
			if (dp > 0) == (dq > 0) {
				if dp > 0 {
					runs[len(runs)-1].pts = append(runs[len(runs)-1].pts, q)
				}
				continue
			}
			// A vertex on the line is the crossing itself, exactly, so the
			// two edges meeting there cross at one point and are ordered by
			// their slopes.
			x := p
			switch {
			case dq == 0:
				x = q
			case dp != 0:
				t := dp / (dp - dq)
				x = [2]float64{p[0] + t*(q[0]-p[0]), p[1] + t*(q[1]-p[1])}
			}
			x[a] = c
			cr := crossing{tau: tauSign * x[b], slope: tauSign * (q[b] - p[b]) / (dq - dp), exit: dp > 0}
			if cr.exit {
				cr.run = len(runs) - 1
				runs[cr.run].pts = append(runs[cr.run].pts, x)
			} else {
				cr.run = len(runs)
				runs = append(runs, span{pts: [][2]float64{x, q}})
			}
			xs = append(xs, cr)
		}
	}
	slices.SortFunc(xs, func(x, y crossing) int {
		if c := cmp.Compare(x.tau, y.tau); c != 0 {
			return c
		}
		return cmp.Compare(x.slope, y.slope)
	})
	next := make([]int, len(runs))
	for i := 0; i+1 < len(xs); i += 2 {
		if !xs[i].exit || xs[i+1].exit {
			return nil, errClip
		}
		next[xs[i].run] = xs[i+1].run
	}
	outers := whole
	used := make([]bool, len(runs))
	for i := range runs {
		if used[i] {
			continue
		}
		var ring [][2]float64
		j := i
		for ; !used[j]; j = next[j] {
			used[j] = true
			ring = append(ring, runs[j].pts...)
		}
		if j != i {
			return nil, errClip
		}
		if ring = tidyRing(ring); len(ring) >= 3 && ringArea(ring) > 0 {
			outers = append(outers, ring)
		}
	}
	parts := make([][][][2]float64, len(outers))
	for k, o := range outers {
		parts[k] = [][][2]float64{o}
	}
	for _, h := range wholeHoles {
		for k, o := range outers {
			if insideRing(o, h[0]) {
				parts[k] = append(parts[k], h)
				break
			}
		}
	}
	return parts, nil
}

// tidyRing drops repeated points and corners where the ring runs straight
// on (or turns straight back): where runs meet along the cut, a vertex of
// the lot lay on it, or the lot's ring had collinear points.
func tidyRing(ring [][2]float64) [][2]float64 {
	out := make([][2]float64, 0, len(ring))
	for _, p := range ring {
		out = append(out, p)
		for len(out) >= 2 && out[len(out)-1] == out[len(out)-2] {
			out = out[:len(out)-1]
		}
		for len(out) >= 3 && cross(out[len(out)-3], out[len(out)-2], out[len(out)-1]) == 0 {
			out = append(out[:len(out)-2], out[len(out)-1])
		}
	}
	// The seam where the ring closes.
	for changed := true; changed && len(out) >= 3; {
		changed = false
		n := len(out)
		if out[n-1] == out[0] {
			out, changed = out[:n-1], true
			continue
		}
		if cross(out[n-2], out[n-1], out[0]) == 0 {
			out, changed = out[:n-1], true
			continue
		}
		if cross(out[n-1], out[0], out[1]) == 0 {
			out, changed = out[1:], true
		}
	}
	return out
}
