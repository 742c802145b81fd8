package flamejob

import (
	"io"
	"strings"
	"sync"

	"github.com/procgen-dev/procgen/internal/job"
)

// lazyProgress is progress for work whose total the callee knows: the bar
// is made at its first report.
func lazyProgress(progress func(total int64, description string) func(done, total int64), description string) func(done, total int64) {
	var once sync.Once
	var bar func(done, total int64)
	return func(done, total int64) {
		once.Do(func() { bar = progress(total, description) })
		bar(done, total)
	}
}

// logLines logs each line an internal package writes (one Write a line)
// through one of the logger's levels.
type logLines func(format string, args ...any)

func (l logLines) Write(p []byte) (int, error) {
	l("%s", strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// verboser is a Logger that says whether its Debugf prints (-v).
type verboser interface{ Verbose() bool }

// debugLines is where -v lines go; nil when the logger says Debugf prints
// nothing, so they are not even formatted.
func debugLines(log job.Logger) io.Writer {
	if v, ok := log.(verboser); ok && !v.Verbose() {
		return nil
	}
	return logLines(log.Debugf)
}
