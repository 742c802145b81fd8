//go:build cuda

package flame

import (
	"testing"
	"unsafe"
)

// TestSharedBytes: a block reserves the genome and, per xform, what its
// family's kernel keeps of it: the flame family (flam3's variations, and
// NVRTC kernels of genomes without plugins) the 800-byte SmemXform
// without the plugin slab, the plugin and 3D families the whole xform.
func TestSharedBytes(t *testing.T) {
	g, x := int(unsafe.Sizeof(gpuGenome{})), int(unsafe.Sizeof(gpuXform{}))
	if smemXformFlam3Bytes != 800 || x <= smemXformFlam3Bytes {
		t.Fatalf("SmemXform %d bytes, FlameXform %d", smemXformFlam3Bytes, x)
	}
	for _, c := range []struct {
		fam  iterFamily
		want int
	}{
		{famFlam3, g + 4*800},
		{famPlugins, g + 4*x},
		{fam3D, g + 4*x},
	} {
		if got := c.fam.sharedBytes(4); got != c.want {
			t.Errorf("family %d: %d bytes for 4 xforms, want %d", c.fam, got, c.want)
		}
	}
}
