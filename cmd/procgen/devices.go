package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
)

func (a *app) newDevicesCmd() *cobra.Command {
	var asJSON, check, prepare, calibrate bool
	cmd := &cobra.Command{
		Use:   "devices",
		Short: "Report the CPU and the CUDA devices procgen can use, and why not",
		Long: `Report the CPU and what CUDA support was found: whether this binary was
built with CUDA, whether a driver and a device were found (and if not, exactly
why), the driver version, each GPU and whether the kernels embedded in this
binary can run on it. The report exits 0 whatever it finds.

--check then opens the device --device asks for and exits 3 if it cannot,
for scripts: 'procgen --device cuda devices --check' succeeds only where the
CUDA backend works.

--prepare (implies --check) compiles the kernels that the driver builds for
this GPU from PTX (on sm_90 and newer: flame accumulation with vector
reductions, about 3.5x faster than the embedded code) and caches them, so
later runs load them at once. Run it once per machine and driver; it takes
about 20 seconds.

--calibrate measures this host for --device auto instead of printing the
report: each job's CPU code on all cores, and the time to open the GPU and
run a kernel, against the reference host the cost models were fitted on
(a few seconds). It writes the factors to --calibration FILE (default:
procgen/calibration.json in the user cache directory), which auto then
applies on this host (the same CPU model and core count). Rerun it after a
change of hardware or of procgen; -v also prints the reference table.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if calibrate {
				if check || prepare {
					return usageErrorf("--calibrate measures this host: run --check or --prepare separately")
				}
				return a.calibrateHost(cmd.Context(), asJSON)
			}
			if err := device.WriteReport(a.stdout, a.dev.Report(), asJSON); err != nil || !(check || prepare) {
				return err
			}
			return a.dev.Check(prepare)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&check, "check", false, "exit 3 unless the device --device asks for can be opened")
	cmd.Flags().BoolVar(&calibrate, "calibrate", false, "measure this host's CPU and GPU for --device auto and write the calibration (a few seconds)")
	cmd.Flags().BoolVar(&prepare, "prepare", false, "compile and cache the kernels the driver builds for this GPU (once, ~20 s)")
	return cmd
}

// calibrateHost is devices --calibrate: device.Calibrate measures this host
// and writes the calibration where --calibration says (the Go table of
// reference rates too, with -v, to bake a reference host's run).
func (a *app) calibrateHost(ctx context.Context, asJSON bool) error {
	path, err := a.dev.CalibrationPath()
	if err != nil {
		return fmt.Errorf("calibrate: no cache directory to write to: %w; give --calibration FILE", err)
	}
	if path == "" {
		return usageErrorf("calibrate: %s %s: nowhere to write the calibration", a.settingName("calibration"),
			device.CalibrationNone)
	}
	vi := buildVersionInfo()
	return a.dev.Calibrate(ctx, device.CalibrateOptions{Path: path, JSON: asJSON, Stdout: a.stdout,
		Reference: a.opts.Verbose > 0, Stderr: a.stderr, Procgen: strings.TrimSpace(vi.Version + " " + vi.Commit),
		Progress: func(key string) { a.log.debugLevelf(2, "calibrate: %s probe", key) }})
}
