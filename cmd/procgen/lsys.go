package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/lsysjob"
)

func (a *app) newLsysCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lsys",
		Short: "L-systems: derive and interpret with a 3D turtle",
	}
	cmd.AddCommand(a.newLsysDeriveCmd())
	return cmd
}

func (a *app) newLsysDeriveCmd() *cobra.Command {
	var outs []string
	var allSteps bool
	var stepTime float64
	var format, up, shardSpec string
	cmd := &cobra.Command{
		Use:   "derive SYSTEM.l|DIR ... [-n STEPS] [-o out.obj|out.png|out.json ...]",
		Short: "Derive an L-system and interpret it into geometry",
		Long: `Derive an L-system written in the notation of The Algorithmic Beauty of Plants
and cpfg (#define, axiom:, productions with contexts l < p > r, conditions
": cond", probabilities, parametric modules, ignore:, homomorphism, the cut
symbol %; configs/lsys/README.md describes it) and interpret the result with
a 3D turtle (F f G g + - & ^ \ / | [ ] ! ' ; , { . } $ and tropism).

Query modules ?P(x,y,z), ?H, ?U and ?L (ABOP 1.10) are set after every step
to the turtle's position, heading, up or left vector where they stand (on the
CPU; --device auto keeps such systems there). ran(x), nran(mean, sd) and
uniform(a, b) in expressions draw numbers keyed by --seed, step and module.

Each -o names an output by its extension: .obj, .glb (binary glTF) or .ply
(binary PLY) meshes, .png (an orthographic preview along --view, fitted to
the image), .json (statistics: per-step lengths, totals, geometry, timings)
or .txt (the derived string). Several -o may be given. Without -o the
statistics go to stdout.

Meshes fit the input: --stems auto writes a planar (2D) system to GLB and PLY
as lines, or as flat ribbons where it sets widths with '!' or '#', and a 3D
one as tubes; OBJ gets lines unless --cylinders N asks for tubes. --stems
line|ribbon|tube chooses; --stems smooth draws each unbranched run of
segments as one generalised cylinder, smooth through turns, with texture
coordinates (u around, v along in circumferences). GLB and PLY hold the whole mesh until written: its
memory is estimated before it is built and refused over --max-memory.
Colour indices (' ; to add 1, , to subtract 1, or set with a parameter)
become one material each; --color-map FILE gives their colours (GLB
materials, PLY vertex colours, and an .mtl beside an OBJ): a cpfg .map, or
text lines of R G B.
~X draws the surface X at the turtle, in its frame (X's parameter scales
it): built in are L leaf, P petal, S sepal and K flower; --surface X=FILE.obj,
X=FILE.glb or X=FILE.s (a cpfg surface: Bézier patches, its contact point at the
turtle, scaled by 1/SIZE, tessellated at --surface-precision) adds or
replaces one. GLB writes each surface once and instances it
(EXT_mesh_gpu_instancing); OBJ and PLY repeat it.

Growth: --all-steps with -o 'grow/%03d.glb' (.obj, .ply) writes the mesh of
every step 0..n, each as -n k would; with -o grow.glb one GLB holds a node per
step, shown in turn by a scale animation (--step-time seconds a step).

Derivation runs on the GPU with --device cuda/auto where one is present; the
derived string is the same on both backends for a given --seed (stochastic
rules draw from a counter-based generator keyed by seed, step and position).
--max-modules stops a runaway derivation before it allocates the step that
would exceed it.

Several systems (files, or the .l files of a directory) derive one after
another with the same options; each -o is then a pattern whose %s is each
system's file name without extension (out/%s.obj). A failing system is
reported and the others go on. --shard I/N derives only systems k with
k mod N = I (files in order, a directory's in name order), so the N runs of
a Slurm job array (SLURM_ARRAY_TASK_ID/COUNT) or Kubernetes indexed Job
(JOB_COMPLETION_INDEX with PROCGEN_SHARD_COUNT) write one run's files; the
flag wins over the environment, and a single system runs whole under a job
array's variables.`,
		Example: `  procgen lsys derive configs/lsys/plant2d.l -o plant.png
  procgen lsys derive configs/lsys/tree3d.l -n 8 --cylinders 8 -o tree.obj -o tree.json
  procgen lsys derive configs/lsys/stochastic-plant.l --seed 7 --view front -o plant.png
  procgen lsys derive configs/lsys/koch-island.l -n 4 --stats
  procgen lsys derive configs/lsys/koch-island.l -n 7 -o koch.glb
  procgen lsys derive configs/lsys/tree3d.l --color-map configs/lsys/plant.colors -o tree.ply
  procgen lsys derive configs/lsys/lychnis-fig33.l --surface L=petal -o lychnis.glb
  procgen lsys derive configs/lsys/tree3d.l -n 5 --all-steps -o grow.glb
  procgen lsys derive configs/lsys/ -o 'plants/%s.png' -o 'plants/%s.json' --shard 0/2`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o lsysjob.Options
			if err := a.decode("lsys", &o); err != nil {
				return err
			}
			o.AllSteps, o.Up, o.Format, o.StepTime = allSteps, up, format, stepTime
			if err := o.Validate(); err != nil {
				return err
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			return lsysjob.Run(cmd.Context(), a.env(), args, outs, sh, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&outs, "output", "o", nil, "output `FILE`: .obj, .png, .json, .txt, .glb or .ply, or - for standard output (repeatable)")
	f.StringVar(&format, "format", "txt", "`FORMAT` of -o - (standard output) or a device: txt (the derived string), json, obj, glb or ply")
	a.bindFlag(f, "lsys.steps", "steps", "n")
	a.bindFlag(f, "lsys.max-modules", "max-modules", "")
	a.bindFlag(f, "lsys.cylinders", "cylinders", "")
	a.bindFlag(f, "lsys.stems", "stems", "")
	a.bindFlag(f, "lsys.color-map", "color-map", "")
	a.bindFlag(f, "lsys.surface", "surface", "")
	a.bindFlag(f, "lsys.surface-precision", "surface-precision", "")
	a.bindFlag(f, "lsys.view", "view", "")
	a.bindFlag(f, "lsys.image-width", "image-width", "")
	a.bindFlag(f, "lsys.image-height", "image-height", "")
	a.bindFlag(f, "lsys.line-scale", "line-scale", "")
	a.bindFlag(f, "lsys.line-width", "line-width", "")
	a.bindFlag(f, "lsys.stats", "stats", "")
	f.BoolVar(&allSteps, "all-steps", false, ".txt: write every step's string w0..wn, one line each (default: the last); .glb: a node per step, animated; -o 'grow/%03d.obj': a mesh per step")
	f.Float64Var(&stepTime, "step-time", 1, "--all-steps GLB: the `SECONDS` each step is shown in the growth animation")
	addShardFlag(f, &shardSpec)
	f.StringVar(&up, "up", "", "PNG: the world `DIRECTION` shown upwards (x, -x, y, ... or x,y,z; default +Y, or -Z looking along Y)")
	return cmd
}
