package main

import (
	"bufio"
	"fmt"
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
	// At least one byte: a fraction of a byte (".1", "0.5B") would round
	// down to a limit of 0.
	if err != nil || !(v*mult >= 1) || v*mult >= 1<<62 {
		return 0, fmt.Errorf("want a size such as 8G, 512M or 1048576 bytes (1 byte up to 4E)")
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
