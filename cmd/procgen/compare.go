package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/comparejob"
)

func (a *app) newCompareCmd() *cobra.Command {
	var o comparejob.Options
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
			o.ExactMAD = cmd.Flags().Changed("max-mad") && o.Thresholds.MaxMAD == 0
			if err := o.Validate(); err != nil {
				return err
			}
			return comparejob.Run(cmd.Context(), a.env(), args[0], args[1], o)
		},
	}
	f := cmd.Flags()
	f.Float64Var(&o.Thresholds.MaxMAD, "max-mad", 0, "fail when the mean absolute difference is above `F` (0..1; 0 means identical)")
	f.Float64Var(&o.Thresholds.MinPSNR, "min-psnr", 0, "fail when the PSNR is below `DB`")
	f.Float64Var(&o.Thresholds.MinSSIM, "min-ssim", 0, "fail when the SSIM is below `F` (-1..1)")
	f.StringVar(&o.DiffPath, "diff", "", "write the amplified difference image to `FILE` (PNG)")
	f.Float64Var(&o.Gain, "gain", 8, "multiply differences by `G` in the --diff image")
	f.BoolVar(&o.JSON, "json", false, "print the metrics and verdict as JSON")
	return cmd
}
