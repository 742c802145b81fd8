package rules

import (
	"math"
	"strconv"
)

// memoryBaseBytes is what any run holds: the Go runtime, the program and
// the buffered writers (measured at 8 to 16 MiB of RSS).
const memoryBaseBytes = 16 << 20

// MemoryPlan is what a run keeps, as far as its memory goes.
type MemoryPlan struct {
	States, Steps int
	// Workers is the CPU backend's goroutines (each keeps its own firings
	// per step until they are summed).
	Workers int
	// FiredPerStep: the run keeps every step's firings (Options.NoFiredPerStep
	// false); FiredJSON: and a JSON document prints them all at once.
	FiredPerStep, FiredJSON bool
	// Traced is the number of --trace states, Records of --record values.
	Traced, Records int
}

// MemoryEstimate is the bytes a run of p allocates at its peak, before any
// of it is allocated: the runtime's base, the states with the output's and a device's copies;
// per step the firings per rule, one row per CPU worker and the summed one,
// each a slice header and its counts; the JSON text of those rows when the
// document prints them (encoding/json's MarshalIndent holds the compact
// text, its copy and the indented text, each grown by doubling: 10M steps
// peaked 1.16x over twice the indented text); the traced
// states after every step and the --record accumulators.
func MemoryEstimate(p *Program, m MemoryPlan) float64 {
	words := float64(p.Words) * 4
	rules := float64(len(p.Rules))
	steps := float64(m.Steps)
	est := memoryBaseBytes + float64(m.States)*words*3
	if m.FiredPerStep {
		rows := float64(max(m.Workers, 1) + 1)
		est += steps * rows * (24 + 8*rules)
		if m.FiredJSON {
			// A count is at most the number of states.
			digits := float64(len(strconv.Itoa(m.States)))
			compact := 2 + rules*(digits+1)
			indented := 13 + rules*(8+digits)
			est += steps * (3*compact + 3*indented)
		}
	}
	// Per step and --record value two accumulators (a row and a held
	// tail) and the printed values.
	est += steps * float64(m.Records) * (2*32 + 24)
	est += float64(m.Traced) * (steps + 1) * (words + 48)
	if math.IsNaN(est) {
		return math.Inf(1)
	}
	return est
}
