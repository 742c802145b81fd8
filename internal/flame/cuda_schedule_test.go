//go:build cuda

package flame

import "testing"

// ScheduleAuto runs per thread exactly when xaos asks for it or every
// xform takes the same path; the explicit schedules are obeyed (xaos
// always wins).
func TestWarpUniform(t *testing.T) {
	lin := gpuXform{NVars: 1, LinearOnly: 1}
	lin.IDs[0] = 0
	sph := gpuXform{NVars: 2}
	sph.IDs[0], sph.IDs[1] = 0, 2
	sph2 := sph
	sph2.IDs[1] = 3
	post := lin
	post.HasPost = 1
	for _, c := range []struct {
		name  string
		sched Schedule
		xaos  bool
		xs    []gpuXform
		nx    int
		want  bool
	}{
		{"linear only", ScheduleAuto, false, []gpuXform{lin, lin, lin}, 3, false},
		{"same variations", ScheduleAuto, false, []gpuXform{sph, sph}, 2, false},
		{"different variations", ScheduleAuto, false, []gpuXform{sph, sph2}, 2, true},
		{"different counts", ScheduleAuto, false, []gpuXform{lin, sph}, 2, true},
		{"one with a post affine", ScheduleAuto, false, []gpuXform{lin, post}, 2, true},
		{"a different final", ScheduleAuto, false, []gpuXform{lin, lin, sph2}, 2, false},
		{"xaos", ScheduleAuto, true, []gpuXform{sph, sph2}, 2, false},
		{"warp asked", ScheduleWarp, false, []gpuXform{lin, lin}, 2, true},
		{"warp asked, xaos", ScheduleWarp, true, []gpuXform{lin, lin}, 2, false},
		{"thread asked", ScheduleThread, false, []gpuXform{sph, sph2}, 2, false},
	} {
		if got := warpUniform(c.sched, c.xaos, c.xs, c.nx); got != c.want {
			t.Errorf("%s: warp-uniform %v, want %v", c.name, got, c.want)
		}
	}
}
