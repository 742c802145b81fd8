//go:build !cuda

package lifepack

import (
	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/rules"
)

// NewEngine returns fallback: this build has no CUDA backend, and gpu.Open
// never yields a device in it.
func NewEngine(_ *gpu.Device, _ Rule, _ Board, fallback rules.Engine) rules.Engine { return fallback }
