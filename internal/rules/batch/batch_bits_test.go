package batch

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// TestCmpRangeBits: a comparison with a constant kept as bits agrees with
// the lane loop at the edges of int32, either operand the constant, on
// batches that are not a multiple of 64 lanes.
func TestCmpRangeBits(t *testing.T) {
	edges := []int32{math.MinInt32, math.MinInt32 + 1, -3, -1, 0, 1, 2, 3, 4, math.MaxInt32 - 1, math.MaxInt32}
	var X, K, want [lanes]uint32
	for _, n := range []int{lanes, 200, 1} {
		for i := range X {
			X[i] = uint32(edges[i%len(edges)])
		}
		act := make([]uint8, n)
		for i := range act {
			act[i] = uint8(i)
		}
		for _, op := range []int{bytecode.OpIEQ, bytecode.OpINE, bytecode.OpILT, bytecode.OpILE} {
			for _, k := range edges {
				for _, flip := range []bool{false, true} {
					for i := range K {
						K[i] = uint32(k)
					}
					if flip {
						batchBinary(op, &want, &K, &X, act, n)
					} else {
						batchBinary(op, &want, &X, &K, act, n)
					}
					lo, w, neg, ok := cmpRange(op, uint32(k), flip)
					if !ok {
						t.Fatalf("op %d: no range", op)
					}
					var bv [bitWords]uint64
					rangeBits(&bv, X[:n], lo, w, neg)
					got := make([]uint32, n)
					expandBits(got, &bv)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("n %d op %d k %d flip %v: lane %d (x %d): %d, want %d", n, op, k, flip, i, int32(X[i]), got[i], want[i])
						}
					}
					for i := n; i < lanes; i++ {
						if bv[i/64]>>(i%64)&1 != 0 {
							t.Fatalf("n %d op %d: lane %d past the batch set", n, op, i)
						}
					}
				}
			}
		}
	}
}
