// Package lsysjob is the job of 'procgen lsys derive': it plans a run
// (input, outputs, memory), derives the L-system on the device the policy
// opens, interprets it with the turtle and hands the outputs (OBJ, GLB, PNG
// preview, JSON statistics, the derived string) to the output plan. Several
// systems run one after another through the batch runner.
package lsysjob

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/lsys/cpfg"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
	"github.com/procgen-dev/procgen/internal/output"
)

// Options are the settings of lsys derive: the keys under lsys. of the
// configuration, and the flags that are not configuration keys.
type Options struct {
	Steps       int     `mapstructure:"steps"`
	MaxModules  uint64  `mapstructure:"max-modules"`
	Cylinders   int     `mapstructure:"cylinders"`
	View        string  `mapstructure:"view"`
	ImageWidth  int     `mapstructure:"image-width"`
	ImageHeight int     `mapstructure:"image-height"`
	LineScale   float64 `mapstructure:"line-scale"`
	LineWidth   string  `mapstructure:"line-width"`
	Stats       bool    `mapstructure:"stats"`
	// Stems is how segments become mesh geometry: auto, line, ribbon, tube
	// or smooth (generalised cylinders).
	Stems string `mapstructure:"stems"`
	// ColorMap is a colour map file colouring the colour indices.
	ColorMap string `mapstructure:"color-map"`
	// Surface are --surface X=leaf|petal|sepal|flower|FILE.obj|FILE.s values.
	Surface []string `mapstructure:"surface"`
	// SurfacePrecision is the steps along each side of a cpfg surface
	// patch; 0: the file's PRECISION line, else cpfg's 5.
	SurfacePrecision int  `mapstructure:"surface-precision"`
	AllSteps         bool `mapstructure:"-"` // --all-steps: a .txt output holds every step's string
	// StepTime is --step-time: the seconds each step is shown in an
	// --all-steps GLB's animation.
	StepTime float64 `mapstructure:"-"`
	Up       string  `mapstructure:"-"` // --up: the world direction shown upwards in the preview
	// Format is --format: what -o - (or a device) writes.
	Format string `mapstructure:"-"`
	// stdoutFormat is the extension -o - writes, from Format.
	stdoutFormat string
	// surfaces are Surface parsed (by Validate), and library the shapes
	// loaded for the run's systems (by the first system's plan).
	surfaces []surfaceSpec
	library  turtle.Surfaces
}

// Validate checks every setting before any work; each error is a usage error.
func (o *Options) Validate() error {
	switch {
	case o.Steps < -1 || o.Steps > MaxSteps:
		return job.Usagef("invalid --steps %d: want 0..%d (-1: the system's derivation length)", o.Steps, MaxSteps)
	case o.MaxModules < 1 || o.MaxModules > math.MaxInt64:
		return job.Usagef("invalid --max-modules %d: want 1..2^63-1", o.MaxModules)
	case o.Cylinders < 0 || o.Cylinders == 1 || o.Cylinders == 2 || o.Cylinders > 64:
		return job.Usagef("invalid --cylinders %d: want 0 (lines) or 3..64 sides", o.Cylinders)
	case o.ImageWidth < 16 || o.ImageWidth > 1<<15 || o.ImageHeight < 16 || o.ImageHeight > 1<<15:
		return job.Usagef("invalid image size %dx%d: want 16..32768 pixels a side", o.ImageWidth, o.ImageHeight)
	case !(o.StepTime > 0) || o.StepTime > 1e6:
		return job.Usagef("invalid --step-time %g: want seconds, above 0 and at most 1e6", o.StepTime)
	case o.SurfacePrecision < 0 || o.SurfacePrecision > cpfg.MaxPrecision:
		return job.Usagef("invalid --surface-precision %d: want 1..%d steps a patch side (0: the .s file's own)", o.SurfacePrecision, cpfg.MaxPrecision)
	case !(o.LineScale > 0) || o.LineScale > 1e6:
		return job.Usagef("invalid --line-scale %g: want a positive number", o.LineScale)
	}
	var err error
	if o.surfaces, err = parseSurfaces(o.Surface); err != nil {
		return err
	}
	switch o.Stems {
	case "auto", "line", "ribbon", "tube", "smooth":
	default:
		return job.Usagef("invalid --stems %q: want auto, line, ribbon, tube or smooth", o.Stems)
	}
	switch o.LineWidth {
	case "auto", "pixels", "world", "relative":
	default:
		return job.Usagef("invalid --line-width %q: want auto, pixels, world or relative", o.LineWidth)
	}
	if _, err := turtle.ParseUp(o.Up); err != nil {
		return job.Usagef("invalid --up %q: want x, y, z, -x, -y, -z or a direction x,y,z", o.Up)
	}
	if _, err := turtle.ParseView(o.View); err != nil {
		return job.Usagef("invalid --view %q: want front, back, side, left, right, top, bottom or x,y,z", o.View)
	}
	return nil
}

// formats are the formats -o can name, by extension.
var formats = map[string]string{".obj": "OBJ geometry", ".png": "PNG preview", ".json": "JSON statistics",
	".txt": "the derived string", ".glb": "glTF binary", ".ply": "binary PLY"}

// checkOutputs refuses an output whose extension names no format, and a
// --format that standard output (or a device) cannot take; it fixes the
// format such outputs are written in.
func (o *Options) checkOutputs(outs []string) error {
	for _, out := range outs {
		if out == output.Stdout || job.IsStream(out) {
			if _, ok := formats["."+o.Format]; !ok || o.Format == "png" {
				return job.Usagef("invalid --format %q: want txt, json, obj, glb or ply for -o -", o.Format)
			}
			o.stdoutFormat = "." + o.Format
			continue
		}
		if isStepPattern(out) {
			if err := o.checkStepPattern(out); err != nil {
				return err
			}
			continue
		}
		if _, ok := formats[strings.ToLower(filepath.Ext(out))]; !ok {
			return job.Usagef("output %q: want a .obj, .png, .json or .txt file, a .glb (glTF) or a .ply", out)
		}
	}
	return nil
}

// format is the format an output is written in: its extension, or
// --format for standard output.
func (o *Options) format(out string) string { return job.FormatOf(out, o.stdoutFormat) }

func (o *Options) needsText(outs []string) bool {
	for _, out := range outs {
		if o.format(out) == ".txt" {
			return true
		}
	}
	return false
}

func (o *Options) needsGeometry(outs []string) bool {
	for _, out := range outs {
		if ext := o.format(out); ext == ".obj" || ext == ".png" || ext == ".glb" || ext == ".ply" {
			return true
		}
	}
	return false
}

// mtlPaths are the .mtl files written beside the .obj outputs (not
// standard output or a device): only with --color-map, which makes the
// materials the user's (known before the work, so the plan holds them).
func (o *Options) mtlPaths(outs []string) []string {
	if o.ColorMap == "" {
		return nil
	}
	var mtls []string
	for _, out := range outs {
		if out != output.Stdout && !job.IsStream(out) && o.format(out) == ".obj" {
			mtls = append(mtls, output.MTLPath(out))
		}
	}
	return mtls
}
