// Package comparejob is 'procgen compare': two PNG images compared by
// their decoded pixels, the metrics printed, the thresholds checked, and
// the amplified difference written through the output plan.
package comparejob

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/png" // compare reads PNGs
	"io"
	"math"

	"github.com/procgen-dev/procgen/internal/imgdiff"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
)

// Options are compare's flags.
type Options struct {
	Thresholds imgdiff.Thresholds
	ExactMAD   bool // --max-mad 0 was given: 0 in Thresholds means "unchecked"
	DiffPath   string
	Gain       float64
	JSON       bool
}

// Validate checks the flags' ranges: every error is a usage error.
func (o Options) Validate() error {
	t := o.Thresholds
	switch {
	case t.MaxMAD < 0 || math.IsNaN(t.MaxMAD):
		return job.Usagef("invalid --max-mad %g: want 0 or more", t.MaxMAD)
	case t.MinPSNR < 0 || math.IsNaN(t.MinPSNR):
		return job.Usagef("invalid --min-psnr %g: want 0 or more (dB)", t.MinPSNR)
	case t.MinSSIM < -1 || t.MinSSIM > 1 || math.IsNaN(t.MinSSIM):
		return job.Usagef("invalid --min-ssim %g: want -1 to 1", t.MinSSIM)
	case !(o.Gain > 0) || math.IsInf(o.Gain, 0):
		return job.Usagef("invalid --gain %g: want more than 0", o.Gain)
	}
	return nil
}

// result is the --json output. PSNR is null for identical images, where it
// is infinite and JSON has no infinity (as in imgdiff.Metrics).
type result struct {
	A          string   `json:"a"`
	B          string   `json:"b"`
	Width      int      `json:"width"`
	Height     int      `json:"height"`
	MAD        float64  `json:"mad"`
	PSNR       *float64 `json:"psnr"`
	Identical  bool     `json:"identical"`
	SSIM       float64  `json:"ssim"`
	MaxDiff    float64  `json:"max_diff"`
	Pass       bool     `json:"pass"`
	Violations []string `json:"violations"`
}

// Run compares the PNGs at pathA and pathB: a threshold that fails, or
// images of different sizes, is a failure (exit 1); an input that is not a
// readable PNG is a usage error.
func Run(ctx context.Context, env *job.Env, pathA, pathB string, o Options) error {
	// --diff is checked before the inputs are read: an input named as the
	// diff, or a directory that cannot take it, is a usage error now.
	var plan *output.Plan
	if o.DiffPath != "" {
		p, err := env.PlanOutputs([]string{pathA, pathB}, o.DiffPath)
		if err != nil {
			return err
		}
		plan = p
	}
	imgA, err := readPNG(ctx, pathA)
	if err != nil {
		return err
	}
	imgB, err := readPNG(ctx, pathB)
	if err != nil {
		return err
	}
	m, err := imgdiff.Compare(imgA, imgB)
	if errors.Is(err, imgdiff.ErrSizeMismatch) {
		ba, bb := imgA.Bounds(), imgB.Bounds()
		return fmt.Errorf("compare: size mismatch: %s is %dx%d but %s is %dx%d",
			pathA, ba.Dx(), ba.Dy(), pathB, bb.Dx(), bb.Dy())
	}
	if err != nil {
		return fmt.Errorf("compare %s and %s: %w", pathA, pathB, err)
	}
	violations := o.Thresholds.Check(m)
	if o.ExactMAD && m.MAD > 0 {
		violations = append([]string{fmt.Sprintf("mad %.6g > max 0 (identical images required)", m.MAD)}, violations...)
	}
	if plan != nil {
		diff := imgdiff.DiffImage(imgA, imgB, o.Gain)
		err := plan.Commit(ctx, []output.Write{{Path: o.DiffPath, Func: func(w io.Writer) error {
			return output.EncodePNG(ctx, w, diff, output.Depth8)
		}}})
		if err != nil {
			return fmt.Errorf("compare: write --diff: %w", err)
		}
		env.Log.Infof("wrote %s", o.DiffPath)
	}
	if err := printComparison(env.Stdout, pathA, pathB, m, violations, o.JSON); err != nil {
		return err
	}
	if len(violations) > 0 {
		return fmt.Errorf("compare: %s and %s: %d threshold(s) failed", pathA, pathB, len(violations))
	}
	return nil
}

func printComparison(w io.Writer, pathA, pathB string, m imgdiff.Metrics, violations []string, asJSON bool) error {
	if asJSON {
		r := result{A: pathA, B: pathB, Width: m.Width, Height: m.Height, MAD: m.MAD, SSIM: m.SSIM,
			MaxDiff: m.MaxDiff, Identical: m.Identical(), Pass: len(violations) == 0, Violations: violations}
		if !m.Identical() {
			r.PSNR = &m.PSNR
		}
		if r.Violations == nil {
			r.Violations = []string{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(w, "size      %dx%d\n", m.Width, m.Height)
	fmt.Fprintf(w, "MAD       %.6f\n", m.MAD)
	fmt.Fprintf(w, "PSNR      %.2f dB\n", m.PSNR)
	fmt.Fprintf(w, "SSIM      %.6f\n", m.SSIM)
	fmt.Fprintf(w, "max diff  %.6f\n", m.MaxDiff)
	for _, v := range violations {
		fmt.Fprintf(w, "FAIL %s\n", v)
	}
	var err error
	if len(violations) == 0 {
		_, err = fmt.Fprintln(w, "PASS")
	}
	return err
}

// readPNG decodes a PNG. Any failure is the caller's input: a usage error
// naming the file.
func readPNG(ctx context.Context, path string) (image.Image, error) {
	f, err := input.Open(ctx, path, input.Image)
	if err != nil {
		err = fmt.Errorf("compare: %w", err)
		var ue job.UsageError
		if !errors.As(err, &ue) {
			err = job.UsageError{Err: err}
		}
		return nil, err
	}
	defer f.Close()
	img, format, err := image.Decode(f)
	switch {
	case errors.Is(err, image.ErrFormat):
		return nil, job.Usagef("compare: %s: not a PNG image", path)
	case err != nil:
		return nil, job.Usagef("compare: %s: unreadable PNG: %v", path, err)
	case format != "png":
		return nil, job.Usagef("compare: %s: a %s image, not a PNG", path, format)
	}
	return img, nil
}
