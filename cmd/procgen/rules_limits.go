package main

import (
	"fmt"
	"runtime"

	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/rules"
)

// Bounds of the rules sizes: state indices and stable-at steps are int32.
const (
	maxRulesStates = 1<<31 - 1
	maxRulesSteps  = 1<<31 - 1
)

// checkRulesMemory refuses a run whose states, per-step statistics and
// trace would not fit in --max-memory, before any of them is allocated.
func (a *app) checkRulesMemory(prog *rules.Program, states int, plan *rulesPlan) error {
	words := float64(prog.Words) * 4
	// The states, the output's copy being encoded and (on a GPU) the
	// device's; per step the firings per rule, kept per CPU worker and
	// summed; per traced state a copy after every step.
	perStep := float64(len(prog.Rules))*8*float64(runtime.GOMAXPROCS(0)+1) + 24
	if !plan.firedPerStep {
		perStep = 0 // the CPU keeps only totals (rules.Options.NoFiredPerStep)
	}
	// Per step and --record two accumulators (a row and a held tail) and
	// the printed values.
	perStep += float64(len(plan.recordText)) * (2*32 + 24)
	est := float64(states)*words*3 + float64(plan.steps)*perStep +
		float64(len(plan.trace))*float64(plan.steps+1)*(words+48)
	what := fmt.Sprintf("rules: %d states of %d words over %d steps", states, prog.Words, plan.steps)
	return a.checkMemory(what, est, "--generate, --steps or --trace")
}

// rulesPlannedPaths are the files (or "-") a run writes.
func rulesPlannedPaths(out string, o rulesOptions, plan *rulesPlan) []string {
	if out == "" {
		out = output.Stdout
	}
	paths := []string{out}
	if o.Stats != "" {
		paths = append(paths, o.Stats)
	}
	if len(plan.trace) > 0 {
		paths = append(paths, o.TraceOut)
	}
	if o.RecordOut != "" {
		paths = append(paths, o.RecordOut)
	}
	return paths
}
