package main

import (
	"context"
	"errors"
	"io"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/output"
)

// lsysText is what a .txt output (the derived string) needs.
type lsysText struct {
	sys   *lsys.System
	final *lsys.String
	// With allSteps the output holds w0..wn, one line each: the derivation
	// runs again with these options (a step's string is gone once the next
	// is derived, and keeping all of them would cost their sum in memory).
	allSteps bool
	deriver  lsys.Deriver
	opts     lsys.DeriveOptions
}

// writeLsysText writes the derived string to the file out.
func writeLsysText(ctx context.Context, out string, t *lsysText) error {
	return output.WriteFile(out, func(w io.Writer) error { return encodeLsysText(ctx, w, t) })
}

// encodeLsysText writes the final string, or every step's, to w: modules
// with their parameters in the notation of the L-system files, one string a
// line (see lsys.Encoder).
func encodeLsysText(ctx context.Context, w io.Writer, t *lsysText) error {
	if t == nil || t.sys == nil {
		return errors.New("lsys: no derived string to write")
	}
	if !t.allSteps {
		return lsys.Encode(ctx, w, t.sys, t.final)
	}
	enc := lsys.NewEncoder(w, t.sys)
	o := t.opts
	o.Progress = nil
	o.OnStep = func(_ int, s *lsys.String) error { return enc.Encode(ctx, s) }
	_, err := t.deriver.Derive(ctx, t.sys, o)
	return err
}
