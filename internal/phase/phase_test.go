package phase

import (
	"context"
	"testing"
)

// otherKey is an unrelated context key: a value under it derives a context.
type otherKey struct{}

func TestEnter(t *testing.T) {
	Enter(context.Background(), "no hook") // must not panic
	var got []string
	ctx := WithHook(context.Background(), func(_ context.Context, name string) { got = append(got, name) })
	Enter(ctx, "a")
	Enter(context.WithValue(ctx, otherKey{}, 1), "b") // derived contexts keep the hook
	if len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("hook saw %v", got)
	}
}
