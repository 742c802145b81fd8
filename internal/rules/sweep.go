package rules

import (
	"context"
	"errors"
	"fmt"

	"github.com/procgen-dev/procgen/internal/rules/lang"
)

// Sweeps (rules run -D NAME=LO:HI:STEP --replicates K): the states of many
// separate runs - one per combination of swept constants and replicate,
// each with its own seed - run as one run of a program compiled with the
// swept constants as hidden per-state fields (lang.CompileSwept). Every
// state must then draw what it would draw in its separate run: as state
// s % Size of a run seeded Seeds[s / Size].

// DrawGroups keys the draws of consecutive groups of Size states each as a
// separate run's: state g (its number in the whole run, FirstState + s)
// draws as state g % Size of a run with seed Seeds[g / Size]. The CPU
// engine honours it; RunSweep runs the groups one by one on engines that
// do not (the CUDA kernels key draws by one seed).
type DrawGroups struct {
	Size  int
	Seeds []uint64
}

// drawKey is the seed and the state number state s of this run draws with.
func (o *Options) drawKey(s int) (uint64, int) {
	g := o.FirstState + s
	if o.Groups == nil || o.Groups.Size <= 0 {
		return o.Seed, g
	}
	return o.Groups.Seeds[g/o.Groups.Size], g % o.Groups.Size
}

// RunSweep runs the states of a sweep, groups of groups.Size consecutive
// states each drawing as a separate run seeded groups.Seeds[k] (o.Seed and
// o.FirstState are ignored). With after set it runs one step at a time and
// calls after(lo, hi, t) once the states lo..hi-1 have run t steps (t = 0:
// before the first), every state of the run covered at each t. An engine
// other than the CPU's runs a program that draws group by group, so every
// backend draws as the separate runs do.
func RunSweep(ctx context.Context, e Engine, p *Program, st *States, o Options, groups DrawGroups,
	after func(lo, hi, t int) error) error {
	if groups.Size <= 0 || st.N != groups.Size*len(groups.Seeds) {
		return fmt.Errorf("rules: a sweep of %d states in %d groups of %d", st.N, len(groups.Seeds), groups.Size)
	}
	if o.UntilFixpoint {
		return errors.New("rules: a sweep runs a number of steps, not until a fixed point")
	}
	o.FirstState, o.Trace, o.Record = 0, nil, nil
	if _, cpu := e.(CPU); cpu || !p.Draws {
		o.Groups = &groups
		if !cpu { // no draws: the seeds key nothing
			o.Groups = nil
		}
		_, err := runSteps(ctx, e, p, st, o, 0, after)
		return err
	}
	for g, seed := range groups.Seeds {
		lo, hi := g*groups.Size, (g+1)*groups.Size
		view := &States{N: groups.Size, Words: st.Words, Data: st.Data[lo*st.Words : hi*st.Words]}
		go1 := o
		go1.Seed, go1.Groups = seed, nil
		if _, err := runSteps(ctx, e, p, view, go1, lo, after); err != nil {
			var re *RuntimeError
			if errors.As(err, &re) {
				re.State += lo
			}
			return err
		}
	}
	return nil
}

// runSteps runs st (states lo.. of the sweep) in one part, or a step at a
// time when after wants every step.
func runSteps(ctx context.Context, e Engine, p *Program, st *States, o Options, lo int,
	after func(lo, hi, t int) error) (*Result, error) {
	if after == nil {
		return e.Run(ctx, p, st, o)
	}
	return RunEvery(ctx, e, p, st, o, 1, func(t int) error { return after(lo, lo+st.N, t) })
}

// GroupRecorder reduces observables over each group of a sweep's states
// separately, step by step: what each separate run's --record reports.
type GroupRecorder struct {
	p    *Program
	obs  []Observable
	size int
	rows [][][]Acc // [group][step][observable]
}

// NewGroupRecorder records obs for groups groups of size states over
// steps steps (and before the first).
func NewGroupRecorder(p *Program, obs []Observable, groups, size, steps int) *GroupRecorder {
	r := &GroupRecorder{p: p, obs: obs, size: size, rows: make([][][]Acc, groups)}
	for g := range r.rows {
		r.rows[g] = make([][]Acc, steps+1)
		for t := range r.rows[g] {
			r.rows[g][t] = make([]Acc, len(obs))
		}
	}
	return r
}

// Observe adds states lo..hi-1 of st after step t, in state order, as one
// run's recorder adds its states.
func (r *GroupRecorder) Observe(st *States, lo, hi, t int) {
	for s := lo; s < hi; s++ {
		row := r.rows[s/r.size][t]
		for k, o := range r.obs {
			var a Acc
			o.observe(r.p, st.State(s), &a)
			row[k].merge(a)
		}
	}
}

// Rows are group g's accumulators, step 0 (the initial states) first.
func (r *GroupRecorder) Rows(g int) [][]Acc { return r.rows[g] }

// CompileSwept compiles a rule file whose constants named in swept become
// hidden read-only per-state fields after the declared ones
// (lang.CompileSwept); swept maps each name to a value of its type.
func CompileSwept(file string, src []byte, defines, swept map[string]string) (*Program, error) {
	return lang.CompileSwept(file, src, defines, swept)
}
