package device

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// maxDevices bounds --devices lists (a host has at most a handful of GPUs).
const maxDevices = 64

// ParseDevices parses --devices: "all", or a comma-separated list of
// distinct device ordinals ("0", "0,1", "1,3").
func ParseDevices(spec string) (all bool, ords []int, err error) {
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

// Ordinals are the GPUs --devices names, in order; "all" is every
// device the driver reports that can run the kernels (device 0 when it
// reports none, so that opening it explains why).
func (p *Policy) Ordinals() []int {
	all, ords, err := ParseDevices(p.s.Devices)
	if err != nil || (!all && len(ords) == 0) { // the caller refused bad lists
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

// More opens the other GPUs --devices names, after first (the one Open
// opened), for a job that deals its work over several devices.
// With --device cuda a device that does not open is an UnavailableError; with
// auto it is left out with a warning. The caller closes them (CloseMore).
func (p *Policy) More(first *gpu.Device) ([]*gpu.Device, error) {
	if first == nil {
		return nil, nil
	}
	devs := []*gpu.Device{first}
	for _, o := range p.Ordinals()[1:] {
		d, err := gpu.Open(o)
		if err != nil {
			if p.s.Device == "cuda" {
				closeAll(devs[1:])
				return nil, UnavailableError{fmt.Errorf("cannot use device %d of %s %s: %w", o, p.name("devices"), p.s.Devices, err)}
			}
			p.log.Warnf("device %d left out: %v", o, err)
			continue
		}
		d.SetSync(p.s.Sync)
		if err := d.SetJIT(p.s.JIT, ""); err != nil {
			d.Close()
			closeAll(devs[1:])
			return nil, err
		}
		devs = append(devs, d)
	}
	if len(devs) > 1 {
		names := make([]string, len(devs))
		for i, d := range devs {
			names[i] = strconv.Itoa(d.Info().Ordinal)
		}
		p.log.Debugf("devices: %s", strings.Join(names, ", "))
	}
	return devs, nil
}

// CloseMore closes the devices More opened, all of devs but the first
// (which Open opened, and Release closes).
func (p *Policy) CloseMore(devs []*gpu.Device) { closeAll(devs[min(1, len(devs)):]) }

// First is the device a job opened first (nil on the CPU): it compiles and
// caches kernels for the rest.
func First(devs []*gpu.Device) *gpu.Device {
	if len(devs) == 0 {
		return nil
	}
	return devs[0]
}

// OpenAllFor is OpenFor and More together: every device a job runs on
// (none on the CPU) and a release that closes them all.
func (p *Policy) OpenAllFor(job string, work float64) ([]*gpu.Device, func(), error) {
	first, err := p.OpenFor(job, work)
	if err != nil || first == nil {
		return nil, func() {}, err
	}
	devs, err := p.More(first)
	if err != nil {
		first.Close()
		return nil, nil, err
	}
	return devs, func() { closeAll(devs) }, nil
}

func closeAll(devs []*gpu.Device) {
	for _, d := range devs {
		d.Close()
	}
}
