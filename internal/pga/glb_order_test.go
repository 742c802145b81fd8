package pga

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// planGLB orders the device's keys as orderDeviceTerms orders its
// terminals and groups them as Grammar.Mesh groups those: the same parts in
// the same order, each holding the same terminals in the same order, with
// texture coordinates where a textured material or a projection asks.
// Lots of about 70 keys (sorted by slices.SortFunc) in one range, and
// of about 17 (the insertion sort) over four ranges of bucketGrain.
func TestPlanGLBMatchesHostMesh(t *testing.T) {
	for _, c := range []struct{ n, lots int }{{50_000, 700}, {200_000, 12_000}} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) { planMatchesHost(t, c.n, c.lots) })
	}
}

func planMatchesHost(t *testing.T, n, lots int) {
	ts, p, names := deviceTermsFixture(n, lots, 5)
	for i := range ts {
		ts[i].Mat = int32(i % 3) // none, a colour, a texture
		ts[i].UV = 0
		if ts[i].Term == 1 && i%7 == 0 {
			ts[i].UV = 1 // some of one kind projected
		}
	}
	g := &Grammar{TermNames: names, Materials: []MaterialDef{{Name: "c1", Color: [3]float64{1, 0, 0}},
		{Name: "t2", Image: "bricks.png"}}}
	var res Result
	p.orderDeviceTerms(ts, names, false, &res)
	hostKeys, groups := g.byMaterial(res.Terminals)
	keys := make([]gpuGlbKey, len(ts))
	for i, s := range ts {
		keys[i] = gpuGlbKey{Seed: s.Seed, Axiom: s.Axiom, Term: s.Term, Mat: s.Mat, UV: s.UV}
	}
	plan := g.planGLB(keys)
	if len(plan.keys) != len(hostKeys) {
		t.Fatalf("%d parts, host %d", len(plan.keys), len(hostKeys))
	}
	m := g.Mesh(res.Terminals, nil)
	gm := g.glbMesh(plan)
	for j, k := range hostKeys {
		if plan.keys[j] != k {
			t.Fatalf("part %d: %v, host %v", j, plan.keys[j], k)
		}
		if gm.Materials[j] != m.Materials[j] || gm.Parts[j].Name != m.Parts[j].Name || gm.Parts[j].Material != m.Parts[j].Material {
			t.Fatalf("part %d: %+v %+v, host %+v %+v", j, gm.Materials[j], gm.Parts[j], m.Materials[j], m.Parts[j])
		}
		at := groups[k]
		if plan.start[j+1]-plan.start[j] != len(at) {
			t.Fatalf("part %d: %d terminals, host %d", j, plan.start[j+1]-plan.start[j], len(at))
		}
		uv := k.mat == 2
		for q, h := range at {
			d := &ts[plan.perm[plan.start[j]+q]]
			if got := res.Terminals[h]; got.Attr != d.Attr {
				t.Fatalf("part %d terminal %d: device input %g, host %g", j, q, d.Attr, got.Attr)
			}
			uv = uv || d.UV != 0
		}
		if plan.uv[j] != uv {
			t.Errorf("part %d: texture coordinates %v, want %v", j, plan.uv[j], uv)
		}
	}
}

// BenchmarkPlanGLB: the host's share of a device GLB of the 300x300
// city_overview grid (2 M terminals over 90,000 lots).
func BenchmarkPlanGLB(b *testing.B) {
	ts, _, names := deviceTermsFixture(2_000_000, 90_000, 12)
	keys := make([]gpuGlbKey, len(ts))
	for i, s := range ts {
		keys[i] = gpuGlbKey{Seed: s.Seed, Axiom: s.Axiom, Term: s.Term, Mat: int32(i % 2)}
	}
	g := &Grammar{TermNames: names, Materials: []MaterialDef{{Name: "c"}}}
	for b.Loop() {
		g.planGLB(keys)
	}
}

// BenchmarkPlanGLBBigLots: the same for an assets.pga-like city, 3.9 M
// terminals over 10,000 lots (about 390 a lot, past sortLotKeys'
// insertion sort), their seeds in no order.
func BenchmarkPlanGLBBigLots(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := make([]gpuGlbKey, 3_900_000)
	for i := range keys {
		keys[i] = gpuGlbKey{Seed: r.Uint64(), Axiom: int32(r.IntN(10_000)), Term: int32(r.IntN(6)), Mat: int32(i % 2)}
	}
	g := &Grammar{TermNames: []string{"a", "b", "c", "d", "e", "f"}, Materials: []MaterialDef{{Name: "c"}}}
	for b.Loop() {
		g.planGLB(keys)
	}
}
