//go:build cuda

package flame

import (
	"context"
	"unsafe"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// frameLauncher queues one animation frame's iterate launches (queueFrame):
// the batch of temporal samples being gathered, the chains numbered so far
// (base) and the samples done, the one timer spanning every launch, the
// event of the last launch and the hand-off event before a frame's rest.
type frameLauncher struct {
	r       *cudaRun
	ctx     context.Context
	fp      *framePlan
	o       Options
	iterate gpu.Func[iterateArgs]
	shared  int
	maxX    int
	wave    int64 // blocks in a whole wave; 0: launches are not cut into waves

	genomes, xforms *gpu.Buffer[uint32]
	hist            *gpu.Buffer[float32]
	hits            *gpu.Buffer[uint32]
	bad             *gpu.Buffer[uint64]

	spc          int64 // samples per chain
	base, done   int64
	batch        []frameInput
	batchSamples int64
	// One timer spans every launch, and nothing waits between them: the
	// host builds and encodes the next batch while the device iterates this
	// one (with an arena, the upload is queued too; without, it waits for
	// the launches before it). With stages on, each launch is timed and
	// waited for. settle reads the timer.
	timer *gpu.Timer
	// A queued frame (r.arena set) keeps at most one launch ahead of the
	// device: before its next launch it waits for the last, so Ctrl-C
	// stops a big frame after one launch, not after all of them. The
	// frame's first launch queues behind the frame before and does not wait.
	last    *gpu.Event
	handoff *gpu.Event
}

// release frees what the launcher still holds when queueFrame returns.
func (fl *frameLauncher) release() {
	if fl.timer != nil && fl.r.timer == nil {
		fl.timer.Stop()
	}
	fl.last.Free()
	fl.handoff.Free()
}

// launch runs nchains chains of samples each for every genome row of grid.
func (fl *frameLauncher) launch(grid gpu.Dim3, nchains, samples int64) (err error) {
	r, d := fl.r, fl.r.dev
	if fl.last != nil {
		if err := fl.last.Wait(); err != nil {
			return err
		}
	}
	if err := fl.ctx.Err(); err != nil {
		return err
	}
	if fl.timer == nil {
		if fl.wave > 0 {
			fl.timer, err = r.startOverlapped()
		} else {
			fl.timer, err = d.StartTimerOn(r.stream)
		}
		if err != nil {
			return err
		}
	}
	rows := []uint32{grid.Y}
	if whole := wholeWaveRows(grid, fl.wave); whole > 0 && whole < grid.Y {
		rows = []uint32{whole, grid.Y - whole}
	}
	gWords, xWords := int(unsafe.Sizeof(gpuGenome{}))/4, fl.maxX*int(unsafe.Sizeof(gpuXform{}))/4
	g0 := 0
	for i, ny := range rows {
		if fl.wave > 0 && i == len(rows)-1 {
			fl.handoff.Free()
			if fl.handoff, err = d.RecordEventOn(r.stream); err != nil {
				return err
			}
		}
		part := gpu.Dim3{X: grid.X, Y: ny, Z: 1}
		err = r.stage("iterate", func() error {
			return fl.iterate.LaunchOn(r.stream, part, gpu.Dim(iterThreads), fl.shared, iterateArgs{fl.genomes.PtrAt(g0 * gWords),
				fl.xforms.PtrAt(g0 * xWords), fl.hist.Ptr(), fl.hits.Ptr(), fl.o.Seed, uint64(fl.base),
				uint32(nchains), uint32(samples), fl.bad.Ptr(), gpu.Ptr{}})
		})
		if err != nil {
			return err
		}
		fl.base += nchains * int64(ny)
		g0 += int(ny)
	}
	if r.arena == nil {
		return nil
	}
	fl.last, err = d.RecordEventOn(r.stream)
	return err
}

// progress counts n more samples done.
func (fl *frameLauncher) progress(n int64) {
	fl.done += n
	if fl.o.Progress != nil {
		fl.o.Progress(fl.done, fl.fp.total)
	}
}

// flush uploads the gathered batch's genomes and xforms and launches them.
func (fl *frameLauncher) flush() error {
	if len(fl.batch) == 0 {
		return nil
	}
	maxX, spc := fl.maxX, fl.spc
	gs := make([]gpuGenome, 0, len(fl.batch))
	xs := make([]gpuXform, len(fl.batch)*maxX)
	nchains := int64(0)
	for i, in := range fl.batch {
		gg := in.gg
		chains := (in.samples + spc - 1) / spc
		gg.Chains, gg.ChainSamples, gg.XformStride = int32(chains), int32((in.samples+chains-1)/chains), int32(maxX)
		gs = append(gs, gg)
		copy(xs[i*maxX:], in.xs)
		nchains = max(nchains, chains)
	}
	if err := write(fl.r, fl.genomes, gpu.WordsOf(gs)); err != nil {
		return err
	}
	if err := write(fl.r, fl.xforms, gpu.WordsOf(xs)); err != nil {
		return err
	}
	grid := gpu.Dim3{X: uint32((nchains + iterThreads - 1) / iterThreads), Y: uint32(len(fl.batch)), Z: 1}
	if err := fl.launch(grid, nchains, spc); err != nil {
		return err
	}
	fl.progress(fl.batchSamples)
	fl.batch, fl.batchSamples = fl.batch[:0], 0
	return nil
}

// end stops the timer after the last launch (settle reads it) and marks
// the end of the launches (endLaunches, which takes the hand-off event).
func (fl *frameLauncher) end() error {
	r := fl.r
	if fl.timer != nil {
		if err := fl.timer.EndOn(r.stream); err != nil {
			return err
		}
		r.timer = fl.timer
	}
	if r.stream != nil {
		err := r.endLaunches(fl.wave > 0, fl.handoff)
		fl.handoff = nil // endLaunches owns it
		return err
	}
	return nil
}
