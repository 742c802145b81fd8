package rulesjob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/pattern"
	"github.com/procgen-dev/procgen/internal/shard"
)

// Run is `procgen rules run`: the rule file req.Rules applied to the
// states of o, the results written where req and o say.
func Run(ctx context.Context, env *job.Env, o Options, req Request) error {
	p, out, sh, err := prepare(env, o, req)
	if err != nil {
		return err
	}
	rc, err := chooseRule(env, req.Rules, o)
	if err != nil {
		return err
	}
	if p.sweep != nil {
		return runSweep(ctx, env, rc, out, o, p, p.sweep, sh)
	}
	return run(ctx, env, rc, out, o, p, sh)
}

func run(ctx context.Context, env *job.Env, rc ruleChoice, out string, o Options, p *plan, sh shard.Shard) error {
	path := rc.name
	env.Dev.Prefetch()
	start := time.Now()
	format, err := outputFormat(out, p.format)
	if err != nil {
		return err
	}
	p.firedPerStep = format == "json" || o.Stats != ""
	p.firedJSON = format == "json"
	inputs, err := checkInputs(env, rc.path, o, p)
	if err != nil {
		return err
	}
	outs, err := env.PlanOutputs(inputs, plannedPaths(out, o, p)...)
	if err != nil {
		return err
	}
	prog, err := load(ctx, env, rc, o, p)
	if err != nil {
		return err
	}
	st, err := loadStates(ctx, env, prog, o, p)
	if err != nil {
		return err
	}
	frames, err := checkPictures(format, prog, st, o, p, inputs)
	if err != nil {
		return err
	}
	engine, backend, closeDevices, err := openEngine(ctx, env, prog, st, p, engineFor(rc, prog, o))
	if err != nil {
		return err
	}
	defer closeDevices()
	first, _ := shard.Range(st.N, sh)
	st = shard.RulesStates(st, sh) // after the device choice, which weighs every state as one run does
	runStart := time.Now()
	res, err := execute(ctx, env, engine, frames, prog, st, o, p, first)
	if err != nil {
		return err
	}
	doc := newDoc(env, path, backend, prog, st, res, o, p, time.Since(runStart))
	if err := writeOutputs(ctx, outs, out, format, o, prog, st, res, &doc, rc.notation); err != nil {
		return err
	}
	return finish(env, path, backend, start, frames, st, res, o, p)
}

// outputFormat is the format of the result output: its extension's, or
// --format for standard output. A device, FIFO or descriptor (/dev/null,
// /dev/stdout) has no extension: it takes --format, as standard output
// does.
func outputFormat(out, format string) (string, error) {
	if out == "" || out == output.Stdout || job.IsStream(out) {
		return format, nil
	}
	switch strings.ToLower(filepath.Ext(out)) {
	case ".json":
		return "json", nil
	case ".csv":
		return "csv", nil
	case ".png":
		return "png", nil // the first states' boards (board.go)
	case ".rle":
		return "rle", nil // the first state's board as a Golly pattern
	case ".cells", ".mc":
		return strings.ToLower(filepath.Ext(out))[1:], nil // the same, as plain text or Macrocell
	}
	return "", job.Usagef("output %s: want a .json, .csv, .png, .rle, .cells or .mc file, or - for standard output", out)
}

// checkInputs checks the rule and states files and the default trace
// output, and returns the inputs no output may replace.
func checkInputs(env *job.Env, path string, o Options, p *plan) ([]string, error) {
	var inputs []string
	if path != "" { // else the rules come from a notation
		if err := job.CheckInput("rules", path); err != nil {
			return nil, err
		}
		inputs = append(inputs, path)
	}
	if o.States != "" {
		if err := job.CheckInput("rules: --states", o.States); err != nil {
			return nil, err
		}
		inputs = append(inputs, o.States)
	}
	if len(p.trace) > 0 && env.Origin("rules.trace-out") == "default" {
		// The default name is not the user's choice: a file of that name
		// is not this run's to replace.
		if _, err := os.Lstat(o.TraceOut); err == nil {
			return nil, job.Usagef("--trace: %s exists; name it with --trace-out %s to replace it, or choose another file", o.TraceOut, o.TraceOut)
		}
	}
	return inputs, nil
}

// load reads and compiles the rule file (or the notation's source) and
// parses --record against it.
func load(ctx context.Context, env *job.Env, rc ruleChoice, o Options, p *plan) (*rules.Program, error) {
	var prog *rules.Program
	var err error
	phase.Enter(ctx, "rules.compile")
	if rc.notation != nil {
		prog, err = compileNotation(*rc.notation, p.defines)
	} else {
		var src []byte
		if src, err = input.ReadFile(ctx, rc.path, input.Source); err != nil {
			return nil, job.AsUsage(fmt.Errorf("rule file: %w", err))
		}
		if isTable(rc.path) {
			prog, err = compileTable(src, rc.path, rc.patternRule, p.defines)
		} else if prog, err = rules.Compile(rc.path, src, p.defines); err != nil {
			err = fmt.Errorf("rules: %w", err)
		}
	}
	if err != nil {
		return nil, err
	}
	env.Log.Debugf("%s: %s", rc.name, prog)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.UntilFixpoint && prog.DrawsInCond {
		return nil, job.Usagef("--until-fixpoint: %v", strings.TrimPrefix(rules.ErrDrawsNoFixpoint.Error(), "rules: "))
	}
	if p.record, err = observables(prog, p.recordText); err != nil {
		return nil, err
	}
	return prog, nil
}

// loadStates generates or reads the states, checking their memory before
// they are allocated (generated) or once their number is known (read),
// and --trace against their number.
func loadStates(ctx context.Context, env *job.Env, prog *rules.Program, o Options, p *plan) (*rules.States, error) {
	var st *rules.States
	if o.Generate > 0 {
		if err := checkMemory(env, prog, o.Generate, p); err != nil {
			return nil, err
		}
		st = rules.Generate(prog, o.Generate, env.Seed)
	} else {
		var err error
		if st, err = readStates(ctx, o.States, prog); err != nil {
			return nil, err
		}
		if err := checkMemory(env, prog, st.N, p); err != nil {
			return nil, err
		}
	}
	for _, s := range p.trace {
		if s >= st.N {
			return nil, job.Usagef("--trace %d: there are %d states (0..%d)", s, st.N, st.N-1)
		}
	}
	return st, nil
}

// checkPictures refuses, before the run, pictures the states cannot make:
// -o boards.png, -o board.rle and --frames.
func checkPictures(format string, prog *rules.Program, st *rules.States, o Options, p *plan, inputs []string) (*framesPlan, error) {
	if format == "png" {
		if err := boardCheck(prog, st.N); err != nil {
			return nil, err
		}
	}
	if format == "rle" || format == "cells" || format == "mc" {
		if _, err := rules.BoardOf(prog); err != nil {
			return nil, job.Usagef("-o .%s: %v", format, err)
		}
	}
	if o.Frames == "" {
		return nil, nil
	}
	return framesCheck(o.Frames, o.FramesEvery, p.force, prog, st.N, p.steps, inputs)
}

// openEngine opens the device --device and auto's estimate of the work
// choose, and the engine on it: the CPU's, one GPU's (ge.make's), or the
// states cut over --devices. backend is "cpu" or "cuda"; closeDevices
// releases what was opened, once the outputs are written.
func openEngine(ctx context.Context, env *job.Env, prog *rules.Program, st *rules.States, p *plan,
	ge gpuEngine) (engine rules.Engine, backend string, closeDevices func(), err error) {
	job, work, items := "rules", 0.0, 0.0
	if env.Dev.Weighs() {
		job, work, items = ge.work(ctx, prog, st, p.steps)
	}
	newEngine := ge.make
	dev, err := env.Dev.OpenForItems(job, work, items)
	if err != nil {
		return nil, "", nil, err
	}
	if dev, err = deviceFits(env, p, prog, dev); err != nil {
		return nil, "", nil, err
	}
	if dev == nil {
		return rules.NewEngine(nil), "cpu", func() {}, nil
	}
	devs, err := env.Dev.More(dev)
	if err != nil {
		dev.Close()
		return nil, "", nil, err
	}
	closeDevices = func() {
		env.Dev.CloseMore(devs)
		dev.Close()
	}
	if len(devs) > 1 { // the states are cut over the devices
		m := rules.Multi{}
		for _, d := range devs {
			m.Engines = append(m.Engines, newEngine(d))
		}
		return m, "cuda", closeDevices, nil
	}
	return newEngine(dev), "cuda", closeDevices, nil
}

// execute runs the rules on the (shard's) states; first is the index of
// the shard's first state in the whole run.
func execute(ctx context.Context, env *job.Env, engine rules.Engine, frames *framesPlan, prog *rules.Program, st *rules.States,
	o Options, p *plan, first int) (*rules.Result, error) {
	bar := env.Progress(int64(st.N), "rules run")
	phase.Enter(ctx, "rules.run")
	opts := rules.Options{
		Steps: p.steps, UntilFixpoint: o.UntilFixpoint, Trace: p.trace, Progress: bar,
		Schedule: p.schedule, Layout: p.layout,
		NoFiredPerStep: !p.firedPerStep,             // only JSON and --stats show them
		Seed:           env.Seed, FirstState: first, // the rules' draws: a shard's as the whole run's
		Record:      p.record,
		Interpreter: o.Kernel == "interpreter", RequireGenerated: o.Kernel == "generated",
	}
	var res *rules.Result
	var err error
	if frames != nil {
		res, err = frames.run(ctx, engine, prog, st, opts)
	} else {
		res, err = engine.Run(ctx, prog, st, opts)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, fmt.Errorf("rules: %w", err)
	}
	return res, nil
}

// finish logs the run's summary and fails a run that did not reach its
// fixed point (its states are written by then).
func finish(env *job.Env, path, backend string, start time.Time, frames *framesPlan, st *rules.States, res *rules.Result, o Options, p *plan) error {
	total := int64(0)
	for _, n := range res.FiredTotal {
		total += n
	}
	env.Log.Infof("%s: %d states, %d steps on %s in %.3g s: %d rule applications", path, st.N, res.Steps, backend,
		time.Since(start).Seconds(), total)
	if frames != nil {
		env.Log.Infof("%s: %d frames in %s", path, frames.wrote, frames.dir)
	}
	if o.UntilFixpoint && !res.FixpointReached {
		still := 0
		for _, t := range res.StableAt {
			if t == 0 {
				still++
			}
		}
		return fmt.Errorf("rules: no fixed point within %d steps: %d of %d states still change (the states were written, marked \"fixpoint_reached\": false)",
			p.steps, still, st.N)
	}
	return nil
}

// readStates reads the --states file: CSV, Golly RLE or JSON, by its
// extension.
func readStates(ctx context.Context, path string, prog *rules.Program) (*rules.States, error) {
	data, err := input.ReadFile(ctx, path, input.States)
	if err != nil {
		return nil, job.AsUsage(fmt.Errorf("states: %w", err))
	}
	f := bytes.NewReader(data)
	var st *rules.States
	switch {
	case strings.EqualFold(filepath.Ext(path), ".csv"):
		st, err = rules.ReadStatesCSV(f, path, prog)
	case strings.EqualFold(filepath.Ext(path), ".rle"):
		st, err = rules.ReadStatesRLE(f, path, prog)
	case pattern.Format(path) != "":
		st, err = readPatternStates(data, path, prog)
	default:
		st, err = rules.ReadStatesJSON(f, path, prog)
	}
	if err != nil {
		return nil, fmt.Errorf("rules: states: %w", err)
	}
	if st.N == 0 {
		return nil, job.Usagef("states: %s holds no states", path)
	}
	return st, nil
}
