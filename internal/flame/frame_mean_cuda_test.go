//go:build cuda

package flame

import "testing"

// TestCUDAFrameMeanMatchesFlam3 is TestFrameMeanMatchesFlam3 on the GPU: its
// iterate kernel drops each sample's colour fraction as flam3 does too.
func TestCUDAFrameMeanMatchesFlam3(t *testing.T) { frameMeanMatchesFlam3(t, cudaRenderer(t)) }
