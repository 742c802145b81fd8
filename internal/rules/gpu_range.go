package rules

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// decodeFault reads a failed state's fault records (at: err_pc, wide only)
// into the index relative to the rule's lo and the fault: the narrow and
// wide encodings of ptx.NarrowRange's doc, which the interpreter kernels
// and the generated ones share.
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
	cells := int64(n) * int64(ptx.PadWords(p.Words))
	b := 4 * cells
	if snap {
		b += 4 * cells
	}
	if pend {
		b += 8 * cells
	}
	b += int64(n) * (4*4 + 8 + 8 + 4) // stable_at, failed, err_rule, last_fired; err_key; err_pc; wide last_fired
	b += 8 * int64(max(steps, 1)) * int64(len(p.Rules))
	b += int64(n) * 16 // the tiled path's tcount and sfired
	return b + int64(4*(len(p.Code)+2*len(p.Fields)+len(p.Rules)*8))
}

// maxLaunchSteps bounds the steps of one launch (CUDA.Run grows launches
// from one step to 256): a launch cannot be interrupted, so where a step
// evaluates more than 2^24 (state, index) pairs (only programs on the wide
// kernels do) a launch holds at most 2^32 of them, and Ctrl-C or a fixed
// point is seen between launches.
func maxLaunchSteps(p *Program, states int) int {
	if !ptx.NeedsWide(p) {
		return 256
	}
	var work int64
	for _, r := range p.Rules {
		work += int64(states) * int64(r.Hi-r.Lo)
	}
	return int(min(256, max(1, (1<<32)/max(work, 1))))
}
