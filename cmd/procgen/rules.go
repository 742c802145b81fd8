package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
	"github.com/procgen-dev/procgen/internal/rules"
	sharding "github.com/procgen-dev/procgen/internal/shard"
)

type rulesOptions struct {
	States        string   `mapstructure:"states"`
	Generate      int      `mapstructure:"generate"`
	Steps         int      `mapstructure:"steps"`
	UntilFixpoint bool     `mapstructure:"until-fixpoint"`
	Define        []string `mapstructure:"define"`
	Schedule      string   `mapstructure:"schedule"`
	Layout        string   `mapstructure:"layout"`
	Trace         []string `mapstructure:"trace"`
	TraceOut      string   `mapstructure:"trace-out"`
	Stats         string   `mapstructure:"stats"`
	Record        []string `mapstructure:"record"`
	RecordOut     string   `mapstructure:"record-out"`
	Kernel        string   `mapstructure:"kernel"`
	Frames        string   `mapstructure:"frames"`
	FramesEvery   int      `mapstructure:"frames-every"`
}

// rulesDefaultCap is the step cap of --until-fixpoint without --steps.
const rulesDefaultCap = 10000

type rulesPlan struct {
	defines  map[string]string
	schedule rules.Schedule
	layout   rules.Layout
	trace    []int
	steps    int
	format   string // of standard output: json or csv
	// firedPerStep: an output shows the firings of every step (JSON,
	// --stats), so the run keeps them; else only totals.
	firedPerStep bool
	firedJSON    bool // the JSON document prints them
	// --record: the expressions, then (once the program is compiled) the
	// parsed observables.
	recordText []string
	record     []rules.Observable
	force      bool // --frames into a non-empty directory
}

func (o *rulesOptions) validate() (*rulesPlan, error) {
	p := &rulesPlan{defines: map[string]string{}}
	switch {
	case o.States == "" && o.Generate == 0:
		return nil, usageErrorf("no states: give --states FILE (JSON or CSV) or --generate N")
	case o.States != "" && o.Generate != 0:
		return nil, usageErrorf("--states and --generate both given: choose one")
	case o.Generate < 0 || o.Generate > maxRulesStates:
		return nil, usageErrorf("invalid --generate %d: want 1..%d states", o.Generate, maxRulesStates)
	case o.Steps < -1 || o.Steps > maxRulesSteps:
		return nil, usageErrorf("invalid --steps %d: want 0..%d", o.Steps, maxRulesSteps)
	}
	p.steps = o.Steps
	if p.steps < 0 {
		p.steps = 1
		if o.UntilFixpoint {
			p.steps = rulesDefaultCap
		}
	}
	for _, d := range o.Define {
		if strings.TrimSpace(d) == "" {
			continue
		}
		name, val, ok := strings.Cut(d, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, usageErrorf("invalid --define %q: want NAME=VALUE", d)
		}
		p.defines[strings.TrimSpace(name)] = strings.TrimSpace(val)
	}
	var err error
	if p.schedule, err = rules.ParseSchedule(o.Schedule); err != nil {
		return nil, usageErrorf("--schedule: %v", err)
	}
	if p.layout, err = rules.ParseLayout(strings.ToUpper(o.Layout)); err != nil {
		return nil, usageErrorf("--layout: %v", err)
	}
	for _, t := range o.Trace {
		if strings.TrimSpace(t) == "" {
			continue
		}
		s, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil || s < 0 {
			return nil, usageErrorf("invalid --trace entry %q: want state numbers (0-based)", t)
		}
		p.trace = append(p.trace, s)
	}
	for _, r := range o.Record {
		if strings.TrimSpace(r) != "" {
			p.recordText = append(p.recordText, r)
		}
	}
	switch o.Kernel {
	case "", "auto", "generated", "interpreter":
	default:
		return nil, usageErrorf("invalid --kernel %q: want auto, generated or interpreter", o.Kernel)
	}
	if o.RecordOut != "" && len(p.recordText) == 0 {
		return nil, usageErrorf("--record-out %s without --record: name what to record (--record 'sum(c)')", o.RecordOut)
	}
	return p, nil
}

func (a *app) newRulesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "Rule-based simulation over thousands of states at once",
		Args:  noSubcommand,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.newRulesRunCmd())
	return cmd
}

func (a *app) newRulesRunCmd() *cobra.Command {
	var out, format, shardSpec string
	var outs []string
	var force bool
	cmd := &cobra.Command{
		Use:   "run RULES.rules (--states FILE | --generate N) [--steps N | --until-fixpoint] [-o out.json|out.csv]",
		Short: "Apply a rule set to many independent states in parallel",
		Long:  rulesLong,
		Example: `  procgen rules run configs/rules/eca.rules --generate 1000 -D RULE=110 --steps 100 -o eca.json
  procgen rules run configs/rules/life.rules --states boards.json --until-fixpoint --steps 500 -o final.csv
  procgen rules run configs/rules/sandpile.rules --generate 64 --until-fixpoint --stats fired.csv
  procgen rules run configs/rules/synthetic.rules --generate 2048 --schedule simple --layout A -o out.json
  procgen rules run configs/rules/life.rules --generate 10 --steps 8 --trace 0,3 --trace-out glider.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o rulesOptions
			if err := a.decode("rules", &o); err != nil {
				return err
			}
			p, err := o.validate()
			if err != nil {
				return err
			}
			if format != "json" && format != "csv" {
				return usageErrorf("invalid --format %q: want json or csv", format)
			}
			p.format = format
			if len(outs) > 1 {
				// -o was a plain string: all but the last were dropped, exit 0.
				return usageErrorf("-o given %d times (%s): rules writes one result file, its format from the extension; --stats, --trace-out and --record-out write the others", len(outs), strings.Join(outs, ", "))
			}
			if len(outs) == 1 {
				out = outs[0]
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			if out, sh, err = a.rulesShardOutput(out, o, p, sh); err != nil {
				return err
			}
			p.force = force
			if o.Kernel == "generated" && a.opts.JIT == "never" {
				return usageErrorf("--kernel generated with %s never: the generated kernels are compiled by the driver's JIT; use --jit cached or always, or --kernel interpreter", a.settingName("jit"))
			}
			return a.rulesRun(cmd.Context(), args[0], out, o, p, sh)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&outs, "output", "o", nil, "write the final states to `FILE`: .json (with statistics), .csv, .png (the first 16 boards) or .rle (the first board, Golly RLE); - or none: standard output in --format")
	f.StringVar(&format, "format", "json", "`FORMAT` of standard output: json or csv")
	addShardFlag(f, &shardSpec)
	f.BoolVar(&force, "force", false, "write --frames into an existing, non-empty directory (frames of the same names are replaced, other files left alone)")
	for _, k := range []string{"states", "generate", "steps", "until-fixpoint", "schedule", "layout", "trace", "trace-out", "stats",
		"record", "record-out", "frames", "frames-every", "kernel"} {
		a.bindFlag(f, "rules."+k, k, "")
	}
	a.bindFlag(f, "rules.define", "define", "D")
	_ = cmd.RegisterFlagCompletionFunc("schedule", cobra.FixedCompletions(
		[]string{"compact", "simple"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("kernel", cobra.FixedCompletions(
		[]string{"auto", "generated", "interpreter"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("layout", cobra.FixedCompletions(
		[]string{"A", "B", "C"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

const rulesLong = `Apply a set of rules to many independent states in parallel, step after
step: a step applies every rule once, in file order; within one application of
a rule every index of every state is evaluated against the state as it was
before the rule. docs/rules-language.md describes the language; configs/rules/
has examples (elementary cellular automata, Game of Life, the Abelian
sandpile, the paper's synthetic benchmark rule).

  const N = 64
  state { int cell[N] ~ uniform(0, 1) }
  rule update over i in 0..N
    let next = (90 >> (4 * cell[(i - 1) % N] + 2 * cell[i] + cell[(i + 1) % N])) & 1
    when next != cell[i]
  { cell[i] = next }

States: --states FILE, JSON (a list of objects naming every field, or the
object -o out.json writes) or CSV (a header of columns cell[0], cell[1] ...,
one row per state) or a Golly RLE pattern (.rle: one state, the pattern in
the top-left corner of the board, other fields their defaults), or
--generate N states drawn from the fields' ~ uniform(LO, HI) initialisers,
keyed by --seed. -D NAME=VALUE overrides a
constant of the rule file.

Modes: --steps N applies N steps (default 1). --until-fixpoint runs until no
precondition holds anywhere, with --steps as the cap (default 10000); a state
stops at its own fixed point. Not reaching it is a failure (exit 1), the
states are still written, with "fixpoint_reached": false and per state the
step it became stable (0: never).

Output: -o out.json holds the final states, the rules fired per rule and step
and the fixed-point flags; -o out.csv the states, one row each; -o boards.png
the first 16 states' boards side by side (an int array of W*H cells, from
the constants W and H, or of a square size); -o board.rle the first state's
board as a Golly RLE pattern (cells 0..255); without -o, JSON goes to stdout. --stats FILE writes the firings per step as CSV
(step,rule,fired). --trace 0,5 records those states after every step, as
JSON lines in --trace-out (default trace.jsonl, which replaces an existing
file only when named).

Backends: the CPU backend runs every state on all cores. With a GPU
(--device auto|cuda) the rule set is compiled to a kernel of its own (PTX the
driver compiles once and caches; --kernel generated insists on it) or, with
--kernel interpreter or --jit never, run by the bytecode interpreter kernel;
either with --schedule compact (a warp per state, 32 states a block, 8 when
states are few, enabled (index, state) pairs compacted in shared memory: the
paper's Algorithms 3 and 4) or simple (a block per state: Algorithms 1 and
2), and --layout C (32-word blocks of every state interleaved, the paper's
Figure 6), A (each state contiguous) or B (transposed). Results are the same
on every backend, bit for bit for int state; float += sums may differ in the
last bits on the GPU (the order of the additions).

Random numbers: rand() and uniform(LO, HI) in a rule draw from a
counter-based generator keyed by --seed, the step, the rule, the state and
the index: every backend, shard and GPU draws the same numbers. A rule set
whose preconditions draw has no fixed point (--until-fixpoint is refused).

--record EXPR (repeatable) reduces a field over every state after each step
(and before the first): sum(c), count(c == 1), mean(m), min(v), max(v > 0.5);
the values go into the JSON document ("record_per_step") and, with
--record-out FILE, a CSV of one row per step. On the GPU a recorded run
downloads the states after every step. --frames DIR writes the picture of
-o boards.png before the first step and after every --frames-every K steps
(frame_000000.png ...); an existing non-empty DIR needs --force.

Faults - an index out of range, a division by zero - stop the run with the
rule, the state, the index and the step, and nothing is written.

--shard I/N runs the I-th of N contiguous ranges of the states and writes
their CSV rows (-o final.%03d.csv, the verb taking I, or --format csv): the
header and the parts' rows in shard order are one run's CSV. JSON, --stats
and --trace are whole-run outputs and are not split.

` + exitCodeHelp

func (a *app) rulesRun(ctx context.Context, path, out string, o rulesOptions, plan *rulesPlan, sh shard) error {
	a.dev.Prefetch()
	start := time.Now()
	format := plan.format
	// A device, FIFO or descriptor (/dev/null, /dev/stdout) has no
	// extension: it takes --format, as standard output does.
	if out != "" && out != output.Stdout && !isStream(out) {
		switch strings.ToLower(filepath.Ext(out)) {
		case ".json":
			format = "json"
		case ".csv":
			format = "csv"
		case ".png":
			format = "png" // the first states' boards (rules_board.go)
		case ".rle":
			format = "rle" // the first state's board as a Golly pattern
		default:
			return usageErrorf("output %s: want a .json, .csv, .png or .rle file, or - for standard output", out)
		}
	}
	plan.firedPerStep = format == "json" || o.Stats != ""
	plan.firedJSON = format == "json"
	if err := checkInputFile("rules", path); err != nil {
		return err
	}
	inputs := []string{path}
	if o.States != "" {
		if err := checkInputFile("rules: --states", o.States); err != nil {
			return err
		}
		inputs = append(inputs, o.States)
	}
	if len(plan.trace) > 0 && a.origin("rules.trace-out") == "default" {
		// The default name is not the user's choice: a file of that name
		// is not this run's to replace.
		if _, err := os.Lstat(o.TraceOut); err == nil {
			return usageErrorf("--trace: %s exists; name it with --trace-out %s to replace it, or choose another file", o.TraceOut, o.TraceOut)
		}
	}
	outs, err := a.planOutputs(inputs, rulesPlannedPaths(out, o, plan)...)
	if err != nil {
		return err
	}
	src, err := input.ReadFile(ctx, path, input.Source)
	if err != nil {
		return asUsage(fmt.Errorf("rule file: %w", err))
	}
	phase.Enter(ctx, "rules.compile")
	prog, err := rules.Compile(path, src, plan.defines)
	if err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	a.log.Debugf("%s: %s", path, prog)
	if err := ctx.Err(); err != nil {
		return err
	}
	if o.UntilFixpoint && prog.DrawsInCond {
		return usageErrorf("--until-fixpoint: %v", strings.TrimPrefix(rules.ErrDrawsNoFixpoint.Error(), "rules: "))
	}
	if plan.record, err = rulesObservables(prog, plan.recordText); err != nil {
		return err
	}
	if o.Generate > 0 {
		if err := a.checkRulesMemory(prog, o.Generate, plan); err != nil {
			return err
		}
	}
	var st *rules.States
	if o.Generate > 0 {
		st = rules.Generate(prog, o.Generate, a.opts.Seed)
	} else {
		st, err = a.readRulesStates(ctx, o.States, prog)
		if err != nil {
			return err
		}
		if err := a.checkRulesMemory(prog, st.N, plan); err != nil {
			return err
		}
	}
	for _, s := range plan.trace {
		if s >= st.N {
			return usageErrorf("--trace %d: there are %d states (0..%d)", s, st.N, st.N-1)
		}
	}
	if format == "png" {
		if err := rulesBoardCheck(prog, st.N); err != nil {
			return err
		}
	}
	if format == "rle" {
		if _, err := prog.BoardOf(); err != nil {
			return usageErrorf("-o .rle: %v", err)
		}
	}
	var frames *rulesFramesPlan
	if o.Frames != "" {
		if frames, err = rulesFramesCheck(o.Frames, o.FramesEvery, plan.force, prog, st.N, plan.steps, inputs); err != nil {
			return err
		}
	}
	work := 0.0
	if a.dev.Weighs() {
		work = device.RulesWork(ctx, prog, st, plan.steps)
	}
	dev, err := a.dev.OpenForItems("rules", work, float64(st.N))
	if err != nil {
		return err
	}
	if dev, err = a.rulesDeviceFits(prog, dev); err != nil {
		return err
	}
	device := "cpu"
	engine := rules.NewEngine(dev)
	if dev != nil {
		defer dev.Close()
		device = "cuda"
		devs, err := a.dev.More(dev)
		if err != nil {
			return err
		}
		defer a.dev.CloseMore(devs)
		if len(devs) > 1 { // the states are cut over the devices
			m := rules.Multi{}
			for _, d := range devs {
				m.Engines = append(m.Engines, rules.NewEngine(d))
			}
			engine = m
		}
	}
	first, _ := sharding.Range(st.N, sh)
	st = sharding.RulesStates(st, sh) // after the device choice, which weighs every state as one run does
	bar := a.newProgress(int64(st.N), "rules run")
	runStart := time.Now()
	phase.Enter(ctx, "rules.run")
	opts := rules.Options{
		Steps: plan.steps, UntilFixpoint: o.UntilFixpoint, Trace: plan.trace, Progress: bar,
		Schedule: plan.schedule, Layout: plan.layout,
		NoFiredPerStep: !plan.firedPerStep,             // only JSON and --stats show them
		Seed:           a.opts.Seed, FirstState: first, // the rules' draws: a shard's as the whole run's
		Record:      plan.record,
		Interpreter: o.Kernel == "interpreter", RequireGenerated: o.Kernel == "generated",
	}
	var res *rules.Result
	if frames != nil {
		res, err = frames.run(ctx, engine, prog, st, opts)
	} else {
		res, err = engine.Run(ctx, prog, st, opts)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return fmt.Errorf("rules: %w", err)
	}
	runTime := time.Since(runStart)
	doc := rulesDoc{Rules: path, Device: device, States: st.N, Steps: res.Steps, Mode: "steps",
		RuleNames: make([]string, len(prog.Rules)), Fired: res.Fired, ComputeSeconds: runTime.Seconds()}
	if device == "cuda" {
		doc.Schedule, doc.Layout, doc.Kernel = string(plan.schedule), string(plan.layout), res.Kernel
		if res.KernelNote != "" && o.Kernel != "interpreter" {
			a.log.Debugf("rules: the bytecode interpreter ran: %s", res.KernelNote)
		}
	}
	if o.UntilFixpoint {
		doc.Mode = "until-fixpoint"
		reached := res.FixpointReached
		doc.FixpointReached = &reached
		doc.StableAt = res.StableAt
	}
	if o.Generate > 0 || prog.Draws {
		seed := a.opts.Seed
		doc.Seed = &seed
	}
	for k, r := range prog.Rules {
		doc.RuleNames[k] = r.Name
	}
	doc.setRecords(prog, plan.record, res.Records)
	if err := a.writeRulesOutputs(ctx, outs, out, format, o, prog, st, res, &doc); err != nil {
		return err
	}
	total := int64(0)
	for _, n := range res.FiredTotal {
		total += n
	}
	a.log.Infof("%s: %d states, %d steps on %s in %.3g s: %d rule applications", path, st.N, res.Steps, device,
		time.Since(start).Seconds(), total)
	if frames != nil {
		a.log.Infof("%s: %d frames in %s", path, frames.wrote, frames.dir)
	}
	if o.UntilFixpoint && !res.FixpointReached {
		still := 0
		for _, t := range res.StableAt {
			if t == 0 {
				still++
			}
		}
		return fmt.Errorf("rules: no fixed point within %d steps: %d of %d states still change (the states were written, marked \"fixpoint_reached\": false)",
			plan.steps, still, st.N)
	}
	return nil
}

type rulesDoc struct {
	Rules           string    `json:"rules"`
	Device          string    `json:"device"`
	Schedule        string    `json:"schedule,omitempty"`
	Layout          string    `json:"layout,omitempty"`
	Kernel          string    `json:"kernel,omitempty"`
	Seed            *uint64   `json:"seed,omitempty"`
	Mode            string    `json:"mode"`
	Steps           int       `json:"steps"`
	FixpointReached *bool     `json:"fixpoint_reached,omitempty"`
	ComputeSeconds  float64   `json:"compute_s"`
	RuleNames       []string  `json:"rule_names"`
	Fired           [][]int64 `json:"fired_per_step"`
	StableAt        []int32   `json:"stable_at,omitempty"`
	Record          []string  `json:"record,omitempty"`
	Records         []jsonRow `json:"record_per_step,omitempty"`
	States          int       `json:"state_count"`
}

func (a *app) readRulesStates(ctx context.Context, path string, prog *rules.Program) (*rules.States, error) {
	data, err := input.ReadFile(ctx, path, input.States)
	if err != nil {
		return nil, asUsage(fmt.Errorf("states: %w", err))
	}
	f := bytes.NewReader(data)
	var st *rules.States
	switch {
	case strings.EqualFold(filepath.Ext(path), ".csv"):
		st, err = rules.ReadStatesCSV(f, path, prog)
	case strings.EqualFold(filepath.Ext(path), ".rle"):
		st, err = rules.ReadStatesRLE(f, path, prog)
	default:
		st, err = rules.ReadStatesJSON(f, path, prog)
	}
	if err != nil {
		return nil, fmt.Errorf("rules: states: %w", err)
	}
	if st.N == 0 {
		return nil, usageErrorf("states: %s holds no states", path)
	}
	return st, nil
}
