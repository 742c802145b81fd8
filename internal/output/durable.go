package output

import (
	"context"
	"fmt"
)

// FsyncPolicy says when a result is made durable (fsync before the rename,
// and the directory synced after it), so that a power cut or a kernel crash
// leaves the old file or the new one under its name, never an empty one.
// Every policy keeps the rename: a run that fails or is interrupted never
// leaves a partial result, whatever the policy.
//
// The sync costs a few milliseconds a small file on a slow disk and seconds
// for hundreds of megabytes, a tenth of a small run. It buys something only
// where a later run trusts a file because it exists: --resume skips the
// frames and genomes it finds. So FsyncAuto syncs the results of runs that
// --resume may continue (marked by Resumable) and leaves single results to
// the file system, as cp, tar and image tools do.
type FsyncPolicy int

const (
	// FsyncAlways syncs every result. It is what a context without a
	// policy gets: library callers and tests are safe by default.
	FsyncAlways FsyncPolicy = iota
	// FsyncAuto syncs the results of resumable runs only.
	FsyncAuto
	// FsyncNever syncs nothing.
	FsyncNever
)

// ParseFsync reads the --fsync setting: auto, always or never.
func ParseFsync(s string) (FsyncPolicy, error) {
	switch s {
	case "auto":
		return FsyncAuto, nil
	case "always":
		return FsyncAlways, nil
	case "never":
		return FsyncNever, nil
	}
	return 0, fmt.Errorf("want auto, always or never")
}

type fsyncKey struct{}
type resumableKey struct{}

// WithFsync returns ctx carrying the run's policy; the command layer sets it
// once from --fsync.
func WithFsync(ctx context.Context, p FsyncPolicy) context.Context {
	return context.WithValue(ctx, fsyncKey{}, p)
}

// Resumable marks ctx's results as ones a later --resume run trusts by
// their existence (frames, a batch's images): FsyncAuto syncs them.
func Resumable(ctx context.Context) context.Context {
	return context.WithValue(ctx, resumableKey{}, true)
}

// Durable says whether results written under ctx are synced.
func Durable(ctx context.Context) bool {
	p, _ := ctx.Value(fsyncKey{}).(FsyncPolicy) // none: FsyncAlways
	switch p {
	case FsyncNever:
		return false
	case FsyncAuto:
		r, _ := ctx.Value(resumableKey{}).(bool)
		return r
	}
	return true
}
