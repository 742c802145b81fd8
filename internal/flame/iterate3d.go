package flame

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// The z-carrying chaos game, for genomes with JWildfire's 3D variations
// (variations_jwf.go) or a 3D camera (camera3d.go). It is runBatch with a z
// beside x and y, kept apart so that 2D genomes, flam3's all among them, run
// today's loop unchanged. It
// draws exactly what runBatch draws: a start or restart point has z = 0
// (JWildfire's start points lie in the plane). Without a 3D camera the
// final point is projected as JWildfire's default camera (no pitch, yaw or
// perspective) does: z is dropped; with one, the camera projects it.

// xformUses3D reports whether x has a variation that reads or writes z.
// Stage terms run here too (variations_stage.go).
func xformUses3D(x *Xform) bool {
	for _, t := range x.Stages {
		if t.Weight != 0 {
			return true
		}
	}
	for _, v := range x.Vars {
		if v.Weight != 0 && uses3D(v.ID) {
			return true
		}
	}
	return false
}

// ApplyXform3D is ApplyXform for a point with z, as JWildfire maps it: the
// affine and post affine act on (x, y) and pass z through, the variations
// sum from z = 0, flatten zeroes z after them. x must have been through
// Precalc.
func ApplyXform3D(x *Xform, px, py, pz float64, r *rng.Stream) (ox, oy, oz float64, ok bool) {
	cx := compileXform(x)
	return cx.apply3(px, py, pz, r)
}

// apply3 is apply with z.
func (cx *compiledXform) apply3(px, py, pz float64, r *rng.Stream) (ox, oy, oz float64, ok bool) {
	c := &cx.coefs
	s := varState{
		tx: c[0]*px + c[2]*py + c[4],
		ty: c[1]*px + c[3]*py + c[5],
		tz: pz,
		c:  c,
		p:  cx.params,
	}
	if cx.preBlur != 0 {
		s.preBlur(cx.preBlur, r)
	}
	for _, t := range cx.stages {
		if !t.Post {
			s.tx, s.ty, s.tz = stage(t, s.tx, s.ty, s.tz, c, cx.params, r)
		}
	}
	s.sumsq = s.tx*s.tx + s.ty*s.ty
	s.sqrt = math.Sqrt(s.sumsq)
	for _, v := range cx.vars {
		s.apply(v.ID, v.Weight, r)
	}
	ox, oy, oz = s.px, s.py, s.pz
	if len(cx.vars) == 0 && len(cx.stages) != 0 {
		ox, oy, oz = s.tx, s.ty, s.tz // Fractorium: no regular variation, the point passes
	}
	if cx.flatten {
		oz = 0
	}
	for _, t := range cx.stages {
		if t.Post {
			ox, oy, oz = stage(t, ox, oy, oz, c, cx.params, r)
		}
	}
	if !cx.postIdentity {
		ox, oy = cx.post.Apply(ox, oy)
	}
	return ox, oy, oz, !badValue(ox) && !badValue(oy) && !badValue(oz)
}

// runBatch3D is runBatch with points that carry z.
func (cg *chaosGame) runBatch3D(k int64, n int, h *histogram) (bad int64) {
	s := rng.NewStream(rng.Key(cg.seed, uint64(k)))
	x, y, z := 2*s.Float64()-1, 2*s.Float64()-1, 0.0
	c := s.Float64()
	last := 0
	consec := 0
	var pend depositBuffer
	for i := -cg.fuse; i < n; i++ {
		r := int(s.Uint64() >> 50) // 14 bits: chooseGrain
		var fn int
		if cg.table.xaos {
			fn = int(cg.table.rows[last*chooseGrain+r])
		} else {
			fn = int(cg.table.rows[r])
		}
		xf := &cg.xforms[fn]
		nx, ny, nz, ok := xf.cx.apply3(x, y, z, &s)
		nc := c*(1-xf.colorSpeed) + xf.color*xf.colorSpeed
		if !ok {
			bad++
			consec++
			nx, ny, nz = 2*s.Float64()-1, 2*s.Float64()-1, 0
			if consec < maxConsecutiveBad {
				x, y, z, c = nx, ny, nz, nc
				i--
				continue
			}
		}
		consec = 0
		last = fn + 1
		x, y, z, c = nx, ny, nz, nc
		if i < 0 || xf.vis == 0 {
			continue
		}
		px, py, pz, pc := x, y, z, c
		if f := cg.final; f != nil && (f.x.Opacity == 1 || s.Float64() < f.x.Opacity) {
			if px, py, pz, ok = f.cx.apply3(x, y, z, &s); !ok {
				bad++
				continue
			}
			pc = c*(1-f.colorSpeed) + f.color*f.colorSpeed
		}
		if cg.proj != nil {
			if px, py, ok = cg.proj.project(px, py, pz, &s); !ok {
				continue
			}
		}
		b, in := cg.cam.bucket(px, py)
		if !in {
			continue
		}
		d := &pend.d[pend.n]
		d.b = uint32(b)
		cg.sampleColor(pc, xf, &d.c)
		if pend.n++; pend.n == depositBatch {
			h.addAll(pend.d[:])
			pend.n = 0
		}
	}
	h.addAll(pend.d[:pend.n])
	return bad
}

// pluginVar returns the first variation of x beyond flam3's that has a
// weight and that the CUDA kernels do not have (gpuHasVar): pluginVarZ
// with z not known to stay zero.
func pluginVar(x *Xform) (string, bool) { return pluginVarZ(x, false) }

// pluginVarZ is pluginVar for an xform of a genome whose z stays zero when
// zeroZ (zStaysZero): then linear3D and zscale are 2D (gpuVarTerms maps
// them). flatten is not counted: it only zeroes z, which the kernels do not
// carry, so it is exactly a no-op there (and flam3 corpus genomes carry it).
// A stage term (pre_, post_) of a variation the kernels lack is returned by
// name (the flame3d family runs the others: gpuStageTerms); so is a ported
// variation whose parameters do not fit (gpuPluginPack).
func pluginVarZ(x *Xform, zeroZ bool) (string, bool) {
	for _, t := range x.Stages {
		if t.Weight != 0 && !gpuHasVar(t.ID) { // flatten as a stage too: it has no device id
			return t.Name(), true
		}
	}
	for _, v := range x.Vars {
		if v.Weight == 0 || gpuHasVar(v.ID) || v.ID == VarFlatten {
			continue
		}
		if zeroZ && (v.ID == VarLinear3D || v.ID == VarZscale) {
			continue
		}
		return VarNames[v.ID], true
	}
	if name := gpuPluginRefused(x); name != "" {
		return name, true
	}
	var slab [gpuPluginSlab]float32
	withStages := *x
	for _, t := range x.Stages { // stage terms share the slab (gpuStageTerms)
		if t.Weight != 0 {
			withStages.Vars = append(append([]VarTerm(nil), withStages.Vars...), VarTerm{ID: t.ID, Weight: t.Weight})
		}
	}
	if name, ok := gpuPluginPack(&withStages, slab[:]); !ok {
		return name + " (beside this xform's other plugin variations: more parameters than a GPU xform holds)", true
	}
	return "", false
}

// genomeUsesPluginVars reports whether any xform of g, the final included,
// has a variation the kernels lack, so that g renders on the CPU. (A 3D
// camera is not one: the flame3d family projects with it.)
func genomeUsesPluginVars(g *Genome) bool {
	zeroZ := zStaysZero(g)
	for i := range g.Xforms {
		if _, ok := pluginVarZ(&g.Xforms[i], zeroZ); ok {
			return true
		}
	}
	if g.Final != nil {
		_, ok := pluginVarZ(g.Final, zeroZ)
		return ok
	}
	return false
}

// gpuVarTerms is vs as the kernels take it, once pluginVarZ has refused
// any term they lack with a weight: the terms they have no ID for are
// dropped (flatten, which only zeroes a z the kernels do not carry, so a
// linear xform stays linear_only; zero-weight plugin terms an API caller may
// leave in; zscale where zeroZ, which then adds nothing to x and y), and
// where zeroZ linear3D becomes linear, which it then is in (x, y), so an
// xform of linear3D terms keeps the linear_only fast path.
func gpuVarTerms(vs []VarTerm, zeroZ bool) []VarTerm {
	keep := func(v VarTerm) (VarTerm, bool) {
		switch {
		case zeroZ && v.ID == VarLinear3D:
			return VarTerm{ID: VarLinear, Weight: v.Weight}, true
		case zeroZ && v.ID == VarZscale:
			return v, false
		}
		return v, gpuHasVar(v.ID)
	}
	for i := range vs {
		if _, ok := keep(vs[i]); ok && vs[i].ID != VarLinear3D {
			continue
		}
		out := append([]VarTerm(nil), vs[:i]...)
		for _, v := range vs[i:] {
			if t, ok := keep(v); ok {
				out = append(out, t)
			}
		}
		return out
	}
	return vs
}
