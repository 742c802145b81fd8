//go:build cuda

package pga

import (
	"context"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/parallel"
)

// A device GLB of a grammar with assets (I): the device draws every other
// part; each asset part is made on the host as Grammar.Mesh makes it (the
// asset's faces once, an instance per terminal: assetPart), from that
// part's terminals alone, gathered on the device and read back. Its vertex
// data goes into the device's binary chunk at the part's place, and its
// instances follow the chunk in the file (mesh.EncodeGLBBin).

// glbAssets makes plan's asset parts: their sizes and instances in out,
// and their vertex data, host[k] for part k (nil for the parts the device
// draws, and for all where the grammar has no loaded asset). The device
// counted the asset terminals' vertices and triangles as their scopes'
// (meshCounts); res.Stats is mended to count the asset's, as Grammar.Stats
// counts them.
func (c *CUDA) glbAssets(ctx context.Context, plan *glbPlan, out *GLB, res *Result, bounds []phaseRange) (host [][]byte, err error) {
	var parts []int
	var idx []uint32
	for k, key := range plan.keys {
		if c.g.AssetOf(key.term) != nil {
			parts = append(parts, k)
			idx = append(idx, plan.perm[plan.start[k]:plan.start[k+1]]...)
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	ts, err := c.gatherTerms(idx)
	if err != nil {
		return nil, err
	}
	c.mendAssetStats(ts, idx, res, bounds)
	at := 0
	for _, k := range parts {
		a, n := c.g.AssetOf(plan.keys[k].term), plan.start[k+1]-plan.start[k]
		sel := make([]int, n)
		for i := range sel {
			sel[i] = at + i
		}
		at += n
		if a.Shape == nil {
			continue // drawn as the scopes' boxes, by the device as by the host
		}
		if host == nil {
			host = make([][]byte, len(plan.keys))
		}
		mp := &out.Mesh.Parts[k]
		p := assetPart(a, mp.Name, mp.Material, ts, sel)
		bp, b, err := mesh.PartBin(ctx, &p)
		if err != nil {
			return nil, err
		}
		out.Parts[k], host[k], mp.Instances = bp, b, p.Instances
	}
	return host, nil
}

// gatherTerms reads back the device terminals at idx, in that order.
func (c *CUDA) gatherTerms(idx []uint32) ([]TerminalShape, error) {
	at, err := gpu.Upload(c.dev, idx)
	if err != nil {
		return nil, err
	}
	defer at.Free()
	buf, err := gpu.Alloc[uint32](c.dev, len(idx)*int(unsafe.Sizeof(gpuTerm{}))/4)
	if err != nil {
		return nil, err
	}
	defer buf.Free()
	if err := launch(c, glbGather, len(idx), glbGatherArgs{c.terms.Ptr(), at.Ptr(), uint32(len(idx)), buf.Ptr()}); err != nil {
		return nil, err
	}
	gts := make([]gpuTerm, len(idx))
	if err := gpu.ReadStructsLarge(buf, gts); err != nil {
		return nil, err
	}
	r := &Result{Terminals: make([]TerminalShape, len(idx))}
	parallel.For(len(gts), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			c.prog.convertDeviceTerm(&gts[i], i, r)
		}
	})
	return r.Terminals, nil
}

// mendAssetStats counts the asset terminals ts (device terminals idx) as
// Grammar.Stats does (the asset's positions and triangles) where the
// device counted their scopes' solids, in all and in the phase whose range
// of device terminals holds each (meshCounts' ByPhase, one per range).
func (c *CUDA) mendAssetStats(ts []TerminalShape, idx []uint32, res *Result, bounds []phaseRange) {
	nph := len(res.Stats.ByPhase)
	// Per range of terminals (on every core): the change in all, then by phase.
	type delta struct{ v, t []int64 }
	ds := make([]delta, len(parallel.Chunks(len(ts), 4096))-1)
	parallel.For(len(ts), 4096, func(ch, lo, hi int) {
		d := delta{make([]int64, nph+1), make([]int64, nph+1)}
		for i := lo; i < hi; i++ {
			v0, t0 := c.g.counts(&ts[i].Shape) // what the device counted
			v1, t1 := c.g.termCounts(&ts[i])
			k := nph // none
			for j, b := range bounds {
				if n := int(idx[i]); n >= b.start && n < b.end && j < nph {
					k = j
					break
				}
			}
			d.v[k] += int64(v1 - v0)
			d.t[k] += int64(t1 - t0)
		}
		ds[ch] = d
	})
	for _, d := range ds {
		for k := range nph + 1 {
			res.Stats.Vertices += d.v[k]
			res.Stats.Triangles += d.t[k]
			if k < nph {
				res.Stats.ByPhase[k].Vertices += d.v[k]
				res.Stats.ByPhase[k].Triangles += d.t[k]
			}
		}
	}
}

// drawn is the order of the terminals the device draws: perm without the
// parts made on the host (host[k] not nil), and each part's first place in
// it (start[k]; start[len(keys)] is their number).
func (p *glbPlan) drawn(host [][]byte) (perm []uint32, start []int) {
	if host == nil {
		return p.perm, p.start
	}
	start = make([]int, len(p.keys)+1)
	n := 0
	for k := range p.keys {
		start[k] = n
		if host[k] == nil {
			n += p.start[k+1] - p.start[k]
		}
	}
	start[len(p.keys)] = n
	perm = make([]uint32, 0, n)
	for k := range p.keys {
		if host[k] == nil {
			perm = append(perm, p.perm[p.start[k]:p.start[k+1]]...)
		}
	}
	return perm, start
}
