package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/flame"
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output"
)

// renderOnDevices renders a batch of genomes on several GPUs, dealt by
// device.Deal: each genome's image is written as it finishes, a failure is
// warned of and the batch goes on. One progress bar counts finished
// genomes. It returns the errors of the genomes that failed.
func (a *app) renderOnDevices(cmd *cobra.Command, devs []*gpu.Device, plan *output.Plan, jobs []flameJob,
	o flameOptions, depth output.BitDepth) []error {
	ctx := cmd.Context()
	rs := make([]flame.Renderer, len(devs))
	for i, d := range devs {
		rs[i] = flame.NewRenderer(d)
	}
	done := int64(0)
	bar := a.newProgress(int64(len(jobs)), "flame render")
	errs := device.Deal(ctx, rs, len(jobs), func(r flame.Renderer, i int) error {
		return a.renderOne(cmd, r, plan, jobs[i], o, depth, func(int64, int64) {})
	}, func(_ int, err error) {
		if err != nil && ctx.Err() == nil {
			a.log.Warnf("%v", err)
		}
		done++
		bar(done, int64(len(jobs)))
	})
	a.dev.HintJIT(devs[0], "flame")
	return errs
}
