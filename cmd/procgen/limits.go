package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// parseSize reads a memory size: bytes, or a number with a K, M, G or T
// suffix (powers of 1024; "B", "iB" and "b" endings accepted: 8G, 8GiB, 8GB).
func parseSize(s string) (uint64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) || v*mult >= 1<<62 {
		return 0, fmt.Errorf("want a size such as 8G, 512M or 1048576 bytes (up to 4E)")
	}
	return uint64(v * mult), nil
}

// physicalMemory is the machine's memory from /proc/meminfo, or 8 GiB where
// it cannot be read (then --max-memory says how to change the limit).
func physicalMemory() uint64 {
	const fallback = 8 << 30
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallback
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			if kb, err := strconv.ParseUint(fields[1], 10, 64); err == nil && kb > 0 {
				return kb << 10
			}
		}
	}
	return fallback
}

// memoryLimit is the --max-memory setting in bytes (validated in setup).
func (a *app) memoryLimit() uint64 {
	if a.opts.MaxMemory == "auto" || a.opts.MaxMemory == "" {
		return physicalMemory() / 4 * 3
	}
	n, _ := parseSize(a.opts.MaxMemory)
	return n
}

// checkMemory refuses work whose estimated memory exceeds --max-memory, with
// one line naming the estimate, the limit and the flags that change either.
func (a *app) checkMemory(what string, estimate float64, flags string) error {
	limit := float64(a.memoryLimit())
	if estimate <= limit && !math.IsNaN(estimate) {
		return nil
	}
	return usageErrorf("%s needs an estimated %s of memory, over the limit of %s: lower %s or raise --max-memory",
		what, formatBytes(estimate), formatBytes(limit), flags)
}

// checkDeviceMemory is checkMemory against the GPU's memory (3/4 of it: the
// driver, other processes and the kernels' own buffers need the rest).
func checkDeviceMemory(what string, estimate float64, deviceBytes uint64, flags string) error {
	limit := float64(deviceBytes) / 4 * 3
	if deviceBytes == 0 || estimate <= limit {
		return nil
	}
	return usageErrorf("%s needs an estimated %s of GPU memory, over %s (3/4 of the device's): lower %s or use --device cpu",
		what, formatBytes(estimate), formatBytes(limit), flags)
}

func formatBytes(b float64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.1f TiB", b/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", math.Ceil(b/(1<<10)))
}
