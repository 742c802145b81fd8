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
	est := prog.MemoryEstimate(rules.MemoryPlan{States: states, Steps: plan.steps,
		Workers: min(runtime.GOMAXPROCS(0), states), FiredPerStep: plan.firedPerStep, FiredJSON: plan.firedJSON,
		Traced: len(plan.trace), Records: len(plan.recordText)})
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
