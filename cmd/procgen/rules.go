package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/rulesjob"
)

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
	var format, shardSpec string
	var outs []string
	var force bool
	cmd := &cobra.Command{
		Use:   "run [RULES.rules | --rule NOTATION] (--states FILE | --generate N) [--steps N | --until-fixpoint] [-o out.json|out.csv]",
		Short: "Apply a rule set to many independent states in parallel",
		Long:  rulesLong,
		Example: `  procgen rules run configs/rules/eca.rules --generate 1000 -D RULE=110 --steps 100 -o eca.json
  procgen rules run configs/rules/life.rules --states boards.json --until-fixpoint --steps 500 -o final.csv
  procgen rules run configs/rules/sandpile.rules --generate 64 --until-fixpoint --stats fired.csv
  procgen rules run configs/rules/synthetic.rules --generate 2048 --schedule simple --layout A -o out.json
  procgen rules run configs/rules/life.rules --generate 10 --steps 8 --trace 0,3 --trace-out glider.jsonl
  procgen rules run --rule B36/S23:T128,128 --generate 4 --steps 100 -o highlife.png
  procgen rules run --states gun.rle --steps 120 -o gun120.rle   # the pattern's rule = line (else B3/S23)`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o rulesjob.Options
			if err := a.decode("rules", &o); err != nil {
				return err
			}
			file := ""
			if len(args) == 1 {
				file = args[0]
			}
			return rulesjob.Run(cmd.Context(), a.env(), o, rulesjob.Request{Rules: file, Outputs: outs, Format: format,
				Force: force, JIT: a.opts.JIT, Shard: func() (shard, error) { return a.shardOf(shardSpec) }, Name: a.settingName})
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&outs, "output", "o", nil, "write the final states to `FILE`: .json (with statistics), .csv, .png (the first 16 boards) or .rle (the first board, Golly RLE); - or none: standard output in --format")
	f.StringVar(&format, "format", "json", "`FORMAT` of standard output: json or csv")
	addShardFlag(f, &shardSpec)
	f.BoolVar(&force, "force", false, "write --frames into an existing, non-empty directory (frames of the same names are replaced, other files left alone)")
	for _, k := range []string{"states", "generate", "steps", "until-fixpoint", "schedule", "layout", "trace", "trace-out", "stats",
		"record", "record-out", "frames", "frames-every", "kernel", "rule", "replicates"} {
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
Figure 6), A (each state contiguous) or B (transposed). A two-state B/S
rule given by notation (--rule B3/S23, an RLE's rule line; no Hensel letters,
Moore neighbourhood) runs bit-packed on the GPU instead, 32 cells a word
(the JSON says "kernel": "packed"; --record counts its live cells on the
device), unless --kernel names generated or interpreter, a cell holds
another value, or --trace or a sweep needs the engine's own kernels. Results are the same on every backend, bit
for bit for int state; float += sums may differ in the last bits on the GPU
(the order of the additions).

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

Golly: --rule NOTATION runs one of Golly's rules without a rule file:
B3/S23 (also B3S23, S23/B3, 23/3), Generations /2/3 or B2/S/C3, Hensel
letters B2-a/S12, Larger than Life R2,C0,M1,S2..3,B3..3,NM, the von Neumann
(V) or hexagonal (H) suffix, and a :T<w>,<h> torus or :P<w>,<h> plane
(without one: a bounded plane of 64x64, -D W=... -D H=... to resize). An
RLE --states file without a rule file or --rule runs its rule = line
(B3/S23 when it has none); --rule and a pattern's rule that differ are an
error (exit 2). -o x.rle then writes the rule = line.

Faults - an index out of range, a division by zero - stop the run with the
rule, the state, the index and the step, and nothing is written.

--shard I/N runs the I-th of N contiguous ranges of the states and writes
their CSV rows (-o final.%03d.csv, the verb taking I, or --format csv): the
header and the parts' rows in shard order are one run's CSV. JSON, --stats
and --trace are whole-run outputs and are not split.

` + exitCodeHelp
