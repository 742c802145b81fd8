package ptx

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// The GPU kernels come in two encodings of what concurrent threads record:
//
//   - narrow (every rule over at most NarrowRange indices, its indices ending
//     well before 2^31): a fault is one 64-bit atomicMin of
//     rel<<45 | pc<<32 | uint32(value), a pending write one atomicMax of
//     (rel+1)<<40 | npend<<32 | value, a compacted pair rel<<5 | warp in 32
//     bits, firings counted in 32 bits;
//   - wide (any rule past that, up to MaxRange): a fault is two atomicMins,
//     rel<<32 | uint32(value) into err_key and rel<<32 | pc into err_pc,
//     a pending write an atomicMax of (rel+1)<<32 | value (then a
//     compare-and-swap when the thread overwrites its own earlier write
//     with a smaller value), pairs in 64 bits, firings counted in 64 bits
//     (last_fired holds an int64 a state).
//
// Both are exact: a state runs each index of a rule in one thread, which
// stops at its first fault, so a state's faults have distinct rel, and the
// lowest rel carries its own pc and value through both atomicMins; a
// state's pending writes to one word have distinct (rel, npend), and one
// thread's writes reach the word in program order, so the highest rel's
// last write is what stays. Programs that fit the narrow encoding get the
// kernels they always had (TestPTXNarrowUnchanged).
const NarrowRange = 1 << 19

// NeedsWide reports whether p needs the wide kernels: a rule over more than
// NarrowRange indices, or one whose indices come within a block of 2^31
// (the narrow loops step the int32 index by a block and would wrap).
func NeedsWide(p *bytecode.Program) bool {
	for _, r := range p.Rules {
		if r.Hi-r.Lo > NarrowRange || r.Hi > math.MaxInt32-CompactBlock {
			return true
		}
	}
	return false
}
