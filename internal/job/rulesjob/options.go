// Package rulesjob is `procgen rules run` below the command line: the
// options checked, the shard, the outputs planned, memory estimated, the
// device chosen, the rules run (in parts when --frames draws), and the
// states, statistics, trace and records handed to the output plan. It
// takes a *job.Env and the command line's options; it knows nothing of
// cobra or viper.
package rulesjob

import (
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/shard"
)

// Options are the rules.* settings (flags, PROCGEN_RULES_*, the config
// file's rules: section), decoded by the command layer.
type Options struct {
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
	Rule          string   `mapstructure:"rule"` // a Golly notation instead of a rule file (golly.go)
	Replicates    int      `mapstructure:"replicates"`
}

// Request is the rest of a `rules run` command line: what is not a rules.*
// setting, and what the job needs of the process that job.Env does not
// carry.
type Request struct {
	Rules   string   // the rule file; "" with --rule or an RLE pattern's rule
	Outputs []string // every -o given: one at most is accepted
	Format  string   // --format of standard output: json or csv
	Force   bool     // --frames into a non-empty directory
	JIT     string   // the global --jit setting: cached, always or never
	// Shard resolves --shard and a job array's variables; called once the
	// options are checked, so that a bad option is reported first.
	Shard func() (shard.Shard, error)
	// Name says how the user gave a global setting ("--jit", "PROCGEN_JIT",
	// "jit (procgen.yaml)"), for messages.
	Name func(key string) string
}

// defaultCap is the step cap of --until-fixpoint without --steps.
const defaultCap = 10000

type plan struct {
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
	// sweep: -D ranges or lists, or --replicates above 1 (sweep.go); nil
	// for one run.
	sweep *sweepPlan
	// settingName says how a global setting was given (Request.Name).
	settingName func(key string) string
}

func (o *Options) validate() (*plan, error) {
	p := &plan{defines: map[string]string{}}
	switch {
	case o.States == "" && o.Generate == 0:
		return nil, job.Usagef("no states: give --states FILE (JSON or CSV) or --generate N")
	case o.States != "" && o.Generate != 0:
		return nil, job.Usagef("--states and --generate both given: choose one")
	case o.Generate < 0 || o.Generate > maxStates:
		return nil, job.Usagef("invalid --generate %d: want 1..%d states", o.Generate, maxStates)
	case o.Steps < -1 || o.Steps > maxSteps:
		return nil, job.Usagef("invalid --steps %d: want 0..%d", o.Steps, maxSteps)
	}
	p.steps = o.Steps
	if p.steps < 0 {
		p.steps = 1
		if o.UntilFixpoint {
			p.steps = defaultCap
		}
	}
	var err error
	if p.sweep, err = o.sweep(p); err != nil {
		return nil, err
	}
	if p.schedule, err = rules.ParseSchedule(o.Schedule); err != nil {
		return nil, job.Usagef("--schedule: %v", err)
	}
	if p.layout, err = rules.ParseLayout(strings.ToUpper(o.Layout)); err != nil {
		return nil, job.Usagef("--layout: %v", err)
	}
	for _, t := range o.Trace {
		if strings.TrimSpace(t) == "" {
			continue
		}
		s, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil || s < 0 {
			return nil, job.Usagef("invalid --trace entry %q: want state numbers (0-based)", t)
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
		return nil, job.Usagef("invalid --kernel %q: want auto, generated or interpreter", o.Kernel)
	}
	if o.RecordOut != "" && len(p.recordText) == 0 {
		return nil, job.Usagef("--record-out %s without --record: name what to record (--record 'sum(c)')", o.RecordOut)
	}
	return p, nil
}

// prepare checks the command line as a whole before any file is touched:
// the options, the format, the one -o, the shard and what it can split,
// and the kernel against --jit. It returns the plan, the result output
// (a shard's own file) and the shard.
func prepare(env *job.Env, o Options, req Request) (*plan, string, shard.Shard, error) {
	p, err := o.validate()
	if err != nil {
		return nil, "", shard.Shard{}, err
	}
	if req.Format != "json" && req.Format != "csv" {
		return nil, "", shard.Shard{}, job.Usagef("invalid --format %q: want json or csv", req.Format)
	}
	p.format = req.Format
	out := ""
	if len(req.Outputs) > 1 {
		// -o was a plain string: all but the last were dropped, exit 0.
		return nil, "", shard.Shard{}, job.Usagef("-o given %d times (%s): rules writes one result file, its format from the extension; --stats, --trace-out and --record-out write the others", len(req.Outputs), strings.Join(req.Outputs, ", "))
	}
	if len(req.Outputs) == 1 {
		out = req.Outputs[0]
	}
	sh, err := req.Shard()
	if err != nil {
		return nil, "", shard.Shard{}, err
	}
	if out, sh, err = shardOutput(env, out, o, p, sh); err != nil {
		return nil, "", shard.Shard{}, err
	}
	p.force = req.Force
	p.settingName = req.Name
	if o.Kernel == "generated" && req.JIT == "never" {
		return nil, "", shard.Shard{}, job.Usagef("--kernel generated with %s never: the generated kernels are compiled by the driver's JIT; use --jit cached or always, or --kernel interpreter", req.Name("jit"))
	}
	return p, out, sh, nil
}

// sweep reads -D into p.defines and the sweep, if any.
func (o *Options) sweep(p *plan) (*sweepPlan, error) {
	fixed, axes, err := parseDefines(o.Define)
	if err != nil {
		return nil, job.Usagef("%v", err)
	}
	p.defines = fixed
	if o.Replicates < 0 || o.Replicates > maxCombos {
		return nil, job.Usagef("invalid --replicates %d: want 1..%d", o.Replicates, maxCombos)
	}
	reps := max(o.Replicates, 1)
	if len(axes) == 0 && reps == 1 {
		return nil, nil
	}
	sp := &sweepPlan{axes: axes, combos: combinations(axes), replicates: reps}
	if int64(len(sp.combos))*int64(reps) > maxCombos {
		return nil, job.Usagef("a sweep of %d combinations x %d replicates: more than %d runs", len(sp.combos), reps, maxCombos)
	}
	return sp, nil
}
