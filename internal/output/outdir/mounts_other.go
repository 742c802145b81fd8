//go:build !linux

package outdir

// mountPoints: none known here; Inspect refuses every non-empty directory
// on such systems anyway (stat_other.go).
func mountPoints() map[string]bool { return nil }
