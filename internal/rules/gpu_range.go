package rules

import (
	"fmt"
	"math"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// The GPU kernels come in two encodings of what concurrent threads record:
//
//   - narrow (every rule over at most narrowRange indices, its indices ending
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
const narrowRange = 1 << 19

// gpuWide reports whether p needs the wide kernels: a rule over more than
// narrowRange indices, or one whose indices come within a block of 2^31
// (the narrow loops step the int32 index by a block and would wrap).
func gpuWide(p *Program) bool {
	for _, r := range p.Rules {
		if r.Hi-r.Lo > narrowRange || r.Hi > math.MaxInt32-gpuCompactBlock {
			return true
		}
	}
	return false
}

// decodeFault reads a failed state's fault records (at: err_pc, wide only)
// into the index relative to the rule's lo and the fault.
func decodeFault(wide bool, key, at uint64) (rel int, f bytecode.Fault, err error) {
	if !wide {
		return int(key >> 45), bytecode.Fault{PC: int(key >> 32 & 0x1fff), Value: int32(uint32(key))}, nil
	}
	rel = int(key >> 32)
	if at>>32 != key>>32 || rel >= bytecode.MaxRange {
		return 0, bytecode.Fault{}, fmt.Errorf("rules: the GPU's fault records disagree (%#x, %#x)", key, at)
	}
	return rel, bytecode.Fault{PC: int(uint32(at)), Value: int32(uint32(key))}, nil
}

// wideFaultKeys is what a wide kernel records for a fault at rel (the
// encodings above; tests check the kernels against it).
func wideFaultKeys(rel, pc int, value int32) (key, at uint64) {
	return uint64(rel)<<32 | uint64(uint32(value)), uint64(rel)<<32 | uint64(pc)
}

// gpuMemory estimates the device memory a run of n states takes, before
// anything is allocated: the states, the snapshot and pending buffers when
// a rule needs them, the per-state records and the per-step firing counts.
func gpuMemory(p *Program, n, steps int) int64 {
	var snap, pend bool
	for _, r := range p.Rules {
		snap = snap || r.SnapMask != 0
		pend = pend || r.PendMask != 0
	}
	cells := int64(n) * int64(padWords(p.Words))
	b := 4 * cells
	if snap {
		b += 4 * cells
	}
	if pend {
		b += 8 * cells
	}
	b += int64(n) * (4*4 + 8 + 8 + 4) // stable_at, failed, err_rule, last_fired; err_key; err_pc; wide last_fired
	b += 8 * int64(max(steps, 1)) * int64(len(p.Rules))
	return b + int64(4*(len(p.Code)+2*len(p.Fields)+len(p.Rules)*8))
}

// maxLaunchSteps bounds the steps of one launch (CUDA.Run grows launches
// from one step to 256): a launch cannot be interrupted, so where a step
// evaluates more than 2^24 (state, index) pairs (only programs on the wide
// kernels do) a launch holds at most 2^32 of them, and Ctrl-C or a fixed
// point is seen between launches.
func maxLaunchSteps(p *Program, states int) int {
	if !gpuWide(p) {
		return 256
	}
	var work int64
	for _, r := range p.Rules {
		work += int64(states) * int64(r.Hi-r.Lo)
	}
	return int(min(256, max(1, (1<<32)/max(work, 1))))
}
