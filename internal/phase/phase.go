// Package phase names the phases of a run (parse, iterate, density
// estimation, write ...) so that tests can act at a precise point of one:
// the Ctrl-C tests interrupt each phase in turn and check that the run stops
// there, deterministically rather than by timing. Without a hook in the
// context, Enter costs one context lookup.
package phase

import "context"

// Hook is called as a phase begins, on the goroutine that runs it.
type Hook func(ctx context.Context, name string)

type hookKey struct{}

// WithHook returns ctx carrying h.
func WithHook(ctx context.Context, h Hook) context.Context {
	return context.WithValue(ctx, hookKey{}, h)
}

// Enter marks the start of the phase name.
func Enter(ctx context.Context, name string) {
	if h, ok := ctx.Value(hookKey{}).(Hook); ok && h != nil {
		h(ctx, name)
	}
}
