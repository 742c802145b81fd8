//go:build cuda

package flame

import "slices"

// warpUniform says whether the iterate kernel should run a genome with
// the warp-uniform schedule (one xform per warp per step, points shuffled
// through shared memory after every step) rather than one xform per
// thread. The warp schedule exists to keep a warp on one code path; it
// pays two block barriers a step for that. Where every xform runs the same
// code (the same variations in the same order, the same post-affine use),
// threads that pick different xforms diverge only in the coefficients they
// read, so ScheduleAuto runs such genomes per thread. xaos needs per-thread
// choices whatever the schedule. xs holds the genome's nx xforms (a final
// xform after them runs for every point alike and does not count).
func warpUniform(sched Schedule, xaos bool, xs []gpuXform, nx int) bool {
	switch {
	case xaos || sched == ScheduleThread:
		return false
	case sched == ScheduleWarp:
		return true
	}
	return !sameCode(xs[:min(nx, len(xs))])
}

// sameCode reports whether the xforms take one path through apply_xform.
func sameCode(xs []gpuXform) bool {
	for i := 1; i < len(xs); i++ {
		a, b := &xs[0], &xs[i]
		if a.NVars != b.NVars || a.HasPost != b.HasPost || a.LinearOnly != b.LinearOnly || a.PreBlur != b.PreBlur ||
			!slices.Equal(a.IDs[:a.NVars], b.IDs[:b.NVars]) {
			return false
		}
	}
	return true
}
