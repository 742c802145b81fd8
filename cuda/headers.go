// Package cuda holds the project's CUDA C++ sources. The kernels are built
// into the binary ahead of time (make kernels); the headers are also
// embedded here as text, for kernels compiled at run time from them
// (internal/flame's kernels specialised for one genome's xforms, with
// NVRTC).
package cuda

import "embed"

// Headers are the .cuh files of this directory, by file name.
//
//go:embed *.cuh
var Headers embed.FS
