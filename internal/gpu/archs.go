package gpu

import (
	"errors"
	"strconv"
	"strings"
)

// parseArchs reads the kernel manifest `make kernels` writes beside the
// fatbins: one architecture per line ("sm_90" SASS, "compute_90" PTX).
func parseArchs(manifest string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(manifest, "\n") {
		a := strings.TrimSpace(line)
		if a == "" || strings.HasPrefix(a, "#") || seen[a] {
			continue
		}
		seen[a] = true
		out = append(out, a)
	}
	return out
}

// canRun says whether a device of compute capability major.minor can run any
// of archs: SASS for sm_XY runs on the same major version with minor >= Y;
// PTX for compute_XY is JIT-compiled by the driver for any capability >= XY.
func canRun(archs []string, major, minor int) bool {
	cc := major*10 + minor
	for _, a := range archs {
		kind, num, ok := strings.Cut(a, "_")
		if !ok {
			continue
		}
		v, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		switch kind {
		case "sm":
			if v/10 == major && v%10 <= minor {
				return true
			}
		case "compute":
			if cc >= v {
				return true
			}
		}
	}
	return false
}

// trimUnavailable drops the ErrUnavailable prefix so a Report's Reason reads
// as one plain sentence.
func trimUnavailable(err error) string {
	s := err.Error()
	if errors.Is(err, ErrUnavailable) {
		s = strings.TrimPrefix(s, ErrUnavailable.Error()+": ")
	}
	return s
}
