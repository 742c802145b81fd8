//go:build cuda

package anim

import "github.com/procgen-dev/procgen/internal/flame"

// The pipeline finds these by type assertion, which would quietly fall back
// to one frame at a time if flame.CUDA's methods drifted from them.
var (
	_ FrameSubmitter = flame.CUDA{}
	_ FrameWarmer    = flame.CUDA{}
)
