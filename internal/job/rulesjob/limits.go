package rulesjob

import (
	"fmt"
	"runtime"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/rules"
)

// Bounds of the rules sizes: state indices and stable-at steps are int32.
const (
	maxStates = 1<<31 - 1
	maxSteps  = 1<<31 - 1
)

// checkMemory refuses a run whose states, per-step statistics and
// trace would not fit in --max-memory, before any of them is allocated.
func checkMemory(env *job.Env, prog *rules.Program, states int, p *plan) error {
	est := rules.MemoryEstimate(prog, rules.MemoryPlan{States: states, Steps: p.steps,
		Workers: min(runtime.GOMAXPROCS(0), states), FiredPerStep: p.firedPerStep, FiredJSON: p.firedJSON,
		Traced: len(p.trace), Records: len(p.recordText)})
	what := fmt.Sprintf("rules: %d states of %d words over %d steps", states, prog.Words, p.steps)
	return env.CheckMemory(what, est, "--generate, --steps or --trace")
}

// plannedPaths are the files (or "-") a run writes.
func plannedPaths(out string, o Options, p *plan) []string {
	if out == "" {
		out = output.Stdout
	}
	paths := []string{out}
	if o.Stats != "" {
		paths = append(paths, o.Stats)
	}
	if len(p.trace) > 0 {
		paths = append(paths, o.TraceOut)
	}
	if o.RecordOut != "" {
		paths = append(paths, o.RecordOut)
	}
	return paths
}
