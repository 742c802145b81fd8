//go:build cuda

package lsys

import "github.com/procgen-dev/procgen/internal/gpu"

// The branch structure of a string on the device (cuda/lsys_tree.cu):
// bracket depths and their minima, bracket partners for context matching,
// and cut.

// depths fills run.levels with the bracket depth after every module of s
// and the levels of minima over them; status.depth gets the depth at the
// end and, with report, status.unbalanced a 1 where a depth is negative.
func (run *cudaRun) depths(s *devString, report bool) error {
	n := s.n
	nt := ceilDiv(n, gpuTile)
	if err := ensure(run, &run.tileC, nt); err != nil {
		return err
	}
	if err := launch(run, lsysDepthTiles, nt, 0, symScanArgs{s.syms.Ptr(), uint32(n), run.tileC.Ptr(),
		run.status()}); err != nil {
		return err
	}
	offs, size := levelLayout(n)
	if err := ensure(run, &run.levels, size); err != nil {
		return err
	}
	unbalanced := gpu.Ptr{}
	if report {
		unbalanced = run.blob.PtrAt(run.statusAt + 4)
	}
	if err := launch(run, lsysDepthFill, nt, 0, depthFillArgs{s.syms.Ptr(), uint32(n), run.tileC.Ptr(),
		run.levels.Ptr(), unbalanced}); err != nil {
		return err
	}
	for l := 2; l < len(offs); l++ {
		lenIn := offs[l] - offs[l-1]
		if err := launch(run, lsysMinLevel, ceilDiv(ceilDiv(lenIn, gpuFanout), gpuThreads), 0, minLevelArgs{run.levels.Ptr(),
			uint64(offs[l-1]), uint64(lenIn), uint64(offs[l])}); err != nil {
			return err
		}
	}
	return nil
}

// brackets computes the bracket partners of s into run.match. Whether they
// balance is read from the status with the count's results.
func (run *cudaRun) brackets(s *devString) error {
	if err := run.depths(s, true); err != nil {
		return err
	}
	if err := ensure(run, &run.match, s.n); err != nil {
		return err
	}
	return launch(run, lsysMatch, ceilDiv(s.n, gpuThreads), 0, symScanArgs{s.syms.Ptr(), uint32(s.n),
		run.levels.Ptr(), run.match.Ptr()})
}

// cut deletes every '%' of cur with the rest of its branch (cutBranches),
// compacting into next, and makes next current.
func (run *cudaRun) cut() error {
	s := &run.cur
	n := s.n
	if err := run.depths(s, false); err != nil {
		return err
	}
	if err := ensure(run, &run.delta, n+1); err != nil {
		return err
	}
	gpu.BatchZero(run.batch, run.delta, n+1)
	if err := launch(run, lsysCutMark, ceilDiv(n, gpuThreads), 0, symScanArgs{s.syms.Ptr(), uint32(n),
		run.levels.Ptr(), run.delta.Ptr()}); err != nil {
		return err
	}
	nt := ceilDiv(n, gpuTile)
	if err := launch(run, lsysCutTiles, nt, 0, symScanArgs{run.delta.Ptr(), uint32(n), run.tileC.Ptr(),
		run.status()}); err != nil {
		return err
	}
	if err := ensure(run, &run.tiles, 2*nt); err != nil {
		return err
	}
	half := run.tiles.Len() / 2
	if err := launch(run, lsysCutCount, nt, 0, cutCountArgs{run.blob.Ptr(), s.syms.Ptr(), uint32(n),
		run.delta.Ptr(), run.tileC.Ptr(), run.tiles.Ptr(), run.tiles.PtrAt(half), run.status()}); err != nil {
		return err
	}
	st, err := run.readStatus()
	if err != nil {
		return err
	}
	m, p := int(st.OutMods), int(st.OutParams)
	out := &run.next
	if err := run.reserve(out, m, p); err != nil {
		return err
	}
	if err := launch(run, lsysCutScatter, nt, 0, cutScatterArgs{run.blob.Ptr(), s.syms.Ptr(), argOf(s.params), argOf(s.chunkp),
		uint32(n), run.delta.Ptr(), run.tileC.Ptr(), run.tiles.Ptr(), run.tiles.PtrAt(half),
		out.syms.Ptr(), argOf(out.params), argOf(out.chunkp)}); err != nil {
		return err
	}
	out.n, out.np = m, p
	run.cur, run.next = run.next, run.cur
	return nil
}
