package device

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/pga"
	"github.com/procgen-dev/procgen/internal/rng"
	"github.com/procgen-dev/procgen/internal/rules"
)

// The probes' inputs are copies of testdata/flame/heavy.flam3,
// configs/pga/suburban.pga and configs/rules/life.rules, frozen here: the
// reference rates (calibrationReference) were measured with exactly these
// bytes, so editing the originals must not change what a probe runs.
//
//go:embed calibration/heavy.flam3 calibration/suburban.pga calibration/life.rules
var probeInputs embed.FS

// probeKochIsland is configs/lsys/koch-island.l's system (ABOP fig. 1.9b).
const probeKochIsland = `Lsystem: koch-island
derivation length: 6
angle: 90
axiom: F-F-F-F
F --> FF-F-F-F-FF
endlsystem
`

// probeSpecies is scripts/bench-e2e.sh's one species.
const probeSpecies = "species:\n  sp: {str: 100, d: 1.32e-4, theta: 3, min_dbh: 10}\n"

// cpuProbe measures one cost model's CPU rate: prepare parses its input
// (not timed) and returns run, which does a fixed amount of the job's work
// through the job's own CPU code on all cores (GOMAXPROCS) and returns it
// in the model's unit. The rate is work over the best of a few runs' wall
// time, so that memory bandwidth and the number of cores count as they do
// in real runs; only its ratio to the reference host's rate is used.
type cpuProbe struct {
	key     string // the costModels key, or rulesSingleKey
	input   string // what it runs, for -v
	prepare func(scale float64) (run func(context.Context) (float64, error), err error)
}

// rulesSingleKey names the one-core probe of rules' work estimate (see
// jobFactors.Work): RulesWork times its states on one core.
const rulesSingleKey = "rules-1core"

// cpuProbes are the probes in the order they run. scale (1 for a real
// calibration, less in tests) multiplies each one's work.
func cpuProbes() []cpuProbe {
	return []cpuProbe{
		{"flame", "heavy.flam3 at 160 px, quality 80", probeFlame},
		{"lsys", "koch-island, 8 steps, 4 times", probeLsys},
		{"pga", "suburban.pga on a 16x16 grid", probePGA},
		{"forest-exact", "2000 trees on 200x200 m, exact", probeForest(forest.Exact, 2000, 200)},
		{"forest-fft", "40000 trees on 560x560 m, fft", probeForest(forest.FFT, 40000, 560)},
		{"forest-multires", "2000 trees on 100x100 m, multires", probeForest(forest.Multires, 2000, 100)},
		{"rules", "life.rules, 4096 boards x 8 steps", probeRules},
		{rulesSingleKey, "life.rules, RulesWork's one-core probe", probeRulesSingle},
	}
}

// scaled is n times scale, at least lo.
func scaled(n int, scale float64, lo int) int { return max(int(math.Round(float64(n)*scale)), lo) }

func probeFlame(scale float64) (func(context.Context) (float64, error), error) {
	src, err := probeInputs.ReadFile("calibration/heavy.flam3")
	if err != nil {
		return nil, err
	}
	gs, _, err := flame.Parse(bytes.NewReader(src), "heavy.flam3", flame.ParseOptions{})
	if err != nil {
		return nil, err
	}
	o := flame.Options{Width: scaled(160, math.Sqrt(scale), 16), Quality: 80 * math.Sqrt(scale), Seed: 1}
	fp, err := flame.Estimate(gs[0], o)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (float64, error) {
		_, _, err := (flame.CPU{}).Render(ctx, gs[0], o)
		return FlameWork(fp.Samples, fp.Buckets), err
	}, nil
}

func probeLsys(scale float64) (func(context.Context) (float64, error), error) {
	sys, err := syntax.Parse("koch-island.l", []byte(probeKochIsland))
	if err != nil {
		return nil, err
	}
	steps := 8
	if scale < 1 {
		steps = 5
	}
	// One derivation takes milliseconds on many cores: four make a run
	// that a scheduler tick does not dominate.
	return func(ctx context.Context) (float64, error) {
		total := 0.0
		for range 4 {
			d, err := (lsys.CPU{}).Derive(ctx, sys, lsys.DeriveOptions{Steps: steps, Seed: 1})
			if err != nil {
				return 0, err
			}
			total += float64(d.Total)
		}
		return total, nil
	}, nil
}

func probePGA(scale float64) (func(context.Context) (float64, error), error) {
	src, err := probeInputs.ReadFile("calibration/suburban.pga")
	if err != nil {
		return nil, err
	}
	g, err := pga.Parse("suburban.pga", src)
	if err != nil {
		return nil, err
	}
	lots, err := pga.Grid{Cols: 16, Rows: scaled(16, scale, 1), Seed: 1}.Lots()
	if err != nil {
		return nil, err
	}
	kind := g.Axioms[0].Kind
	axioms := pga.LotAxioms(kind, lots, 1, 20)
	attrs := pga.LotAttrValues(lots)
	return func(ctx context.Context) (float64, error) {
		st, err := g.EvaluateStats(axioms, pga.Options{LotAttrs: attrs, Context: ctx})
		return float64(st.Terminals), err
	}, nil
}

// probeForest disperses n trees of probeSpecies, uniform over a side x side
// metre plot of 1 m cells, with method.
func probeForest(method forest.Method, n, side int) func(float64) (func(context.Context) (float64, error), error) {
	return func(scale float64) (func(context.Context) (float64, error), error) {
		table, err := forest.ParseSpecies(bytes.NewReader([]byte(probeSpecies)), "probe-species.yaml")
		if err != nil {
			return nil, err
		}
		res, err := table.Resolve([]string{"sp"}, false)
		if err != nil {
			return nil, err
		}
		sd, nt := scaled(side, math.Sqrt(scale), 16), scaled(n, scale, 16)
		g := forest.Grid{Cell: 1, NX: sd, NY: sd}
		trees := make([]forest.Tree, nt)
		for i := range trees {
			u := func(c uint64) float64 { return rng.Float64(rng.Key(7, uint64(i), c)) }
			trees[i] = forest.Tree{X: u(0) * float64(sd), Y: u(1) * float64(sd), DBH: 15 + 45*u(2)}
		}
		_, work := ForestWork(string(method), g.Cells(), nt)
		return func(ctx context.Context) (float64, error) {
			_, err := (forest.CPU{}).Disperse(ctx, g, trees, res.Species, forest.Options{Method: method})
			return work, err
		}, nil
	}
}

// probeLife compiles life.rules and draws n boards.
func probeLife(n int) (*rules.Program, *rules.States, error) {
	src, err := probeInputs.ReadFile("calibration/life.rules")
	if err != nil {
		return nil, nil, err
	}
	prog, err := rules.Compile("life.rules", src, nil)
	if err != nil {
		return nil, nil, err
	}
	return prog, rules.Generate(prog, n, 1), nil
}

// probeRules runs Life on all cores; its work is in board-steps (the unit
// of the rate alone: the model's work is timed, see jobFactors.Work).
func probeRules(scale float64) (func(context.Context) (float64, error), error) {
	n, steps := scaled(4096, scale, 16), 8
	prog, st, err := probeLife(n)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (float64, error) {
		run := &rules.States{N: st.N, Words: st.Words, Data: append([]uint32(nil), st.Data...)}
		_, err := (rules.CPU{}).Run(ctx, prog, run, rules.Options{Steps: steps, NoFiredPerStep: true})
		return float64(n * steps), err
	}, nil
}

// probeRulesSingle is RulesWork itself, on the boards it samples: its rate
// is in board-steps per one-core second, as RulesWork measures this host.
func probeRulesSingle(float64) (func(context.Context) (float64, error), error) {
	prog, st, err := probeLife(rulesProbeStates)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (float64, error) {
		// The rate's work is the board-steps RulesWork ran; measure times
		// them with its own clock, which also holds RulesWork's copy of
		// the 32 boards (microseconds).
		if RulesWork(ctx, prog, st, 1) <= 0 {
			return 0, fmt.Errorf("rules probe: no time measured")
		}
		return float64(st.N), ctx.Err()
	}, nil
}

// A probe runs at least probeMinRuns times, and again while its runs took
// under probeBudget in all (at most probeMaxRuns; the budget scales with
// the work in tests): the fastest run counts, and a short probe, whose
// time a page fault or a scheduler tick can double, gets more tries.
const (
	probeMinRuns = 3
	probeMaxRuns = 15
	probeBudget  = 200 * time.Millisecond
)

// probeResult is one probe's measurement.
type probeResult struct {
	Work, Seconds float64 // of the fastest run
	Runs          int
	Wall          float64 // of all runs and the preparation
}

// rate is work per second.
func (r probeResult) rate() float64 { return r.Work / r.Seconds }

// measure prepares p and runs it, each run from a collected heap so that
// one run's garbage does not slow the next.
func measure(ctx context.Context, p cpuProbe, scale float64) (probeResult, error) {
	start := time.Now()
	run, err := p.prepare(scale)
	if err != nil {
		return probeResult{}, fmt.Errorf("calibrate: %s probe: %w", p.key, err)
	}
	best := probeResult{Seconds: math.Inf(1)}
	var spent time.Duration
	budget := time.Duration(float64(probeBudget) * min(scale, 1))
	for best.Runs < probeMinRuns || (spent < budget && best.Runs < probeMaxRuns) {
		runtime.GC()
		t0 := time.Now()
		work, err := run(ctx)
		d := time.Since(t0)
		if err != nil {
			return probeResult{}, fmt.Errorf("calibrate: %s probe: %w", p.key, err)
		}
		spent += d
		best.Runs++
		if sec := d.Seconds(); sec < best.Seconds {
			best.Work, best.Seconds = work, sec
		}
	}
	best.Wall = time.Since(start).Seconds()
	if r := best.rate(); !(r > 0) || math.IsInf(r, 0) {
		return best, fmt.Errorf("calibrate: %s probe: no rate (%g units in %g s)", p.key, best.Work, best.Seconds)
	}
	return best, nil
}
