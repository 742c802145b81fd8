//go:build cuda

package lifepack

import (
	"math/bits"
	"slices"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules"
)

// popArgs are pg_life_population's parameters (cuda/rules_packed.cu).
type popArgs struct {
	board  gpu.Ptr
	nquads int64
	out    gpu.Ptr
}

// popKernel counts the live cells of the packed states: --record's
// reductions over a two-state board are functions of that count.
var popKernel = gpu.Kernel[popArgs]{Family: "rules_packed", Name: "pg_life_population"}

// recordable says whether the packed kernel can serve every observable of
// obs: each must reduce the board's own field (its counts of 0s and 1s
// then give the value; rules.Observable.AccOf).
func (e Engine) recordable(p *rules.Program, obs []rules.Observable) bool {
	for _, o := range obs {
		if o.Field < 0 || o.Field >= len(p.Fields) {
			return false
		}
		f := p.Fields[o.Field]
		if f.Off != e.Board.Off || f.Size != e.Board.W*e.Board.H {
			return false
		}
	}
	return true
}

// population is a run's live-cell counts on the device, one a step of a
// chunk (the count after step t of the chunk at t).
type population struct {
	f      gpu.Func[popArgs]
	counts *gpu.Buffer[uint64]
	nquads int64
	grid   gpu.Dim3
}

func (s *stepper) countPopulation(e Engine, n, chunk int) error {
	f, err := popKernel.Load(e.Dev)
	if err != nil {
		return err
	}
	c, err := gpu.Alloc[uint64](e.Dev, chunk)
	if err != nil {
		return err
	}
	nq := int64(e.Board.PackedLen(n) / 4) // rows are padded to 4 words
	s.pop = &population{f: f, counts: c, nquads: nq, grid: gpu.Dim(int(min((nq+255)/256, 1024)))}
	return nil
}

// count launches the count of the board after step t of the chunk.
func (p *population) count(board *gpu.Buffer[uint32], t int) error {
	if p.nquads == 0 {
		return nil
	}
	return p.f.Launch(p.grid, gpu.Dim(256), 0, popArgs{board: board.Ptr(), nquads: p.nquads, out: p.counts.PtrAt(t)})
}

// onesOf counts the live cells of packed states on the host (the record's
// step 0).
func onesOf(packed []uint32) int64 {
	var n int64
	for _, w := range packed {
		n += int64(bits.OnesCount32(w))
	}
	return n
}

// recordRow is the accumulators of obs over cells cells of which ones are
// alive.
func recordRow(p *rules.Program, obs []rules.Observable, cells, ones int64) []rules.Acc {
	row := make([]rules.Acc, len(obs))
	for k, o := range obs {
		row[k] = o.AccOf(p, []uint32{0, 1}, []int64{cells - ones, ones})
	}
	return row
}

// recording is a run's --record rows: step 0 from the host's count, then
// one a step from the device's.
type recording struct {
	p     *rules.Program
	obs   []rules.Observable
	cells int64
	rows  [][]rules.Acc // [step][observable], steps 0..Steps
	pops  []uint64
}

func newRecording(p *rules.Program, obs []rules.Observable, cells int64, steps int, ones int64) *recording {
	r := &recording{p: p, obs: obs, cells: cells, rows: make([][]rules.Acc, steps+1)}
	r.rows[0] = recordRow(p, obs, cells, ones)
	return r
}

// add reads a chunk's counts: steps t0+1 .. t0+k.
func (r *recording) add(pop *population, t0, k int) error {
	if len(r.pops) < k {
		r.pops = make([]uint64, k)
	}
	if err := pop.counts.ReadAt(r.pops[:k], 0); err != nil {
		return err
	}
	for t := range k {
		r.rows[t0+t+1] = recordRow(r.p, r.obs, r.cells, int64(r.pops[t]))
	}
	return nil
}

// hold gives the steps after done, which the run skipped with every state
// at its fixed point, the values of step done, as the rules engine holds
// a stopped state's.
func (r *recording) hold(done int) {
	for t := done + 1; t < len(r.rows); t++ {
		r.rows[t] = slices.Clone(r.rows[done])
	}
}
