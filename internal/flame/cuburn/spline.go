package cuburn

import (
	"math"
	"sort"
)

// cbSpline is one of cuburn's animated parameters, normalized as cuburn's
// SplineEval.normalize leaves it: knots (time, value) sorted by time, with
// stabilizing knots at t = -2 and t = 3 that make the Catmull-Rom tangents
// at t = 0 and t = 1 equal the nodes' velocities. mag selects cuburn's
// "magnitude" interpolation (scale parameters move in a log-like domain).
type cbSpline struct {
	times, knots []float64
	mag          bool
}

// cbMaxKnots is cuburn's limit on the knots of one spline (2^5, the
// stabilizing knots included), set by its device-side binary search.
const cbMaxKnots = 32

// cbKnot is a (time, value) pair.
type cbKnot struct{ t, v float64 }

// newCBSpline is SplineEval.normalize for an animation value: the position
// and velocity at t=0 (p0, v0) and t=1 (p1, v1), velocities per unit of
// abstract time (scaled here by the edge's duration), and edge knots
// strictly inside (0, 1).
func newCBSpline(p0, v0, p1, v1 float64, inner []cbKnot, duration float64, mag bool) *cbSpline {
	v0 *= duration
	v1 *= duration
	ks := append([]cbKnot{{0, p0}, {1, p1}}, inner...)
	// Python sorts the (time, value) tuples.
	sort.SliceStable(ks, func(i, j int) bool {
		if ks[i].t != ks[j].t {
			return ks[i].t < ks[j].t
		}
		return ks[i].v < ks[j].v
	})
	const td = 2
	if ks[0].t >= 0 {
		k := ks[1]
		ks = append([]cbKnot{{-td, k.v - (k.t+td)*v0}}, ks...)
	}
	if ks[len(ks)-1].t <= 1 {
		k := ks[len(ks)-2]
		ks = append(ks, cbKnot{1 + td, k.v + (1+td-k.t)*v1})
	}
	s := &cbSpline{mag: mag, times: make([]float64, len(ks)), knots: make([]float64, len(ks))}
	for i, k := range ks {
		s.times[i], s.knots[i] = k.t, k.v
	}
	return s
}

// constCBSpline is a value that does not move.
func constCBSpline(v float64, mag bool) *cbSpline {
	return newCBSpline(v, 0, v, 0, nil, 1, mag)
}

// cuburn's magnitude domain: linear within ±elbow, log2 beyond.
const (
	cbElbow = 0.0625 // 2^-4
	cbElog1 = 5.0    // 1 - log2(elbow)
)

func cbLinLog(x float64) float64 {
	switch {
	case x > cbElbow:
		return math.Log2(x) + cbElog1
	case x < -cbElbow:
		return -(math.Log2(-x) + cbElog1)
	}
	return x / cbElbow
}

func cbLinExp(v float64) float64 {
	switch {
	case v >= 1:
		return math.Exp2(v - cbElog1)
	case v <= -1:
		return -math.Exp2(-v - cbElog1)
	}
	return v * cbElbow
}

// cbLinSlope carries a slope into the magnitude domain as cuburn does
// (without the 1/ln 2 of the true derivative).
func cbLinSlope(x, m float64) float64 {
	switch {
	case x >= cbElbow:
		return m / x
	case x <= -cbElbow:
		return m / -x
	}
	return m / cbElbow
}

// at evaluates the spline at time t as cuburn's catmull_rom_base does: the
// segment is the last knot strictly before t (at least the second knot),
// the tangents are Catmull-Rom's over the neighbouring knots on a
// non-uniform grid, and the cubic is Hermite's.
func (s *cbSpline) at(t float64) float64 {
	n := len(s.times)
	idx := sort.Search(n, func(i int) bool { return !(s.times[i] < t) }) - 1
	idx = min(max(idx, 1), n-3)
	t1 := s.times[idx]
	rt2 := 1 / (s.times[idx+1] - t1)
	t0 := (s.times[idx-1] - t1) * rt2
	t3 := (s.times[idx+2] - t1) * rt2
	t = (t - t1) * rt2
	k0, k1, k2, k3 := s.knots[idx-1], s.knots[idx], s.knots[idx+1], s.knots[idx+2]
	m1 := (k2 - k0) / (1 - t0)
	m2 := (k3 - k1) / t3
	if s.mag {
		m1 = cbLinSlope(k1, m1)
		m2 = cbLinSlope(k2, m2)
		k1 = cbLinLog(k1)
		k2 = cbLinLog(k2)
	}
	tt := t * t
	ttt := tt * t
	r := m1*(ttt-2*tt+t) + k1*(2*ttt-3*tt+1) + m2*(ttt-tt) + k2*(-2*ttt+3*tt)
	if s.mag {
		r = cbLinExp(r)
	}
	return r
}

// finite reports whether v is a number a spline knot can hold (not NaN or
// ±Inf); flame has the same one-liner, unexported.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
