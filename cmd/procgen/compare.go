package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/png" // compare reads PNGs
	"io"
	"math"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/imgdiff"
	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/output"
)

type compareOptions struct {
	thresholds imgdiff.Thresholds
	exactMAD   bool // --max-mad 0 was given: 0 in Thresholds means "unchecked"
	diffPath   string
	gain       float64
	asJSON     bool
}

func (o compareOptions) validate() error {
	t := o.thresholds
	switch {
	case t.MaxMAD < 0 || math.IsNaN(t.MaxMAD):
		return usageErrorf("invalid --max-mad %g: want 0 or more", t.MaxMAD)
	case t.MinPSNR < 0 || math.IsNaN(t.MinPSNR):
		return usageErrorf("invalid --min-psnr %g: want 0 or more (dB)", t.MinPSNR)
	case t.MinSSIM < -1 || t.MinSSIM > 1 || math.IsNaN(t.MinSSIM):
		return usageErrorf("invalid --min-ssim %g: want -1 to 1", t.MinSSIM)
	case !(o.gain > 0) || math.IsInf(o.gain, 0):
		return usageErrorf("invalid --gain %g: want more than 0", o.gain)
	}
	return nil
}

// compareResult is the --json output. PSNR is null for identical images,
// where it is infinite and JSON has no infinity (as in imgdiff.Metrics).
type compareResult struct {
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

func (a *app) newCompareCmd() *cobra.Command {
	var o compareOptions
	cmd := &cobra.Command{
		Use:   "compare A.png B.png",
		Short: "Compare two PNG images by their decoded pixels",
		Long: `Compare two PNG images of the same size by their decoded pixels and print
the metrics: MAD (mean absolute difference, 0..1), PSNR (dB, +Inf when the
images are identical), SSIM (structural similarity, 1 when identical) and the
largest per-channel difference (0..1).

Thresholds turn it into a test: each one given must hold, and the exit code
says whether they all did. A threshold left out is not checked.

--diff writes the per-pixel difference, multiplied by --gain so that small
differences are visible, as a PNG.

For compare, exit code 0 means every threshold holds; 1 a threshold failed, or
the images differ in size; 2 an input is unreadable or not a PNG, or a flag
is invalid.`,
		Example: `  procgen compare want.png got.png
  procgen compare want.png got.png --max-mad 0.002 --min-ssim 0.99 --diff diff.png
  procgen compare want.png got.png --json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.exactMAD = cmd.Flags().Changed("max-mad") && o.thresholds.MaxMAD == 0
			if err := o.validate(); err != nil {
				return err
			}
			return a.compare(cmd.Context(), args[0], args[1], o)
		},
	}
	f := cmd.Flags()
	f.Float64Var(&o.thresholds.MaxMAD, "max-mad", 0, "fail when the mean absolute difference is above `F` (0..1; 0 means identical)")
	f.Float64Var(&o.thresholds.MinPSNR, "min-psnr", 0, "fail when the PSNR is below `DB`")
	f.Float64Var(&o.thresholds.MinSSIM, "min-ssim", 0, "fail when the SSIM is below `F` (-1..1)")
	f.StringVar(&o.diffPath, "diff", "", "write the amplified difference image to `FILE` (PNG)")
	f.Float64Var(&o.gain, "gain", 8, "multiply differences by `G` in the --diff image")
	f.BoolVar(&o.asJSON, "json", false, "print the metrics and verdict as JSON")
	return cmd
}

func (a *app) compare(ctx context.Context, pathA, pathB string, o compareOptions) error {
	// --diff is checked before the inputs are read: an input named as the
	// diff, or a directory that cannot take it, is a usage error now.
	var plan *output.Plan
	if o.diffPath != "" {
		p, err := a.planOutputs([]string{pathA, pathB}, o.diffPath)
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
	violations := o.thresholds.Check(m)
	if o.exactMAD && m.MAD > 0 {
		violations = append([]string{fmt.Sprintf("mad %.6g > max 0 (identical images required)", m.MAD)}, violations...)
	}
	if plan != nil {
		diff := imgdiff.DiffImage(imgA, imgB, o.gain)
		err := plan.Commit(ctx, []output.Write{{Path: o.diffPath, Func: func(w io.Writer) error {
			return output.EncodePNG(ctx, w, diff, output.Depth8)
		}}})
		if err != nil {
			return fmt.Errorf("compare: write --diff: %w", err)
		}
		a.log.Infof("wrote %s", o.diffPath)
	}
	if err := a.printComparison(pathA, pathB, m, violations, o.asJSON); err != nil {
		return err
	}
	if len(violations) > 0 {
		return fmt.Errorf("compare: %s and %s: %d threshold(s) failed", pathA, pathB, len(violations))
	}
	return nil
}

func (a *app) printComparison(pathA, pathB string, m imgdiff.Metrics, violations []string, asJSON bool) error {
	if asJSON {
		r := compareResult{A: pathA, B: pathB, Width: m.Width, Height: m.Height, MAD: m.MAD, SSIM: m.SSIM,
			MaxDiff: m.MaxDiff, Identical: m.Identical(), Pass: len(violations) == 0, Violations: violations}
		if !m.Identical() {
			r.PSNR = &m.PSNR
		}
		if r.Violations == nil {
			r.Violations = []string{}
		}
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	w := a.stdout
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
		return nil, asUsage(fmt.Errorf("compare: %w", err))
	}
	defer f.Close()
	img, format, err := image.Decode(f)
	switch {
	case errors.Is(err, image.ErrFormat):
		return nil, usageErrorf("compare: %s: not a PNG image", path)
	case err != nil:
		return nil, usageErrorf("compare: %s: unreadable PNG: %v", path, err)
	case format != "png":
		return nil, usageErrorf("compare: %s: a %s image, not a PNG", path, format)
	}
	return img, nil
}
