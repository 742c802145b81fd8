//go:build unix

package rules

import "syscall"

// cpuNanos is the process's CPU time (user and system): on a shared
// machine a benchmark's wall time counts other processes' turns too.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
