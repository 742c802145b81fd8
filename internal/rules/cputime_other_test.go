//go:build !unix

package rules

import "time"

// cpuNanos falls back to wall time where rusage is not available.
func cpuNanos() int64 { return time.Now().UnixNano() }
