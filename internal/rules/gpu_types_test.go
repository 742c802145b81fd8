package rules

import (
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/layouttest"
	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/ptx"
)

// TestRulesGPUTypesMatchHeader checks the Go mirrors and opcodes against
// cuda/rules_types.cuh as the host C++ compiler lays it out.
func TestRulesGPUTypesMatchHeader(t *testing.T) {
	consts := map[string]int64{"RULES_MAX_REGS": bytecode.MaxRegs, "RULES_MAX_FIELDS": bytecode.MaxFields, "RULES_MAX_PEND": bytecode.MaxPendings,
		"RULES_NO_REG": bytecode.NoReg, "RULES_COMPACT_BLOCK": ptx.CompactBlock, "RULES_COMPACT_SMALL": ptx.CompactSmall, "RULES_SIMPLE_BLOCK": ptx.SimpleBlock,
		"RULES_OP_COUNT": bytecode.OpCount, "RULES_OP_RAND": bytecode.OpRAND, "RULES_OP_RANDF": bytecode.OpRANDF, "RULES_OP_URANGE": bytecode.OpURANGE,
		"RULES_OP_TOTAL": bytecode.OpTotal}
	names := []string{"NOP", "LDI", "MOV", "LD", "LDS", "ST", "STP", "ADDI", "ADDF", "JMP", "JZ", "LOOP", "RET", "END",
		"IADD", "ISUB", "IMUL", "IDIV", "IMOD", "IAND", "IOR", "IXOR", "ISHL", "ISHR", "IEQ", "INE", "ILT", "ILE",
		"IMIN", "IMAX", "INEG", "INOT", "ILNOT", "IABS", "BOOL", "FADD", "FSUB", "FMUL", "FDIV", "FEQ", "FNE", "FLT",
		"FLE", "FMIN", "FMAX", "FNEG", "FABS", "FSQRT", "I2F", "F2I"}
	if len(names) != bytecode.OpCount {
		t.Fatalf("%d opcode names for %d opcodes", len(names), bytecode.OpCount)
	}
	for k, n := range names {
		consts["RULES_OP_"+n] = int64(k)
	}
	layouttest.Check(t, layouttest.Header{Dir: "../../cuda", File: "rules_types.cuh", Structs: []layouttest.Struct{
		{C: "RulesField", Go: gpuField{}},
		{C: "RulesRule", Go: gpuRule{}, Fields: []string{"lo", "hi", "cond_pc", "body_pc", "snap_mask", "pend_mask", "atom_mask", "pad0"}},
		{C: "RulesArgs", Go: gpuArgs{}, Fields: []string{"nstates", "words", "nrules", "ncode", "nfields", "step0", "nsteps", "nregs"}},
	}, Consts: consts})
}

func TestLayoutsRoundTrip(t *testing.T) {
	for _, c := range []struct {
		w, h string
		n    int
	}{{"7", "5", 45}, {"7", "5", 1}, {"40", "3", 3}, {"40", "3", 1}} {
		p := compileConfig(t, "life.rules", map[string]string{"W": c.w, "H": c.h})
		st := Generate(p, c.n, 2)
		wp := ptx.PadWords(st.Words)
		for _, l := range []Layout{LayoutA, LayoutB, LayoutC} {
			dev := toLayout(st, l)
			seen := map[int]bool{}
			for s := range st.N {
				for w := range wp {
					k := layoutIndex(l, s, w, st.N, wp)
					if seen[k] || k >= len(dev) {
						t.Fatalf("layout %s: word %d of state %d at %d", l, w, s, k)
					}
					seen[k] = true
					want := uint32(0) // padding
					if w < st.Words {
						want = st.Data[s*st.Words+w]
					}
					if dev[k] != want {
						t.Fatalf("%sx%s, %d states, layout %s: word %d of state %d is %d at %d, want %d",
							c.w, c.h, c.n, l, w, s, dev[k], k, want)
					}
				}
			}
			back := &States{N: st.N, Words: st.Words, Data: make([]uint32, len(st.Data))}
			fromLayout(back, l, dev)
			for k := range st.Data {
				if back.Data[k] != st.Data[k] {
					t.Fatalf("layout %s: word %d", l, k)
				}
			}
		}
	}
}
