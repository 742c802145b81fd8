package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// newProgress returns the callback domain code reports progress through. It
// draws a bar on stderr when stderr is a terminal and --quiet is not set, and
// does nothing otherwise, so logs and pipes stay clean.
func (a *app) newProgress(total int64, description string) func(done, total int64) {
	f, bar := progressTo(a.stderr, isTerminal(a.stderr) && !a.opts.Quiet, total, description)
	if bar != nil {
		a.barsMu.Lock()
		a.bars = append(a.bars, bar)
		a.barsMu.Unlock()
	}
	return f
}

// clearProgress erases bars still drawn, before an error message is printed.
func (a *app) clearProgress() {
	a.barsMu.Lock()
	defer a.barsMu.Unlock()
	for _, b := range a.bars {
		if !b.IsFinished() {
			_ = b.Clear()
		}
	}
	a.bars = nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func progressTo(w io.Writer, show bool, total int64, description string) (func(done, total int64), *progressbar.ProgressBar) {
	if !show {
		return func(int64, int64) {}, nil
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(description),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	max := total
	return func(done, total int64) {
		// Domain code may learn the real amount of work as it goes.
		if total != max && total > 0 {
			max = total
			bar.ChangeMax64(total)
		}
		_ = bar.Set64(done)
		if done >= max {
			_ = bar.Finish()
		}
	}, bar
}
