package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// maxDevices bounds --devices lists (a host has at most a handful of GPUs).
const maxDevices = 64

// parseDevices parses --devices: "all", or a comma-separated list of
// distinct device ordinals ("0", "0,1", "1,3").
func parseDevices(spec string) (all bool, ords []int, err error) {
	spec = strings.TrimSpace(spec)
	if spec == "all" {
		return true, nil, nil
	}
	seen := map[int]bool{}
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n >= maxDevices {
			return false, nil, fmt.Errorf("want all or a list of device numbers 0..%d like 0,1", maxDevices-1)
		}
		if seen[n] {
			return false, nil, fmt.Errorf("device %d is listed twice", n)
		}
		seen[n] = true
		ords = append(ords, n)
	}
	return false, ords, nil
}

// deviceOrdinals are the GPUs --devices names, in order; "all" is every
// device the driver reports that can run the kernels (device 0 when it
// reports none, so that opening it explains why).
func (a *app) deviceOrdinals() []int {
	all, ords, err := parseDevices(a.opts.Devices)
	if err != nil || (!all && len(ords) == 0) { // validate refused bad lists
		return []int{0}
	}
	if !all {
		return ords
	}
	for _, d := range gpu.Probe().Devices {
		if d.Runnable {
			ords = append(ords, d.Ordinal)
		}
	}
	if len(ords) == 0 {
		return []int{0}
	}
	return ords
}

// moreDevices opens the other GPUs --devices names, after first (the one
// openDevice opened), for a job that deals its work over several devices.
// With --device cuda a device that does not open is an error (exit 3); with
// auto it is left out with a warning. The caller closes all but first.
func (a *app) moreDevices(first *gpu.Device) ([]*gpu.Device, error) {
	if first == nil {
		return nil, nil
	}
	devs := []*gpu.Device{first}
	for _, o := range a.deviceOrdinals()[1:] {
		d, err := gpu.Open(o)
		if err != nil {
			if a.opts.Device == "cuda" {
				closeDevices(devs[1:])
				return nil, deviceError{fmt.Errorf("cannot use device %d of %s %s: %w", o, a.settingName("devices"), a.opts.Devices, err)}
			}
			a.log.Warnf("device %d left out: %v", o, err)
			continue
		}
		d.SetSync(a.opts.Sync)
		if err := d.SetJIT(a.opts.jitPolicy(), ""); err != nil {
			d.Close()
			closeDevices(devs[1:])
			return nil, err
		}
		devs = append(devs, d)
	}
	if len(devs) > 1 {
		names := make([]string, len(devs))
		for i, d := range devs {
			names[i] = strconv.Itoa(d.Info().Ordinal)
		}
		a.log.Debugf("devices: %s", strings.Join(names, ", "))
	}
	return devs, nil
}

func closeDevices(devs []*gpu.Device) {
	for _, d := range devs {
		d.Close()
	}
}
