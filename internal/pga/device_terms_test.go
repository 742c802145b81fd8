package pga

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// deviceTermsFixture is n device terminals over nlots lots (every fifth lot
// empty), with seeds drawn from few values so that lots hold ties, and a
// program and names for nterms terminal kinds.
func deviceTermsFixture(n, nlots, nterms int) ([]gpuTerm, *program, []string) {
	r := rand.New(rand.NewPCG(1, 2))
	ts := make([]gpuTerm, n)
	for i := range ts {
		lot := r.IntN(nlots)
		if lot%5 == 4 {
			lot--
		}
		ts[i] = gpuTerm{Seed: uint64(r.IntN(8)), Term: int32(r.IntN(nterms)), Axiom: int32(lot), Rule: int32(r.IntN(3)),
			Attr: float64(i), UV: int32(r.IntN(2)), Size: [3]float64{1, 2, 3}}
		ts[i].Proj[0] = float32(i)
	}
	p := &program{rulePhase: []int32{0, 1, 2}}
	names := make([]string, nterms)
	for k := range names {
		p.terms = append(p.terms, Terminal{Geometry: k % 3, Material: k % 2})
		names[k] = string(rune('a' + k))
	}
	return ts, p, names
}

// TestOrderDeviceTerms: the parallel bucketing gives the order one serial
// pass gives (ties within a lot in the device's order), every terminal once, its projection at its own index,
// and the counts by name; on one core and on several, over many ranges.
func TestOrderDeviceTerms(t *testing.T) {
	ts, p, names := deviceTermsFixture(300_000, 5000, 7)
	// The serial order: bucket in index order, then the same sort per lot.
	byLot := map[int32][]devTermKey{}
	for i := range ts {
		a := ts[i].Axiom
		byLot[a] = append(byLot[a], devTermKey{a, ts[i].Term, ts[i].Seed, int32(i)})
	}
	var want []int32
	for l := int32(0); l < 5000; l++ {
		ks := byLot[l]
		slices.SortFunc(ks, func(a, b devTermKey) int {
			return cmp.Or(cmp.Compare(a.seed, b.seed), cmp.Compare(a.term, b.term), cmp.Compare(a.at, b.at))
		})
		for _, k := range ks {
			want = append(want, k.at)
		}
	}
	wantNames := map[string]int{}
	for i := range ts {
		wantNames[names[ts[i].Term]]++
	}
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		var res Result
		p.orderDeviceTerms(ts, names, true, &res)
		runtime.GOMAXPROCS(old)
		if len(res.Terminals) != len(ts) {
			t.Fatalf("%d procs: %d terminals, want %d", procs, len(res.Terminals), len(ts))
		}
		for j, at := range want {
			got := res.Terminals[j]
			src := &ts[at]
			if got.Attr != src.Attr || got.Lot != src.Axiom || got.Seed != src.Seed || got.Term != src.Term {
				t.Fatalf("%d procs: terminal %d is input %g (lot %d), want input %d (lot %d)", procs, j, got.Attr, got.Lot, at, src.Axiom)
			}
			if geo, mat := p.termInfo(src.Term); got.Geometry != geo || got.Material != mat || got.Phase != src.Rule {
				t.Fatalf("%d procs: terminal %d: geometry %d material %d phase %d", procs, j, got.Geometry, got.Material, got.Phase)
			}
			if src.UV != 0 && (got.proj != int32(j+1) || res.Projections[j][0] != float32(at)) {
				t.Fatalf("%d procs: terminal %d: projection %d holds %g, want its own of input %d", procs, j, got.proj, res.Projections[j][0], at)
			}
		}
		for n, c := range wantNames {
			if res.Stats.ByName[n] != c {
				t.Errorf("%d procs: %s counted %d, want %d", procs, n, res.Stats.ByName[n], c)
			}
		}
	}
}

func TestOrderDeviceTermsEmpty(t *testing.T) {
	_, p, names := deviceTermsFixture(0, 1, 3)
	var res Result
	p.orderDeviceTerms(nil, names, false, &res)
	if len(res.Terminals) != 0 || len(res.Stats.ByName) != 0 {
		t.Errorf("no terminals gave %d terminals, counts %v", len(res.Terminals), res.Stats.ByName)
	}
}

// BenchmarkOrderDeviceTerms: the host's share of a CUDA evaluation of the
// 300x300 city_overview grid after the download, at its size (2 M
// terminals over 90,000 lots).
func BenchmarkOrderDeviceTerms(b *testing.B) {
	ts, p, names := deviceTermsFixture(2_000_000, 90_000, 12)
	b.ResetTimer()
	for range b.N {
		var res Result
		p.orderDeviceTerms(ts, names, false, &res)
	}
}
