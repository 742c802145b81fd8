package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/device"
	"github.com/procgen-dev/procgen/internal/gpu"
)

type cpuReport struct {
	Model        string `json:"model,omitempty"`
	LogicalCores int    `json:"logical_cores"`
	GOMAXPROCS   int    `json:"gomaxprocs"`
}

type devicesReport struct {
	CPU  cpuReport  `json:"cpu"`
	CUDA gpu.Report `json:"cuda"`
	// Calibration is the host calibration --device auto applies.
	Calibration device.CalibrationStatus `json:"calibration"`
}

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
			r := devicesReport{
				CPU:         cpuReport{Model: device.CPUModel(), LogicalCores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0)},
				CUDA:        gpu.Probe(),
				Calibration: a.dev.CalibrationStatus(),
			}
			r.CUDA.RuntimeCompiler = gpu.RuntimeCompiler()
			var err error
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				err = enc.Encode(r)
			} else {
				err = writeDevicesReport(a.stdout, r)
			}
			if err != nil || !(check || prepare) {
				return err
			}
			dev, err := a.dev.Open()
			if err != nil {
				return err
			}
			if dev == nil {
				a.log.Infof("check: --device %s: using the CPU", a.opts.Device)
				return nil
			}
			defer dev.Close()
			info := dev.Info()
			a.log.Infof("check: --device %s: using CUDA device %d (%s)", a.opts.Device, info.Ordinal, info.Name)
			if !prepare {
				return nil
			}
			start := time.Now()
			families, err := dev.PrepareKernels()
			if err != nil {
				return err
			}
			if len(families) == 0 {
				a.log.Infof("prepare: nothing to compile: %s runs the embedded kernels", info.Name)
				return nil
			}
			a.log.Infof("prepare: %s kernels compiled for %s and cached in %s (%.1f s)",
				strings.Join(families, ", "), info.Name, gpu.DefaultJITDir(), time.Since(start).Seconds())
			return nil
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

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func writeDevicesReport(w io.Writer, r devicesReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	model := r.CPU.Model
	if model == "" {
		model = "unknown"
	}
	fmt.Fprintf(tw, "CPU\n")
	fmt.Fprintf(tw, "  model:\t%s\n", model)
	fmt.Fprintf(tw, "  logical cores:\t%d\n", r.CPU.LogicalCores)
	fmt.Fprintf(tw, "  GOMAXPROCS:\t%d\n", r.CPU.GOMAXPROCS)
	cal := r.Calibration.Why
	if r.Calibration.Path != "" {
		cal = r.Calibration.Path + ": " + cal
	}
	fmt.Fprintf(tw, "  auto calibration:\t%s\n", cal)
	c := r.CUDA
	fmt.Fprintf(tw, "CUDA\n")
	fmt.Fprintf(tw, "  built with CUDA:\t%s\n", yesNo(c.BuiltWithCUDA))
	if c.Available {
		fmt.Fprintf(tw, "  available:\tyes\n")
	} else {
		fmt.Fprintf(tw, "  available:\tno: %s\n", c.Reason)
	}
	if c.DriverVersion != 0 {
		fmt.Fprintf(tw, "  driver supports:\tCUDA %s\n", gpu.DriverVersionString(c.DriverVersion))
	}
	if len(c.EmbeddedArchs) > 0 {
		fmt.Fprintf(tw, "  embedded kernels:\t%s\n", strings.Join(c.EmbeddedArchs, " "))
	}
	if c.RuntimeCompiler != "" {
		fmt.Fprintf(tw, "  run-time compiler:\t%s\n", c.RuntimeCompiler)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(c.Devices) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  #\tNAME\tCC\tSMS\tMEMORY\tRUNNABLE\n")
	for _, d := range c.Devices {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%.1f GiB\t%s\n", d.Ordinal, d.Name, d.ComputeCapability(), d.SMs,
			float64(d.MemoryBytes)/(1<<30), yesNo(d.Runnable))
	}
	return tw.Flush()
}
