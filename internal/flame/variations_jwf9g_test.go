package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9gRefCases are the cases of variations_jwf9g.go for
// TestJWildfireReference (JWildfire's six), with parameters other than
// the defaults; cubic3D also after a linear3D, as it reads the sum.
func jwf9gRefCases() [][]jwfTerm {
	ss := func(toroid, spiral float64) []jwfParam {
		names := []string{"rho", "phi", "m1", "m2", "a1", "a2", "b1", "b2", "n1_1", "n1_2", "n2_1", "n2_2", "n3_1", "n3_2"}
		vals := []float64{5.3, 1.7, 5, 2.5, 1.2, 0.8, 0.9, 1.4, 1.5, 0.7, 2.2, 1.3, 0.6, 1.9}
		var ps []jwfParam
		for k, n := range names {
			ps = append(ps, jwfParam{PSuperShape3dRho + ParamID(k), n, vals[k]})
		}
		return append(ps, jwfParam{PSuperShape3dSpiral, "spiral", spiral}, jwfParam{PSuperShape3dToroidmap, "toroidmap", toroid})
	}
	cubic := func(xpand, style float64) []jwfParam {
		return []jwfParam{{PCubic3DXpand, "xpand", xpand}, {PCubic3DStyle, "style", style}}
	}
	return [][]jwfTerm{
		{{id: VarSuperShape3d, w: 0.8, params: ss(0, 0.3)}},
		{{id: VarSuperShape3d, w: 1.1, params: ss(1, 0)}},
		{{id: VarEMotion, w: 0.9, params: []jwfParam{{PEMotionMove, "move", 0.7}, {PEMotionRotate, "rotate", -1.2}}}},
		{{id: VarEMotion, w: 1.2, params: []jwfParam{{PEMotionMove, "move", -0.4}, {PEMotionRotate, "rotate", 0.5}}}},
		{{id: VarHypertile3D2, w: 0.9, params: []jwfParam{{PHypertile3D2P, "p", 5}, {PHypertile3D2Q, "q", 4}}}},
		{{id: VarCubic3D, w: 0.9, params: cubic(0.6, 0.5)}},
		{{id: VarCubic3D, w: 0.3, params: cubic(2.5, 1.8)}},
		{{id: VarLinear3D, w: 0.7}, {id: VarCubic3D, w: 1.3, params: cubic(-0.4, -1.6)}},
		{{id: VarCollideoscope, w: 1.1, params: []jwfParam{{PCollideoscopeA, "a", 0.35}, {PCollideoscopeNum, "num", 3}}}},
		{{id: VarAsteria, w: 0.9, params: []jwfParam{{PAsteriaAlpha, "alpha", 0.3}}}},
		{{id: VarAsteria, w: 2.1, params: []jwfParam{{PAsteriaAlpha, "alpha", -0.15}}}},
	}
}

// By hand: Fractorium's variations here (no running reference) and maps
// whose result is easy to state.
func TestJWF9gByHand(t *testing.T) {
	cases := []struct {
		name   string
		id     VarID
		w      float64
		params map[ParamID]float64
		in     [3]float64
		sum    [3]float64
		want   [3]float64
	}{
		// a quarter turn about z: (x, y) → (y, −x); the sum's z becomes the point's.
		{"rotate_z", VarRotateZ, 1, nil, [3]float64{1, 0, 0.5}, [3]float64{2, 2, 2}, [3]float64{2, 1, 0.5}},
		// a quarter turn about y: (x, z) → (−z, x); the sum's y becomes the point's.
		{"rotate_y", VarRotateY, 1, nil, [3]float64{1, 2, 3}, [3]float64{1, 1, 1}, [3]float64{-2, 2, 2}},
		{"Spherical3D", VarSpherical3DFr, 1, nil, [3]float64{0, 2, 0}, [3]float64{}, [3]float64{0, 0.5, 0}},
		{"bcircle in", VarBcircle, 2, nil, [3]float64{0.3, 0.4, 0}, [3]float64{}, [3]float64{0.6, 0.8, 0}},
		{"bcircle out", VarBcircle, 2, nil, [3]float64{3, 4, 0}, [3]float64{}, [3]float64{}},
		// rblur within offset of the centre does not blur.
		{"rblur centre", VarRblur, 1.5, nil, [3]float64{0.2, 0.3, 0}, [3]float64{}, [3]float64{0.3, 0.45, 0}},
		// falloff within mindist of (x0, y0, z0) does not blur, in any type.
		{"falloff near", VarFalloffFr, 2, nil, [3]float64{0.2, 0.1, 0.1}, [3]float64{}, [3]float64{0.4, 0.2, 0.2}},
		{"falloff near radial", VarFalloffFr, 2, map[ParamID]float64{PFalloffFrType: 1}, [3]float64{0.2, 0.1, 0}, [3]float64{},
			[3]float64{0.4, 0.2, 0}},
		// eMotion with no move or turn is the identity.
		{"eMotion identity", VarEMotion, 1, nil, [3]float64{0.3, -0.6, 0}, [3]float64{}, [3]float64{0.3, -0.6, 0}},
		// collideoscope with a = 0 and one sector leaves the upper half plane as it is.
		{"collideoscope", VarCollideoscope, 1, map[ParamID]float64{PCollideoscopeA: 0}, [3]float64{0.3, 0.4, 0}, [3]float64{},
			[3]float64{0.3, 0.4, 0}},
	}
	for _, c := range cases {
		r := rng.NewStream(rng.Key(9, 12))
		if got := jwf8Map(c.id, c.w, c.params, c.in, c.sum, &r); !near3(got, c.want, 1e-12) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, c.want)
		}
	}
	for seed := range uint64(30) {
		r := rng.NewStream(rng.Key(9, 13, seed))
		// bcircle's border ring: radius between w and w·(1 + bw/5), along the point's angle.
		q := r
		got := jwf8Map(VarBcircle, 2, map[ParamID]float64{PBcircleBorderwidth: 1}, [3]float64{3, 4, 0}, [3]float64{}, &q)
		if rad := math.Hypot(got[0], got[1]); rad < 2 || rad > 2.4+1e-12 || math.Abs(got[1]/got[0]-4.0/3) > 1e-9 {
			t.Errorf("bcircle border: %v", got)
		}
		checkDraws(t, "bcircle", r, q, 1)
		// sphereblur lies in the ball of radius |w|.
		q = r
		if got := jwf8Map(VarSphereblur, 0.5, map[ParamID]float64{PSphereblurPower: 0.3}, [3]float64{}, [3]float64{}, &q); math.Sqrt(got[0]*got[0]+got[1]*got[1]+got[2]*got[2]) > 0.5+1e-12 {
			t.Errorf("sphereblur: %v outside its ball", got)
		}
		checkDraws(t, "sphereblur", r, q, 3)
		// falloff type 0 far away: the point plus w·(u − ½)·rs on x and y (mul_z 0).
		u := r
		ax, ay := u.Float64()-0.5, u.Float64()-0.5
		rs := (5 - 0.5) * 0.04
		q = r
		if got := jwf8Map(VarFalloffFr, 1, nil, [3]float64{3, 4, 0}, [3]float64{}, &q); !near3(got, [3]float64{3 + ax*rs, 4 + ay*rs, 0}, 1e-12) {
			t.Errorf("falloff: %v", got)
		}
		checkDraws(t, "falloff", r, q, 3)
		for _, id := range []VarID{VarSuperShape3d, VarHypertile3D2, VarCubic3D, VarAsteria, VarRblur} {
			q = r
			jwf8Map(id, 1, nil, [3]float64{0.3, -0.4, 0.2}, [3]float64{}, &q)
			checkDraws(t, VarNames[id], r, q, int(varDraws[id]))
		}
	}
}
