package pga

import (
	"cmp"
	"slices"

	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/parallel"
)

// The CUDA backend can build a GLB's vertex data on the device (CUDATuning.
// GLB, cuda_glb.go): the host sorts only the terminals' keys, in the order
// orderDeviceTerms gives the terminals it downloads, and groups them into
// Grammar.Mesh's parts (a part per terminal kind and material, in order of
// first appearance), so the file is the one the host would write from the
// downloaded terminals.

// GLB is a GLB's content built on the device: mesh.EncodeGLBBin(w, Mesh,
// Parts, Bin) writes the file EncodeGLB would write of Grammar.Mesh of the
// terminals (set Mesh.Extras first where the model is placed on Earth).
// Bin stays on the device, streamed from there as the file is written: it
// is good until the engine's next Evaluate or Close.
type GLB struct {
	Mesh  *mesh.Mesh
	Parts []mesh.BinPart
	Bin   mesh.BinData
}

// glbPlan is the device GLB's terminal order and parts: perm[q] is the
// device index of the q-th terminal of the file, part k holding positions
// start[k] to start[k+1] of perm.
type glbPlan struct {
	perm  []uint32
	start []int
	keys  []partKey
	uv    []bool // the part has texture coordinates
}

// glbSortKey is a terminal's place in the order, with its part's key (also a
// CPU terminal's, SortLikeDevice, whose at is its place in its lot): kept
// together so that sorting a lot's terminals reads no other memory.
type glbSortKey struct {
	seed    uint64
	term    int32
	at      uint32 // the device index
	mat, uv int16
}

// planGLB orders the device terminals' keys as orderDeviceTerms orders the
// terminals (by lot, then seed, then terminal kind, ties in the device's
// order) and groups them by part.
func (g *Grammar) planGLB(keys []gpuGlbKey) *glbPlan {
	n := len(keys)
	// Bucket by lot (a counting sort on every core, as orderDeviceTerms
	// does: each range of keys fills its lots' slots after the ranges
	// before it), then sort each lot's terminals.
	type bounds struct{ lots, terms, mats int32 }
	seen := make([]bounds, len(parallel.Chunks(n, bucketGrain))-1)
	parallel.For(n, bucketGrain, func(ch, lo, hi int) {
		var b bounds
		for _, k := range keys[lo:hi] {
			b = bounds{max(b.lots, k.Axiom+1), max(b.terms, k.Term+1), max(b.mats, k.Mat+1)}
		}
		seen[ch] = b
	})
	var all bounds
	for _, b := range seen {
		all = bounds{max(all.lots, b.lots), max(all.terms, b.terms), max(all.mats, b.mats)}
	}
	nlots, nt, nm := int(all.lots), all.terms, all.mats
	start, at := lotBuckets(n, nlots, func(i int) int32 { return keys[i].Axiom })
	sk := make([]glbSortKey, n)
	parallel.For(n, bucketGrain, func(ch, lo, hi int) {
		next := at[ch]
		for i := lo; i < hi; i++ {
			k := &keys[i]
			sk[next[k.Axiom]] = glbSortKey{k.Seed, k.Term, uint32(i), int16(k.Mat), int16(k.UV)}
			next[k.Axiom]++
		}
	})
	parallel.For(nlots, 64, func(_, lo, hi int) {
		for l := lo; l < hi; l++ {
			sortLotKeys(sk[start[l]:start[l+1]])
		}
	})
	return g.groupParts(sk, int(nt), int(nm))
}

// sortLotKeys sorts a lot's keys by seed, then terminal kind, then device
// index, and says whether they were in that order already. A lot holds a
// few dozen: an insertion sort with the comparison written out takes a
// third of the time of slices.SortFunc's (a city's 90,000 lots were most
// of planGLB).
func sortLotKeys(s []glbSortKey) bool {
	if len(s) > 64 {
		c := func(a, b glbSortKey) int {
			return bySeedTermAt(a.seed, b.seed, a.term, b.term, int64(a.at), int64(b.at))
		}
		if slices.IsSortedFunc(s, c) {
			return true
		}
		slices.SortFunc(s, c)
		return false
	}
	inOrder := true
	for i := 1; i < len(s); i++ {
		x, j := s[i], i
		for ; j > 0; j-- {
			y := &s[j-1]
			if y.seed < x.seed || (y.seed == x.seed && (y.term < x.term || (y.term == x.term && y.at < x.at))) {
				break
			}
			s[j] = *y
			inOrder = false
		}
		s[j] = x
	}
	return inOrder
}

// groupParts numbers the parts of the sorted keys sk (a part per terminal
// kind and material, nt and nm of them, in order of first appearance) and
// fills in the plan, each part keeping the keys' order: on every core, a
// range of keys at a time (their parts and counts, then, in range order,
// the parts' numbers and each range's places in them, then the scatter).
func (g *Grammar) groupParts(sk []glbSortKey, nt, nm int) *glbPlan {
	n := len(sk)
	type rangeParts struct {
		first []int32 // slots in order of first appearance in the range
		count []int   // by slot, then the range's next place by slot
		uv    []bool  // by slot: a key of the range asks for UVs
	}
	rs := make([]rangeParts, len(parallel.Chunks(n, bucketGrain))-1)
	parallel.For(n, bucketGrain, func(ch, lo, hi int) {
		r := rangeParts{count: make([]int, nt*nm), uv: make([]bool, nt*nm)}
		for q := lo; q < hi; q++ {
			k := &sk[q]
			slot := int(k.term)*nm + int(k.mat)
			if r.count[slot] == 0 {
				r.first = append(r.first, int32(slot))
			}
			r.count[slot]++
			r.uv[slot] = r.uv[slot] || k.uv != 0
		}
		rs[ch] = r
	})
	part := make([]int32, nt*nm)
	for i := range part {
		part[i] = -1
	}
	p := &glbPlan{}
	var count []int
	for _, r := range rs {
		for _, slot := range r.first {
			j := part[slot]
			if j < 0 {
				j = int32(len(p.keys))
				part[slot] = j
				k := partKey{int32(int(slot) / nm), int16(int(slot) % nm)}
				_, uv := g.partMaterial(k)
				p.keys, p.uv, count = append(p.keys, k), append(p.uv, uv), append(count, 0)
			}
			count[j] += r.count[slot]
			p.uv[j] = p.uv[j] || r.uv[slot]
		}
	}
	p.start = make([]int, len(p.keys)+1)
	for j, c := range count {
		p.start[j+1] = p.start[j] + c
	}
	// Each range's first place in every part it holds.
	next := append([]int(nil), p.start[:len(p.keys)]...)
	for _, r := range rs {
		for _, slot := range r.first {
			j := part[slot]
			c := r.count[slot]
			r.count[slot] = next[j]
			next[j] += c
		}
	}
	p.perm = make([]uint32, n)
	parallel.For(n, bucketGrain, func(ch, lo, hi int) {
		at := rs[ch].count
		for q := lo; q < hi; q++ {
			k := &sk[q]
			slot := int(k.term)*nm + int(k.mat)
			p.perm[at[slot]] = k.at
			at[slot]++
		}
	})
	return p
}

// glbMesh is the mesh the plan's parts make: Grammar.Mesh's materials and
// part names, without builders (the device built the vertex data).
func (g *Grammar) glbMesh(p *glbPlan) *mesh.Mesh {
	m := &mesh.Mesh{Generator: "procgen pga"}
	for i, k := range p.keys {
		mat, _ := g.partMaterial(k)
		if a := g.AssetOf(k.term); a != nil && a.Shape != nil {
			mat.Texture = "" // as Grammar.Mesh: an asset has no texture coordinates
		}
		m.Materials = append(m.Materials, mat)
		m.Parts = append(m.Parts, mesh.Part{Name: mat.Name, Material: i})
	}
	return m
}

// bySeedTermAt orders two of a lot's terminals by seed, then kind, then
// device index. Written out: cmp.Or of three cmp.Compare calls compares
// all three every time, and a city of assets sorts lots of hundreds.
func bySeedTermAt(s1, s2 uint64, t1, t2 int32, a1, a2 int64) int {
	switch {
	case s1 != s2:
		return cmp.Compare(s1, s2)
	case t1 != t2:
		return cmp.Compare(t1, t2)
	}
	return cmp.Compare(a1, a2)
}
