package pga

import (
	"slices"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// devTermKey orders the device's terminals like a sort by lot, seed and kind.
type devTermKey struct {
	axiom, term int32
	seed        uint64
	at          int32
}

// termInfo is the terminal a device terminal id stands for.
func (p *program) termInfo(id int32) (geo, mat int32) {
	if id >= 0 && int(id) < len(p.terms) {
		return int32(p.terms[id].Geometry), int32(p.terms[id].Material)
	}
	return -1, -1
}

// bucketGrain is the items a range of lotBuckets (and of its callers'
// scatter over the same ranges) holds.
const bucketGrain = 1 << 16

// lotBuckets is the counting sort of n items by lot on every core: start[l]
// is where lot l's items begin in lot order, and at[ch][l] where the first
// of range ch's items in lot l goes (ranges of bucketGrain items, as
// parallel.For(n, bucketGrain, ...) hands them out), so a scatter over the
// same ranges puts every lot's items in index order.
func lotBuckets(n, nlots int, lot func(i int) int32) (start []int, at [][]int32) {
	at = make([][]int32, len(parallel.Chunks(n, bucketGrain))-1)
	parallel.For(n, bucketGrain, func(ch, lo, hi int) {
		cnt := make([]int32, nlots)
		for i := lo; i < hi; i++ {
			cnt[lot(i)]++
		}
		at[ch] = cnt
	})
	start = make([]int, nlots+1)
	for l := range nlots {
		c := start[l]
		for ch := range at {
			k := at[ch][l]
			at[ch][l] = int32(c)
			c += int(k)
		}
		start[l+1] = c
	}
	return start, at
}

// orderDeviceTerms converts the device's terminals ts (in the order the
// device emitted them) into res.Terminals in the CPU's order, lot by lot and
// within a lot by seed and terminal id (ties in the device's order), with res.Projections where the
// grammar projects textures, and counts them by name (names: the grammar's
// terminal names) into res.Stats.ByName.
//
// Order: bucket by lot (a counting sort), then sort each lot's small keys
// and convert its terminals, lots in parallel. Sorting the 200-byte records
// of a city in one comparison sort took over a second. The counting passes
// run on every core too: on a 300x300 city they read 2 M records (400 MB)
// three times, which one core did in a good part of the evaluate phase. Each
// range of ts fills its lots' slots in index order after the ranges before
// it, so every lot's keys reach the sort in the order a single pass makes.
func (p *program) orderDeviceTerms(ts []gpuTerm, names []string, projects bool, res *Result) {
	nterm := len(ts)
	bounds := parallel.Chunks(nterm, 1<<16)
	nch := len(bounds) - 1
	lotMax := make([]int32, nch)
	parallel.For(nterm, 1<<16, func(ch, lo, hi int) {
		m := int32(-1)
		for i := lo; i < hi; i++ {
			m = max(m, ts[i].Axiom)
		}
		lotMax[ch] = m
	})
	nlots := 0
	for _, m := range lotMax {
		nlots = max(nlots, int(m)+1)
	}
	start, at := lotBuckets(nterm, nlots, func(i int) int32 { return ts[i].Axiom })
	keys := make([]devTermKey, nterm)
	parallel.For(nterm, bucketGrain, func(ch, lo, hi int) {
		next := at[ch]
		for i := lo; i < hi; i++ {
			a := ts[i].Axiom
			keys[next[a]] = devTermKey{a, ts[i].Term, ts[i].Seed, int32(i)}
			next[a]++
		}
	})
	res.Terminals = make([]TerminalShape, nterm)
	if projects {
		res.Projections = make([][8]float32, nterm)
	}
	counts := make([][]int, len(parallel.Chunks(nlots, 1))-1)
	parallel.For(nlots, 1, func(chunk, lo, hi int) {
		cnt := make([]int, len(names))
		for l := lo; l < hi; l++ {
			ks := keys[start[l]:start[l+1]]
			slices.SortFunc(ks, func(a, b devTermKey) int {
				return bySeedTermAt(a.seed, b.seed, a.term, b.term, int64(a.at), int64(b.at))
			})
			for j, k := range ks {
				p.convertDeviceTerm(&ts[k.at], start[l]+j, res)
				if t := ts[k.at].Term; int(t) >= 0 && int(t) < len(cnt) {
					cnt[t]++
				}
			}
		}
		counts[chunk] = cnt
	})
	res.Stats.ByName = map[string]int{}
	for _, cnt := range counts {
		for t, n := range cnt {
			if n > 0 {
				res.Stats.ByName[names[t]] += n
			}
		}
	}
}

// convertDeviceTerm writes device terminal t as res.Terminals[at] (and its
// projection, one entry per terminal at its own index, so that lots fill
// theirs in parallel).
func (p *program) convertDeviceTerm(t *gpuTerm, at int, res *Result) {
	geo, mat := p.termInfo(t.Term)
	var m Mat4
	copy(m[:12], t.M[:])
	m[15] = 1
	res.Terminals[at] = TerminalShape{Term: t.Term, Geometry: geo, Material: mat, Phase: p.rulePhase[t.Rule], Shape: Shape{
		Kind: ShapeKind(t.Kind), Roof: RoofKind(t.Roof), Profile: p.hostProfile(t.Profile), Index: t.Index, Siblings: t.Siblings,
		Lot: t.Axiom, Transform: m, Size: t.Size, Seed: t.Seed, Attr: t.Attr,
		Mat: int16(t.Mat), UV: t.UV != 0}}
	if res.Projections != nil && t.UV != 0 {
		res.Projections[at] = t.Proj
		res.Terminals[at].proj = int32(at + 1)
	}
}
