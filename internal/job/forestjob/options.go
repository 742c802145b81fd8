// Package forestjob is forest disperse behind the job contract: it reads a
// species file and stem maps, runs the forest engine on the device the
// policy opens, and writes each plot's directory of CSV, ASCII grids, PNG,
// GeoTIFF and summary.json all or nothing (internal/output/outdir). The
// command layer decodes and validates Options, then calls Run.
package forestjob

import (
	"math"
	"strings"

	"github.com/procgen-dev/procgen/internal/forest"
	"github.com/procgen-dev/procgen/internal/job"
)

// Options are the forest.* settings, as the configuration names them.
type Options struct {
	Species         string   `mapstructure:"species"`
	Method          string   `mapstructure:"method"`
	Cell            float64  `mapstructure:"cell"`
	Bounds          string   `mapstructure:"bounds"`
	Boundary        string   `mapstructure:"boundary"`
	Margin          float64  `mapstructure:"margin"`
	Cutoff          float64  `mapstructure:"cutoff"`
	Tolerance       float64  `mapstructure:"tolerance"`
	ClusterDistance float64  `mapstructure:"cluster-distance"`
	XCol            string   `mapstructure:"x-col"`
	YCol            string   `mapstructure:"y-col"`
	SpeciesCol      string   `mapstructure:"species-col"`
	DBHCol          string   `mapstructure:"dbh-col"`
	DBHUnit         string   `mapstructure:"dbh-unit"`
	Girth           bool     `mapstructure:"girth"`
	Where           []string `mapstructure:"where"`
	Delimiter       string   `mapstructure:"delimiter"`
	SkipUnknown     bool     `mapstructure:"skip-unknown"`
	Realize         bool     `mapstructure:"realize"`
	Clumping        float64  `mapstructure:"clumping"`
	Stems           bool     `mapstructure:"stems"`
	CRS             string   `mapstructure:"crs"`
	Formats         []string `mapstructure:"formats"`
}

// delimiter is the rune --delimiter names (0: found from the header).
func delimiter(name string) (rune, bool) {
	switch name {
	case "auto":
		return 0, true
	case "comma":
		return ',', true
	case "tab":
		return '\t', true
	case "semicolon":
		return ';', true
	case "space":
		return ' ', true
	}
	return 0, false
}

// outputFormat says whether f is a --formats entry (summary.json is always
// written, so it is none).
func outputFormat(f string) bool {
	switch f {
	case "csv", "asc", "png", "tif":
		return true
	}
	return false
}

// Plan is what Validate derives from the options.
type Plan struct {
	where  []forest.Condition
	bounds *forest.Bounds
	delim  rune
	outs   map[string]bool
	epsg   int // from --crs; 0: none
}

// Validate checks the options before any work; every error is a usage error.
func (o *Options) Validate() (*Plan, error) {
	if err := o.checkNumbers(); err != nil {
		return nil, err
	}
	if err := o.checkModes(); err != nil {
		return nil, err
	}
	p := &Plan{outs: map[string]bool{}}
	d, ok := delimiter(o.Delimiter)
	if !ok {
		return nil, job.Usagef("invalid --delimiter %q: want auto, comma, tab, semicolon or space", o.Delimiter)
	}
	p.delim = d
	for _, w := range o.Where {
		if strings.TrimSpace(w) == "" {
			continue
		}
		c, err := forest.ParseCondition(w)
		if err != nil {
			return nil, job.UsageError{Err: err}
		}
		p.where = append(p.where, c)
	}
	if o.Bounds != "" {
		b, err := forest.ParseBounds(o.Bounds)
		if err != nil {
			return nil, job.Usagef("--bounds: %v", err)
		}
		p.bounds = &b
	}
	if err := o.planOutputs(p); err != nil {
		return nil, err
	}
	return p, nil
}

// checkNumbers checks the species file is named and the sizes are in range.
func (o *Options) checkNumbers() error {
	switch {
	case o.Species == "":
		return job.Usagef("no species parameter file: give --species PARAMS.yaml (configs/forest/ has presets)")
	case !(o.Cell > 0) || math.IsInf(o.Cell, 0):
		return job.Usagef("invalid --cell %g: want the cell size in metres, above 0", o.Cell)
	case !(o.Margin >= 0) || math.IsInf(o.Margin, 0):
		return job.Usagef("invalid --margin %g: want metres, 0 or more", o.Margin)
	case !(o.Cutoff >= 0) || math.IsInf(o.Cutoff, 0):
		return job.Usagef("invalid --cutoff %g: want a radius in metres (0: none)", o.Cutoff)
	case !(o.Clumping >= 0) || math.IsInf(o.Clumping, 0):
		return job.Usagef("invalid --clumping %g: want the negative binomial's k, above 0 (0: each species' "+
			"clumping from the species file, Poisson where it has none)", o.Clumping)
	case o.Clumping > 0 && !o.Realize:
		return job.Usagef("--clumping %g without --realize: it sets how the realised counts are drawn", o.Clumping)
	case !(o.Tolerance > 0 && o.Tolerance < 0.5):
		return job.Usagef("invalid --tolerance %g: want a relative error between 0 and 0.5", o.Tolerance)
	case !(o.ClusterDistance >= 0) || math.IsInf(o.ClusterDistance, 0):
		return job.Usagef("invalid --cluster-distance %g: want metres (0: per species, as in the paper)", o.ClusterDistance)
	}
	return nil
}

// checkModes checks --method, --boundary with --margin, --cutoff's method
// and --dbh-unit.
func (o *Options) checkModes() error {
	switch forest.Method(o.Method) {
	case forest.Exact, forest.FFT, forest.Multires:
	default:
		return job.Usagef("invalid --method %q: want exact, fft or multires", o.Method)
	}
	switch o.Boundary {
	case "open", "torus":
		if o.Margin > 0 {
			return job.Usagef("--margin %g needs --boundary buffer (it is the width of the buffer zone)", o.Margin)
		}
	case "buffer":
		if o.Margin <= 0 {
			return job.Usagef("--boundary buffer needs --margin M: the width of the buffer zone in metres")
		}
	default:
		return job.Usagef("invalid --boundary %q: want open, torus or buffer", o.Boundary)
	}
	if o.Cutoff > 0 && o.Method != "exact" {
		return job.Usagef("--cutoff applies to --method exact (the fft method is exact to --tolerance)")
	}
	switch o.DBHUnit {
	case "cm", "mm":
	default:
		return job.Usagef("invalid --dbh-unit %q: want cm or mm", o.DBHUnit)
	}
	return nil
}

// planOutputs sets the plan's formats from --formats and its CRS from --crs.
func (o *Options) planOutputs(p *Plan) error {
	for _, f := range o.Formats {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" || f == "json" {
			continue
		}
		if !outputFormat(f) {
			return job.Usagef("invalid --formats entry %q: want csv, asc, png and/or tif (the JSON summary is always written)", f)
		}
		p.outs[f] = true
	}
	epsg, err := forest.ParseCRS(o.CRS)
	if err != nil {
		return job.Usagef("--crs: %v", err)
	}
	if epsg > 0 && p.outs["asc"] {
		if _, err := forest.PRJ(epsg); err != nil {
			return job.Usagef("--crs %s: %v (drop asc from --formats, or use a UTM zone)", o.CRS, err)
		}
	}
	p.epsg = epsg
	return nil
}

// boundary is the engine's boundary for --boundary: buffer computes as open
// and crops afterwards.
func (o *Options) boundary() forest.Boundary {
	if o.Boundary == "torus" {
		return forest.Torus
	}
	return forest.Open
}
