package flame

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// jwf9cRefCases are the cases of variations_jwf9c.go for
// TestJWildfireReference, with parameters other than the defaults.
func jwf9cRefCases() [][]jwfTerm {
	glynn := func(radius, thick, contrast, pow, phi1, phi2 float64) []jwfParam {
		return []jwfParam{{PGlynnSim2Radius, "radius", radius}, {PGlynnSim2Thickness, "thickness", thick},
			{PGlynnSim2Contrast, "contrast", contrast}, {PGlynnSim2Pow, "pow", pow}, {PGlynnSim2Phi1, "phi1", phi1},
			{PGlynnSim2Phi2, "phi2", phi2}}
	}
	mink := func(sep, fx, fy, amp, pert, damp float64) []jwfParam {
		return []jwfParam{{PMinkowskopeSeparation, "separation", sep}, {PMinkowskopeFrequencyx, "frequencyx", fx},
			{PMinkowskopeFrequencyy, "frequencyy", fy}, {PMinkowskopeAmplitude, "amplitude", amp},
			{PMinkowskopePerturbation, "perturbation", pert}, {PMinkowskopeDamping, "damping", damp}}
	}
	cpow := func(r, a, div, spread, discrete, spread2, offset2 float64) []jwfParam {
		return []jwfParam{{PCpow3WfR, "r", r}, {PCpow3WfA, "a", a}, {PCpow3WfDivisor, "divisor", div},
			{PCpow3WfSpread, "spread", spread}, {PCpow3WfDiscreteSpread, "discrete_spread", discrete},
			{PCpow3WfSpread2, "spread2", spread2}, {PCpow3WfOffset2, "offset2", offset2}}
	}
	spiro := func(mode, width float64) []jwfParam {
		return []jwfParam{{PSpirograph3DA, "a", 1.2}, {PSpirograph3DB, "b", 0.457}, {PSpirograph3DC, "c", 0.35},
			{PSpirograph3DTmin, "tmin", -3}, {PSpirograph3DTmax, "tmax", 40}, {PSpirograph3DWidth, "width", width},
			{PSpirograph3DMode, "mode", mode}}
	}
	chunk := func(mode, b, f float64) []jwfParam {
		return []jwfParam{{PChunkA, "a", 1}, {PChunkB, "b", b}, {PChunkC, "c", 1}, {PChunkD, "d", 0.2},
			{PChunkE, "e", -0.1}, {PChunkF, "f", f}, {PChunkMode, "mode", mode}}
	}
	cs := [][]jwfTerm{
		{{id: VarGlynnSim2, w: 0.9, params: glynn(0.8, 0.3, 0.9, 2.5, 30, 250)}},
		{{id: VarGlynnSim2, w: 1.2, params: glynn(2.5, 1.4, -0.3, -1, 200, 10)}},
		{{id: VarDSpherical, w: 1.1, params: []jwfParam{{PDSphericalDSpherWeight, "d_spher_weight", 0.8}}}},
		{{id: VarMinkowskope, w: 0.8, params: mink(0.616, -1, 3, 0.5, 1, 0)}},
		{{id: VarMinkowskope, w: 1.1, params: mink(0.424, -4, 3, 1, 1.752, 0.348)}},
		{{id: VarMinkowskope, w: 0.9, params: mink(0.2, 2.5, -1.5, 0.8, 0.4, 0)}},
		{{id: VarCirclesplit, w: 1.2, params: []jwfParam{{PCirclesplitCsRadius, "cs_radius", 0.9}, {PCirclesplitCsSplit, "cs_split", 0.3}}}},
		{{id: VarEJulia, w: 0.8, params: []jwfParam{{PEJuliaPower, "power", -3}}}},
		{{id: VarEJulia, w: 1.1, params: []jwfParam{{PEJuliaPower, "power", 4.6}}}},
		{{id: VarCirclize2, w: 0.9, params: []jwfParam{{PCirclize2Hole, "hole", 0.4}}}},
		{{id: VarCpow3Wf, w: 0.7, params: cpow(0.848, 0.544, 1, 1.298, 1, 0.092, 1.048)}},
		{{id: VarCpow3Wf, w: 1.1, params: cpow(1.364, -0.368, 2.5, 3.3, 0, 0.456, 0.542)}},
		{{id: VarChunk, w: 0.6, params: chunk(0, -1, -0.2)}},
		{{id: VarChunk, w: 1.3, params: chunk(1, -12, 0.3)}},
	}
	for mode := range 5 {
		cs = append(cs, []jwfTerm{{id: VarSpirograph3D, w: 0.9, params: spiro(float64(mode), 0.3)}})
	}
	return cs
}

// By hand: maps whose result is easy to state.
func TestJWF9cByHand(t *testing.T) {
	// Minkowski's question mark: ?(0) = 0, ?(½) = ½, ?(⅓) = ¼, ?(1) = 1 (to 2⁻²⁰).
	for _, c := range [][2]float64{{0, 0}, {0.5, 0.5}, {1.0 / 3, 0.25}, {1, 1}, {0.4, 0.375}} {
		if got := minkowskiQ(c[0]); math.Abs(got-c[1]) > 1e-6 {
			t.Errorf("?(%g) = %g, want %g", c[0], got, c[1])
		}
	}
	cases := []struct {
		name   string
		id     VarID
		w      float64
		params map[ParamID]float64
		in     [3]float64
		want   [3]float64
	}{
		// circlesplit: inside radius − split the point is linear; outside pushed out by split.
		{"circlesplit in", VarCirclesplit, 2, nil, [3]float64{0.3, 0, 0}, [3]float64{0.6, 0, 0}},
		{"circlesplit out", VarCirclesplit, 2, nil, [3]float64{0, -1, 0}, [3]float64{0, -3, 0}},
		// circlize2: a point on the unit square's right edge, y = 0 → angle 0, radius w·(1 + hole).
		{"circlize2", VarCirclize2, 1.5, map[ParamID]float64{PCirclize2Hole: 0.2}, [3]float64{1, 0, 0}, [3]float64{1.8, 0, 0}},
		// circlize2 at the square's top-left corner (−1, 1): perimeter 3 + 1 = 4 → angle 3π/4.
		{"circlize2 corner", VarCirclize2, 1, nil, [3]float64{-1, 1, 0}, [3]float64{-math.Sqrt2 / 2, math.Sqrt2 / 2, 0}},
		// chunk: inside the unit circle (mode 0, r ≤ 0) the point, unweighted; outside nothing.
		{"chunk in", VarChunk, 3, nil, [3]float64{0.5, 0.5, 0}, [3]float64{0.5, 0.5, 0}},
		{"chunk out", VarChunk, 3, nil, [3]float64{1, 1, 0}, [3]float64{0, 0, 0}},
		{"chunk mode 1", VarChunk, 3, map[ParamID]float64{PChunkMode: 1}, [3]float64{1, 1, 0}, [3]float64{1, 1, 0}},
		// eJulia power 1 is the identity away from the cut (y > 0).
		{"eJulia power 1", VarEJulia, 1, map[ParamID]float64{PEJuliaPower: 1}, [3]float64{0.3, 0.7, 0}, [3]float64{0.3, 0.7, 0}},
	}
	for _, c := range cases {
		r := rng.NewStream(rng.Key(9, 6))
		if got := jwf8Map(c.id, c.w, c.params, c.in, [3]float64{}, &r); !near3(got, c.want, 1e-12) {
			t.Errorf("%s: %v -> %v, want %v", c.name, c.in, got, c.want)
		}
	}
	for seed := range uint64(20) {
		r := rng.NewStream(rng.Key(9, 7, seed))
		// d_spherical: spherical where the draw is under the weight.
		u := r
		want := [3]float64{0.5, 1, 0}
		if u.Float64() < 0.5 {
			want = [3]float64{0.4, 0.8, 0}
		}
		q := r
		if got := jwf8Map(VarDSpherical, 1, nil, [3]float64{0.5, 1, 0}, [3]float64{}, &q); !near3(got, want, 1e-12) {
			t.Errorf("d_spherical: %v, want %v", got, want)
		}
		checkDraws(t, "d_spherical", r, q, 1)
		// spirograph3D with width 0 lies on its curve whatever the mode.
		for _, mode := range []float64{0, 1, 2, 3, 4} {
			q = r
			got := jwf8Map(VarSpirograph3D, 1, map[ParamID]float64{PSpirograph3DMode: mode, PSpirograph3DTmax: 1}, [3]float64{}, [3]float64{}, &q)
			checkDraws(t, "spirograph3D", r, q, 13)
			u := r
			tt := u.Float64()
			k := 0.7 / -0.3 * tt
			if want := [3]float64{0.7*math.Cos(tt) - 0.4*math.Cos(k), 0.7*math.Sin(tt) - 0.4*math.Sin(k), 0.4 * math.Sin(k)}; !near3(got, want, 1e-12) {
				t.Errorf("spirograph3D mode %g: %v, want %v", mode, got, want)
			}
		}
		for _, id := range []VarID{VarGlynnSim2, VarEJulia, VarCpow3Wf} {
			for _, in := range [][3]float64{{0.1, 0.2, 0}, {2, -1, 0}} {
				q = r
				jwf8Map(id, 1, nil, in, [3]float64{}, &q)
				checkDraws(t, VarNames[id], r, q, int(varDraws[id]))
			}
		}
	}
}
