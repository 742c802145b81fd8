// Package pgajob is the job behind `procgen pga city`: one PGA grammar, or
// a batch of them, expanded on every lot of a city (from GeoJSON or a grid)
// on the device the policy opens, with the geometry and statistics written
// through one output plan.
package pgajob

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/geo"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/pga"
)

// MaxDepth bounds --max-depth: the CPU evaluator recurses once per rule
// application, and 20,000 levels stay far inside Go's stack limit (400,000
// overflowed it).
const MaxDepth = 20_000

// MaxShapes bounds --max-shapes where the shape counter and the terminal
// indices stay 32-bit on the GPU.
const MaxShapes = 1 << 31

// Options are the settings of pga city (config keys pga.*).
type Options struct {
	Lots      string  `mapstructure:"lots"`
	Grid      string  `mapstructure:"grid"`
	Axiom     string  `mapstructure:"axiom"`
	MaxShapes int     `mapstructure:"max-shapes"`
	MaxDepth  int     `mapstructure:"max-depth"`
	Height    float64 `mapstructure:"height"`
	LotWidth  float64 `mapstructure:"lot-width"`
	LotDepth  float64 `mapstructure:"lot-depth"`
	Street    float64 `mapstructure:"street"`
	StatsOnly bool    `mapstructure:"stats-only"`
	Scheduler string  `mapstructure:"scheduler"`
	LocalGrp  bool    `mapstructure:"local-grouping"`
	OpPar     bool    `mapstructure:"operator-parallel"`
	LotsCRS   string  `mapstructure:"lots-crs"`
	CRS       string  `mapstructure:"crs"`
	GLBImages string  `mapstructure:"glb-images"`

	cols, rows int // parsed from Grid
	// stdoutFormat is the extension -o - writes, from --format.
	stdoutFormat string
}

// Validate checks the options before any work; every error is a usage
// error. It parses --grid (GridSize).
func (o *Options) Validate() error {
	switch {
	case (o.Lots == "") == (o.Grid == ""):
		return job.Usagef("want exactly one of --lots FILE.geojson or --grid WxH")
	case o.MaxShapes < 1 || o.MaxShapes > MaxShapes:
		return job.Usagef("invalid --max-shapes %d: want 1..%d", o.MaxShapes, MaxShapes)
	case o.MaxDepth < 1 || o.MaxDepth > MaxDepth:
		return job.Usagef("invalid --max-depth %d: want 1..%d", o.MaxDepth, MaxDepth)
	case !(o.Height > 0) || o.Height > 1e5:
		return job.Usagef("invalid --height %g: want over 0 and at most 1e5 metres", o.Height)
	case !(o.LotWidth > 0) || !(o.LotDepth > 0) || o.LotWidth > 1e5 || o.LotDepth > 1e5:
		return job.Usagef("invalid lot size %gx%g: want --lot-width and --lot-depth over 0 and at most 1e5 metres", o.LotWidth, o.LotDepth)
	case !(o.Street >= 0) || o.Street > 1e5:
		return job.Usagef("invalid --street %g: want 0 to 1e5 metres", o.Street)
	case o.Scheduler != "persistent" && o.Scheduler != "levels":
		return job.Usagef("invalid --scheduler %q: want persistent or levels", o.Scheduler)
	case o.GLBImages != "" && o.GLBImages != "embed" && o.GLBImages != "reference":
		return job.Usagef("invalid --glb-images %q: want embed or reference", o.GLBImages)
	}
	if err := o.validateCRS(); err != nil {
		return err
	}
	if o.Grid != "" {
		w, h, ok := strings.Cut(strings.ToLower(o.Grid), "x")
		c, err1 := strconv.Atoi(w)
		r, err2 := strconv.Atoi(h)
		if !ok || err1 != nil || err2 != nil || c < 1 || r < 1 || c*r > pga.MaxGridLots || c > pga.MaxGridLots || r > pga.MaxGridLots {
			return job.Usagef("invalid --grid %q: want COLSxROWS lots, e.g. 20x10 (at most %d lots)", o.Grid, pga.MaxGridLots)
		}
		o.cols, o.rows = c, r
	}
	return nil
}

// validateCRS checks --lots-crs (auto, local or a CRS) and --crs (auto or
// a UTM zone), which only GeoJSON lots have.
func (o *Options) validateCRS() error {
	if o.LotsCRS == "" {
		o.LotsCRS = "auto"
	}
	if o.CRS == "" {
		o.CRS = "auto"
	}
	if o.LotsCRS != "auto" && o.LotsCRS != "local" {
		if _, err := geo.ParseCRS(o.LotsCRS); err != nil {
			return job.Usagef("invalid --lots-crs %q: want auto, local or a CRS: %v", o.LotsCRS, err)
		}
	}
	if o.CRS != "auto" {
		c, err := geo.ParseCRS(o.CRS)
		if err == nil && c.Kind != geo.UTM {
			err = fmt.Errorf("want a UTM zone (EPSG:326zz north, 327zz south) to build in")
		}
		if err != nil {
			return job.Usagef("invalid --crs %q: %v", o.CRS, err)
		}
	}
	if o.Grid != "" && (o.LotsCRS != "auto" || o.CRS != "auto") {
		return job.Usagef("--lots-crs and --crs apply to --lots; --grid lots are local metres")
	}
	return nil
}

// GridSize is --grid as Validate parsed it: columns and rows of lots (0, 0
// with --lots).
func (o *Options) GridSize() (cols, rows int) { return o.cols, o.rows }

// formats are the formats -o can name, by extension.
var formats = map[string]string{".obj": "OBJ geometry", ".glb": "binary glTF", ".png": "PNG preview", ".json": "JSON statistics"}

// checkOutputs checks each -o's format: a file's extension, or for
// standard output (or a stream) --format, which it keeps for them.
func (o *Options) checkOutputs(outs []string, format string) error {
	for _, out := range outs {
		if out == output.Stdout || job.IsStream(out) {
			if _, ok := formats["."+format]; !ok {
				return job.Usagef("invalid --format %q: want json, obj, glb or png for -o -", format)
			}
			o.stdoutFormat = "." + format
			continue
		}
		if _, ok := formats[strings.ToLower(filepath.Ext(out))]; !ok {
			return job.Usagef("output %q: want a .obj, .glb, .png or .json file", out)
		}
	}
	return nil
}

// format is the format an output is written in: its extension, or
// --format for standard output.
func (o *Options) format(out string) string { return job.FormatOf(out, o.stdoutFormat) }

// writesGeometry says whether any output needs the terminals themselves.
func (o *Options) writesGeometry(outs []string) bool {
	for _, out := range outs {
		if o.format(out) != ".json" && !o.StatsOnly {
			return true
		}
	}
	return false
}

// onlyGLB says whether every geometry output is a .glb (and there is one):
// the CUDA backend then builds it on the device.
func (o *Options) onlyGLB(outs []string) bool {
	n := 0
	for _, out := range outs {
		switch f := o.format(out); {
		case f == ".json":
		case f != ".glb":
			return false
		default:
			n++
		}
	}
	return n > 0 && !o.StatsOnly
}

// plannedPaths are the files a run writes: every -o and, beside each .obj
// file unless only statistics are written, its material library.
func (o *Options) plannedPaths(outs []string) []string {
	paths := append([]string(nil), outs...)
	for _, out := range outs {
		if out != output.Stdout && !o.StatsOnly && strings.EqualFold(filepath.Ext(out), ".obj") {
			paths = append(paths, output.MTLPath(out))
		}
	}
	return paths
}
