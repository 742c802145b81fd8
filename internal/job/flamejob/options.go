// Package flamejob is the flame commands' side of the job contract: 'flame
// render' (images, or accumulation parts for a split still), 'flame merge',
// 'flame sequence' and 'flame animate', from their validated options to the
// files written. The command layer only defines the flags and calls in here.
package flamejob

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// Options are the flame settings (the flame.* configuration keys), shared
// by every flame command.
type Options struct {
	Width       int     `mapstructure:"width"`
	Height      int     `mapstructure:"height"`
	Quality     float64 `mapstructure:"quality"`
	Supersample int     `mapstructure:"supersample"`
	PNG16       bool    `mapstructure:"png16"`
	Compression string  `mapstructure:"compression"`
	Palettes    string  `mapstructure:"palettes"`
	Strict      bool    `mapstructure:"strict"`
	EarlyClip   bool    `mapstructure:"earlyclip"`
	Transparent bool    `mapstructure:"transparent"`
	JPEGQuality int     `mapstructure:"jpeg-quality"`
	// Version is procgen's version, which a PNG's flam3_version names; the
	// command sets it, it is no setting.
	Version string `mapstructure:"-"`
	// Format is --format (a command flag, not a setting); format is the
	// image format a job resolved from it and -o (resolveFormat).
	Format string `mapstructure:"-"`
	format imageFormat
}

// Validate checks the settings' ranges: every error is a usage error.
func (o *Options) Validate() error {
	switch {
	case o.Width < 0 || o.Width > 1<<16:
		return job.Usagef("invalid --width %d: want 0..65536", o.Width)
	case o.Height < 0 || o.Height > 1<<16:
		return job.Usagef("invalid --height %d: want 0..65536", o.Height)
	case !(o.Quality >= 0) || o.Quality > 1e12:
		return job.Usagef("invalid --quality %g: want 0..1e12 samples per pixel (0: the genome's)", o.Quality)
	case o.Supersample < 0 || o.Supersample > 16:
		return job.Usagef("invalid --supersample %d: want 1..16", o.Supersample)
	case o.JPEGQuality < 1 || o.JPEGQuality > 100:
		return job.Usagef("invalid --jpeg-quality %d: want 1..100", o.JPEGQuality)
	}
	if _, ok := compression(o.Compression); !ok {
		return job.Usagef("invalid --compression %q: want fast, default or best", o.Compression)
	}
	return nil
}

// size is the part of the options that changes a genome's size and samples.
func (o Options) size() flame.Options {
	return flame.Options{Width: o.Width, Height: o.Height, Quality: o.Quality, Supersample: o.Supersample}
}

func lowerExt(p string) string { return strings.ToLower(filepath.Ext(p)) }

// parseOptions are the genome parser's options from the flame settings:
// --strict, and the --palettes library (checked as an input, then loaded).
func parseOptions(o Options) (flame.ParseOptions, error) {
	opts := flame.ParseOptions{Strict: o.Strict}
	if o.Palettes == "" {
		return opts, nil
	}
	if err := job.CheckInput("flame: palettes", o.Palettes); err != nil {
		return opts, err
	}
	pf, err := flame.LoadPaletteFile(o.Palettes)
	if err != nil {
		return opts, fmt.Errorf("flame: palettes: %w", err)
	}
	opts.Palettes = pf
	return opts, nil
}

// compression is the PNG compression effort --compression names.
func compression(name string) (output.Compression, bool) {
	switch name {
	case "fast":
		return output.CompressFast, true
	case "default":
		return output.CompressDefault, true
	case "best":
		return output.CompressBest, true
	}
	return output.CompressDefault, false
}

// depth is the PNG bit depth --png16 asks for.
func (o Options) depth() output.BitDepth {
	if o.PNG16 {
		return output.Depth16
	}
	return output.Depth8
}
