package rules

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// narrowPTXHash is the SHA-256 of every kernel generated for the shipped
// rule files and 60 random programs, all of whose ranges fit the narrow
// encodings (rules/ptx encoding.go), as generated before the wide kernels
// existed (commit 2586627): programs that do not need the wide encodings
// get byte-identical PTX, so their speed on the GPU cannot have changed.
// The test stays in rules although it tests rules/ptx: each module names
// its rule file's path as compiled, and the pin was taken with the paths
// as seen from this directory (../../configs/rules/...).
const narrowPTXHash = "e288f5af7c95c5d719fe2d54d55cbcb7a987ff0cf5775912bb19886c6c7e3d5f"

func TestPTXNarrowUnchanged(t *testing.T) {
	h := sha256.New()
	configs := ptxConfigs(t)
	for _, name := range []string{"eca30", "life", "sandpile", "synthetic"} {
		src, err := ptx.Generate(configs[name], allPTXKernels()...)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(src))
	}
	ps, _ := ptxRandomPrograms(t, 60, func(p *Program) bool { return !ptx.NeedsWide(p) })
	for _, p := range ps {
		src, err := ptx.Generate(p, allPTXKernels()...)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(src))
	}
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != narrowPTXHash {
		t.Errorf("generated PTX hash %s, want %s", got, narrowPTXHash)
	}
}
