package device

import (
	"context"
	"math"
	"runtime"
	"time"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/pga"
	"github.com/procgen-dev/procgen/internal/rules"
)

// The work estimates --device auto weighs, one per job, each cheap next to
// the work itself.

// FlameWork is the samples of every render, plus the density estimation
// and filter's share, which scales with the buckets (about 30 samples'
// worth each on the CPU).
func FlameWork(samples, buckets int64) float64 {
	return float64(samples) + 30*float64(buckets)
}

// lsysProbeModules bounds the probe derivations of LsysWork.
const lsysProbeModules = 20000

// LsysWork estimates the modules a derivation writes: it derives on the CPU
// while the string stays under lsysProbeModules and extrapolates the last
// step's growth to the remaining steps (capped by --max-modules a step).
func LsysWork(ctx context.Context, sys *lsys.System, steps int, seed uint64, maxModules int64) float64 {
	d := lsys.NewDeriver(nil)
	prev, cur, total := 0.0, 0.0, 0.0
	done := 0
	for s := 1; s <= steps; s++ {
		r, err := d.Derive(ctx, sys, lsys.DeriveOptions{Steps: s, Seed: seed, MaxModules: lsysProbeModules})
		if err != nil {
			break
		}
		prev, cur, total, done = cur, float64(r.String.Len()), float64(r.Total), s
	}
	if done == steps || cur == 0 {
		return total
	}
	growth := 1.0
	if prev > 0 {
		growth = max(cur/prev, 1)
	}
	for s := done + 1; s <= steps && total < 1e13; s++ {
		cur = math.Min(cur*growth, float64(maxModules))
		total += cur
	}
	return total
}

// PGAProbeLots is how many lots PGAWork evaluates on the CPU.
const PGAProbeLots = 8

// PGAWork estimates the terminals of a city from a few lots spread over it,
// evaluated on the CPU. Cities of at most PGAProbeLots/2 lots are not
// probed (the probe would cost half the CPU run): they stay on the CPU.
func PGAWork(g *pga.Grammar, axioms []pga.Shape, opt pga.Options) float64 {
	n := len(axioms)
	if n == 0 {
		return 0
	}
	k := min(n, PGAProbeLots)
	probe := make([]pga.Shape, 0, k)
	for i := 0; i < k; i++ {
		probe = append(probe, axioms[i*n/k])
	}
	opt.Progress = nil
	// Counted, not kept: the probe needs only how many terminals there are.
	st, err := g.EvaluateStats(probe, opt)
	if err != nil {
		return math.Inf(1) // a grammar that runs into a limit: the GPU stops it as fast
	}
	return float64(st.Terminals) / float64(k) * float64(n)
}

// rulesProbeStates is how many states RulesWork times.
const rulesProbeStates = 32

// RulesWork estimates the single-core CPU seconds of a run by timing one
// step of a few of its states on one core (copies: the states stay as they
// are): a rule's cost per index ranges over two orders of magnitude (an
// elementary automaton against the synthetic rule's loops), which no count
// of indices captures.
func RulesWork(ctx context.Context, prog *rules.Program, st *rules.States, steps int) float64 {
	k := min(st.N, rulesProbeStates)
	if k == 0 {
		return 0
	}
	probe := &rules.States{N: k, Words: st.Words, Data: append([]uint32(nil), st.Data[:k*st.Words]...)}
	// A big board's one step takes seconds on one core (16384x16384 Life:
	// 268M cells), paid before every run under auto: such a probe runs on
	// every core (one board is split over them) and counts their time,
	// which overstates the single-core time by the split's overhead only.
	workers := 1
	if int64(k)*int64(st.Words) >= rulesProbeSplitWords {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	if _, err := (rules.CPU{}).Run(ctx, prog, probe, rules.Options{Steps: 1, Workers: workers}); err != nil {
		return 0 // a fault shows up on the real run, on whichever backend
	}
	return time.Since(start).Seconds() * float64(workers) / float64(k) * float64(st.N) * float64(max(steps, 1))
}

// rulesProbeSplitWords is the probe's size (words of its states) from which
// RulesWork runs it on every core: 2^22 words, tens of milliseconds on one.
const rulesProbeSplitWords = 1 << 22

// ForestWork is the work of a forest run in its method's unit.
func ForestWork(method string, cells, trees int) (job string, work float64) {
	switch method {
	case "exact":
		return "forest-exact", float64(cells) * float64(max(trees, 1))
	case "multires":
		return "forest-multires", float64(cells)
	}
	return "forest-fft", float64(cells)
}
