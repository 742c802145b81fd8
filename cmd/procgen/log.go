package main

import (
	"fmt"
	"io"
)

// logger writes diagnostics to stderr: Infof unless --quiet, Debugf with
// --verbose (even with --quiet: the user asked for it), Warnf always.
// Results never go through it; they go to stdout or files.
type logger struct {
	w       io.Writer
	quiet   bool
	verbose int
}

func (l *logger) Infof(format string, args ...any) {
	if !l.quiet {
		fmt.Fprintf(l.w, format+"\n", args...)
	}
}

// Debugf logs at verbosity level (1 for -v, 2 for -vv).
func (l *logger) Debugf(format string, args ...any) { l.debugLevelf(1, format, args...) }

// Verbose says whether Debugf prints: jobs skip formatting what would not.
func (l *logger) Verbose() bool { return l.verbose >= 1 }

func (l *logger) debugLevelf(level int, format string, args ...any) {
	if l.verbose >= level {
		fmt.Fprintf(l.w, "procgen: "+format+"\n", args...)
	}
}

func (l *logger) Warnf(format string, args ...any) {
	fmt.Fprintf(l.w, "procgen: warning: "+format+"\n", args...)
}
