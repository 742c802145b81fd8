package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
)

type lsysOptions struct {
	Steps       int     `mapstructure:"steps"`
	MaxModules  uint64  `mapstructure:"max-modules"`
	Cylinders   int     `mapstructure:"cylinders"`
	View        string  `mapstructure:"view"`
	ImageWidth  int     `mapstructure:"image-width"`
	ImageHeight int     `mapstructure:"image-height"`
	LineScale   float64 `mapstructure:"line-scale"`
	LineWidth   string  `mapstructure:"line-width"`
	Stats       bool    `mapstructure:"stats"`
	allSteps    bool    // --all-steps: a .txt output holds every step's string
	up          string  // --up: the world direction shown upwards in the preview
	// stdoutFormat is the extension -o - writes, from --format.
	stdoutFormat string
}

func (o *lsysOptions) validate() error {
	switch {
	case o.Steps < -1 || o.Steps > maxLsysSteps:
		return usageErrorf("invalid --steps %d: want 0..%d (-1: the system's derivation length)", o.Steps, maxLsysSteps)
	case o.MaxModules < 1 || o.MaxModules > math.MaxInt64:
		return usageErrorf("invalid --max-modules %d: want 1..2^63-1", o.MaxModules)
	case o.Cylinders < 0 || o.Cylinders == 1 || o.Cylinders == 2 || o.Cylinders > 64:
		return usageErrorf("invalid --cylinders %d: want 0 (lines) or 3..64 sides", o.Cylinders)
	case o.ImageWidth < 16 || o.ImageWidth > 1<<15 || o.ImageHeight < 16 || o.ImageHeight > 1<<15:
		return usageErrorf("invalid image size %dx%d: want 16..32768 pixels a side", o.ImageWidth, o.ImageHeight)
	case !(o.LineScale > 0) || o.LineScale > 1e6:
		return usageErrorf("invalid --line-scale %g: want a positive number", o.LineScale)
	}
	switch o.LineWidth {
	case "auto", "pixels", "world", "relative":
	default:
		return usageErrorf("invalid --line-width %q: want auto, pixels, world or relative", o.LineWidth)
	}
	if _, err := turtle.ParseUp(o.up); err != nil {
		return usageErrorf("invalid --up %q: want x, y, z, -x, -y, -z or a direction x,y,z", o.up)
	}
	if _, err := turtle.ParseView(o.View); err != nil {
		return usageErrorf("invalid --view %q: want front, back, side, left, right, top, bottom or x,y,z", o.View)
	}
	return nil
}

// lsysOutputs are the formats -o can name, by extension.
var lsysOutputs = map[string]string{".obj": "OBJ geometry", ".png": "PNG preview", ".json": "JSON statistics",
	".txt": "the derived string", ".glb": "glTF binary"}

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
	var format, up, shardSpec string
	cmd := &cobra.Command{
		Use:   "derive SYSTEM.l|DIR ... [-n STEPS] [-o out.obj|out.png|out.json ...]",
		Short: "Derive an L-system and interpret it into geometry",
		Long: `Derive an L-system written in the notation of The Algorithmic Beauty of Plants
and cpfg (#define, axiom:, productions with contexts l < p > r, conditions
": cond", probabilities, parametric modules, ignore:, homomorphism, the cut
symbol %; configs/lsys/README.md describes it) and interpret the result with
a 3D turtle (F f G g + - & ^ \ / | [ ] ! ' { . } $ and tropism).

Each -o names an output by its extension: .obj (segments as OBJ lines, or
tubes with --cylinders N), .png (an orthographic preview along --view, fitted
to the image) or .json (statistics: per-step lengths, totals, geometry,
timings). Several -o may be given. Without -o the statistics go to stdout.

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
  procgen lsys derive configs/lsys/ -o 'plants/%s.png' -o 'plants/%s.json' --shard 0/2`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o lsysOptions
			if err := a.decode("lsys", &o); err != nil {
				return err
			}
			o.allSteps, o.up = allSteps, up
			if err := o.validate(); err != nil {
				return err
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			for _, out := range outs {
				if out == output.Stdout || isStream(out) {
					if _, ok := lsysOutputs["."+format]; !ok || format == "png" {
						return usageErrorf("invalid --format %q: want txt, json, obj or glb for -o -", format)
					}
					o.stdoutFormat = "." + format
					continue
				}
				if _, ok := lsysOutputs[strings.ToLower(filepath.Ext(out))]; !ok {
					return usageErrorf("output %q: want a .obj, .png, .json or .txt file, or a .glb (glTF)", out)
				}
			}
			return a.lsysDeriveBatch(cmd.Context(), args, outs, sh, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&outs, "output", "o", nil, "output `FILE`: .obj, .png, .json, .txt or .glb, or - for standard output (repeatable)")
	f.StringVar(&format, "format", "txt", "`FORMAT` of -o - (standard output) or a device: txt (the derived string), json, obj or glb")
	a.bindFlag(f, "lsys.steps", "steps", "n")
	a.bindFlag(f, "lsys.max-modules", "max-modules", "")
	a.bindFlag(f, "lsys.cylinders", "cylinders", "")
	a.bindFlag(f, "lsys.view", "view", "")
	a.bindFlag(f, "lsys.image-width", "image-width", "")
	a.bindFlag(f, "lsys.image-height", "image-height", "")
	a.bindFlag(f, "lsys.line-scale", "line-scale", "")
	a.bindFlag(f, "lsys.line-width", "line-width", "")
	a.bindFlag(f, "lsys.stats", "stats", "")
	f.BoolVar(&allSteps, "all-steps", false, ".txt: write every step's string w0..wn, one line each (default: the last)")
	addShardFlag(f, &shardSpec)
	f.StringVar(&up, "up", "", "PNG: the world `DIRECTION` shown upwards (x, -x, y, ... or x,y,z; default +Y, or -Z looking along Y)")
	return cmd
}

// lsysReport is the JSON statistics output.
type lsysReport struct {
	System     string           `json:"system"`
	Source     string           `json:"source"`
	Backend    string           `json:"backend"`
	Seed       uint64           `json:"seed"`
	Steps      []lsys.StepStats `json:"steps"`
	Total      int64            `json:"total_modules"`
	Final      int64            `json:"final_modules"`
	Geometry   *turtle.Stats    `json:"geometry,omitempty"`
	DeriveMS   float64          `json:"derive_ms"`
	InterpMS   float64          `json:"interpret_ms,omitempty"`
	ModulesPMS float64          `json:"derive_modules_per_ms"`
	setsWidth  bool             // the interpreted string holds '!' or '#'
	text       lsysText         // for .txt outputs
}

func (a *app) lsysDerive(ctx context.Context, path string, outs []string, o lsysOptions) error {
	a.prefetchDevice()
	if err := checkInputFile("lsys", path); err != nil {
		return err
	}
	plan, err := a.planOutputs([]string{path}, outs...)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(outs, func(out string) bool { return strings.EqualFold(filepath.Ext(out), ".png") }) {
		if err := a.checkMemory(fmt.Sprintf("lsys: a %dx%d preview", o.ImageWidth, o.ImageHeight),
			float64(o.ImageWidth)*float64(o.ImageHeight)*lsysPixelBytes, "--image-width/--image-height"); err != nil {
			return err
		}
	}
	phase.Enter(ctx, "lsys.parse")
	sys, err := syntax.ParseFileContext(ctx, path)
	if err != nil {
		return fmt.Errorf("lsys: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	steps := o.Steps
	if steps < 0 {
		steps = sys.Steps
	}
	if steps > maxLsysSteps {
		return usageErrorf("lsys: %s derives %d steps, over the limit of %d: set -n", path, steps, maxLsysSteps)
	}
	maxModules := a.lsysModuleCap(o)
	work := 0.0
	if a.autoWeighsJob("lsys") {
		work = lsysWork(ctx, sys, steps, a.opts.Seed, maxModules)
	}
	var dev *gpu.Device
	if why := lsys.GPUSupports(sys); why != nil && a.opts.Device == "auto" {
		a.log.Debugf("device: cpu (auto: %v)", why)
	} else if dev, err = a.openDeviceFor("lsys", work); err != nil {
		return err
	}
	defer a.releaseDevice(dev)
	rep := lsysReport{System: sys.Name, Source: path, Backend: backendName(dev), Seed: a.opts.Seed}
	var mu sync.Mutex
	bar := a.newProgress(int64(steps), "derive "+filepath.Base(path))
	start := time.Now()
	phase.Enter(ctx, "lsys.derive")
	// On a GPU the string stays in device memory from the axiom to the
	// geometry; it comes back only for a .txt output.
	pipe := turtle.NewPipeline(dev)
	defer pipe.Close()
	d, err := pipe.Derive(ctx, sys, lsys.DeriveOptions{
		Steps: steps, Seed: a.opts.Seed, MaxModules: maxModules,
		Progress: func(done, total int64) { mu.Lock(); bar(done, total); mu.Unlock() },
	})
	var limit *lsys.LimitError
	if errors.As(err, &limit) && uint64(maxModules) < o.MaxModules {
		return fmt.Errorf("%s: %w (the cap follows from --max-memory %s: raise it to go further)",
			path, err, formatBytes(float64(a.memoryLimit())))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	derived := time.Since(start)
	rep.Steps, rep.Total = d.Steps, d.Total
	rep.Final = d.Steps[len(d.Steps)-1].Modules
	rep.text = lsysText{sys: sys, allSteps: o.allSteps, deriver: lsys.NewDeriver(dev),
		opts: lsys.DeriveOptions{Steps: steps, Seed: a.opts.Seed, MaxModules: maxModules}}
	if needsText(outs, o) && !o.allSteps {
		if rep.text.final, err = pipe.Final(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	rep.DeriveMS = derived.Seconds() * 1e3
	rep.ModulesPMS = float64(d.Total) / max(rep.DeriveMS, 1e-9)
	a.log.Debugf("%s: derived %d steps, %d modules written, %.1f ms on %s", path, steps, d.Total, rep.DeriveMS, rep.Backend)

	var geom *turtle.Geometry
	if needsGeometry(outs, o) {
		n, err := pipe.Homomorphism(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		phase.Enter(ctx, "lsys.interpret")
		bar := a.newProgress(int64(n), "interpret")
		start := time.Now()
		geom, err = pipe.Interpret(ctx, turtle.Options{
			Progress: func(done, total int64) { mu.Lock(); bar(done, total); mu.Unlock() },
		})
		if err != nil {
			return fmt.Errorf("%s: interpret: %w", path, err)
		}
		rep.InterpMS = time.Since(start).Seconds() * 1e3
		if rep.setsWidth, err = pipe.Has('!', '#'); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rep.Geometry = &geom.Stats
		a.log.Debugf("%s: interpreted %d modules into %d segments, %d polygons, %.1f ms", path, n,
			geom.Stats.Segments, geom.Stats.Polygons, rep.InterpMS)
	}
	// Render the preview before writing anything, so that a failure there
	// leaves no output of this run behind.
	var preview *image.NRGBA
	if slices.ContainsFunc(outs, func(out string) bool { return strings.EqualFold(filepath.Ext(out), ".png") }) {
		phase.Enter(ctx, "lsys.preview")
		view, _ := turtle.ParseView(o.View) // validated
		view.Up, _ = turtle.ParseUp(o.up)
		if preview, err = turtle.Render(ctx, geom, turtle.RenderOptions{
			Width: o.ImageWidth, Height: o.ImageHeight, Margin: min(o.ImageWidth, o.ImageHeight) / 20,
			View: view, Background: color.NRGBA{255, 255, 255, 255}, Foreground: color.NRGBA{24, 64, 24, 255},
			WidthScale: o.LineScale, Units: lsysWidthUnits(o.LineWidth, geom, rep.setsWidth),
		}); err != nil {
			return fmt.Errorf("%s: preview: %w", path, err)
		}
	}
	writes := make([]output.Write, len(outs))
	for i, out := range outs {
		writes[i] = output.Write{Path: out, Func: a.lsysEncoder(ctx, lsysFormat(out, o), geom, preview, &rep, o)}
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, writes); err != nil {
		return err
	}
	for _, out := range outs {
		if out != output.Stdout {
			a.log.Infof("wrote %s", out)
		}
	}
	if o.Stats || len(outs) == 0 {
		w := a.stdout
		if len(outs) > 0 {
			w = a.stderr
		}
		return writeLsysStats(w, &rep)
	}
	return nil
}

func needsText(outs []string, o lsysOptions) bool {
	for _, out := range outs {
		if lsysFormat(out, o) == ".txt" {
			return true
		}
	}
	return false
}

func needsGeometry(outs []string, o lsysOptions) bool {
	for _, out := range outs {
		if ext := lsysFormat(out, o); ext == ".obj" || ext == ".png" || ext == ".glb" {
			return true
		}
	}
	return false
}

func backendName(dev *gpu.Device) string {
	if dev == nil {
		return "cpu"
	}
	return "cuda: " + dev.Info().Name
}

// lsysEncoder is the writer of one output format (by extension, or the
// --format of -o -).
func (a *app) lsysEncoder(ctx context.Context, format string, g *turtle.Geometry, preview *image.NRGBA,
	rep *lsysReport, o lsysOptions) func(w io.Writer) error {
	switch format {
	case ".json":
		return func(w io.Writer) error { return output.EncodeJSON(w, rep) }
	case ".obj":
		return func(w io.Writer) error { return encodeLsysOBJ(ctx, w, g, o, rep.setsWidth) }
	case ".png":
		return func(w io.Writer) error { return output.EncodePNG(ctx, w, preview, output.Depth8) }
	case ".txt":
		return func(w io.Writer) error { return encodeLsysText(ctx, w, &rep.text) }
	case ".glb":
		return func(w io.Writer) error { return encodeLsysGLB(ctx, w, g, o, rep.setsWidth) }
	}
	return func(io.Writer) error { return fmt.Errorf("lsys: output format %q: unknown", format) }
}

// writeLsysStats prints the per-step lengths and the totals as a table.
func writeLsysStats(w io.Writer, r *lsysReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "step\tmodules\tparameters\t\n")
	for _, s := range r.Steps {
		fmt.Fprintf(tw, "%d\t%d\t%d\t\n", s.Step, s.Modules, s.Params)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "total modules written (|w_0|+...+|w_n|): %d\nderivation: %.2f ms on %s (%.0f modules/ms)\n",
		r.Total, r.DeriveMS, r.Backend, r.ModulesPMS)
	if err == nil && r.Geometry != nil {
		_, err = fmt.Fprintf(w, "geometry: %d segments, %d polygons, max depth %d; interpretation %.2f ms\n",
			r.Geometry.Segments, r.Geometry.Polygons, r.Geometry.MaxDepth, r.InterpMS)
	}
	return err
}
