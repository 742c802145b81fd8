// Package bytecode is the compiled form of a rule file and the reference
// interpreter that runs it on one state: the program model (Type, Field,
// Rule, Program), the instruction set and its encoding, the integer and
// float arithmetic the GPU must match, the counter-based draws, and VM, which
// executes a program's rules on one state and names every fault. It is not
// the language front end (rules.Compile), nor the engines that run many
// states (rules: CPU, CUDA), nor the vectorising batch evaluator or the PTX
// generator, which read this package's opcodes.
package bytecode

import "fmt"

// Type is a field's or an expression's element type.
type Type int32

const (
	Int   Type = 0 // int32
	Float Type = 1 // float32
)

func (t Type) String() string {
	if t == Float {
		return "float"
	}
	return "int"
}

// Field is one named part of the state: an array or (Size 1, Scalar) a scalar.
type Field struct {
	Name   string
	Type   Type
	Size   int
	Scalar bool
	Off    int    // first word in the state
	Init   uint32 // bits of the default value (0 unless declared with = V)
	HasDef bool   // declared with = V: optional in state files (~ uniform only feeds --generate)
	// Gen draws each element uniformly from [GenLo, GenHi] (--generate).
	HasGen       bool
	GenLo, GenHi float64
	Pos          Pos
}

// Rule is one compiled rule: the value range [Lo, Hi), the entry points of its
// precondition (CondPC -1: always true) and consequence, and how its writes
// are applied (see docs/rules-language.md, "One application of a rule").
type Rule struct {
	Name     string
	Pos      Pos
	Lo, Hi   int
	CondPC   int
	BodyPC   int
	SnapMask uint32 // fields it reads from the snapshot taken before the rule
	PendMask uint32 // fields whose plain writes may collide: highest index wins
	AtomMask uint32 // fields it accumulates into with +=
}

// Program is a compiled rule file.
type Program struct {
	File   string
	Fields []Field
	Words  int // 32-bit words per state
	Rules  []Rule
	Code   []uint32
	// Debug maps each code word to its source position and, for loads,
	// stores and divisions, what it does ("cell[...]").
	Debug []DebugInfo
	Regs  int // registers used, r0 is the rule's index
	// Consts holds the file's integer constants after --define (a board's
	// W and H, board.go).
	Consts map[string]int64
	// Draws: a rule calls rand or uniform (rand.go). DrawsInCond: a
	// precondition does, so a step in which no rule fired is no fixed
	// point (the next step draws again): states never stop early and
	// --until-fixpoint is refused.
	Draws, DrawsInCond bool
}

type DebugInfo struct {
	Pos  Pos
	What string
}

// Limits of the bytecode and the kernels.
const (
	MaxFields   = 32       // fields per state (masks are 32 bits)
	MaxRules    = 255      // rules per file
	MaxRegs     = 32       // registers per evaluation (the kernel's register file)
	MaxCode     = 8192     // code words (the kernel keeps the program in shared memory)
	MaxRange    = 1 << 31  // indices per rule (the index is an int32)
	MaxRangeGPU = MaxRange // indices per rule on the GPU (past 2^19: the wide kernels, rules/ptx encoding.go)
	// Words per state: a field of 2^31 cells (an index is an int32, so
	// no field could use more). The CPU backend runs them where memory
	// allows (the run is sized against --max-memory first); the GPU
	// backend takes up to MaxWordsGPU.
	MaxWords = 1 << 31
	// MaxWordsGPU: words per state on the GPU, the most whose padded size
	// (a whole number of 32-word blocks) and every field's size are int32
	// (RulesField); a state that large runs tiled over the whole GPU.
	MaxWordsGPU = 1<<31 - 32
	MaxPendings = 255 // scattered (pending) writes per evaluation
)

// Opcodes. An instruction is op | a<<8 | b<<16 | c<<24; OpLDI, OpJMP, OpJZ
// and OpLOOP take one more word. The CUDA twin is cuda/rules_types.cuh.
const (
	OpNop  = iota
	OpLDI  // r[a] = next word
	OpMOV  // r[a] = r[b]
	OpLD   // r[a] = field c [r[b]] (b == noReg: element 0), from the current state
	OpLDS  // the same, from the snapshot
	OpST   // field c [r[b]] = r[a]
	OpSTP  // pending: highest index (then latest write) wins
	OpADDI // field c [r[b]] += r[a] (int32, wrapping), accumulated
	OpADDF // field c [r[b]] += r[a] (float32), accumulated
	OpJMP  // pc = next word
	OpJZ   // if r[a] == 0 { pc = next word }
	OpLOOP // r[a]--; if int32(r[a]) > 0 { pc = next word }
	OpRET  // end of a precondition: enabled = r[a] != 0
	OpEND  // end of a consequence
	OpIADD
	OpISUB
	OpIMUL
	OpIDIV // truncated; error on 0
	OpIMOD // Euclidean (result in [0, |b|)); error on 0
	OpIAND
	OpIOR
	OpIXOR
	OpISHL // count & 31
	OpISHR // arithmetic, count & 31
	OpIEQ
	OpINE
	OpILT
	OpILE
	OpIMIN
	OpIMAX
	OpINEG
	OpINOT  // ~x
	OpILNOT // !x
	OpIABS
	OpBOOL // r[a] = r[b] != 0
	OpFADD
	OpFSUB
	OpFMUL
	OpFDIV
	OpFEQ
	OpFNE
	OpFLT
	OpFLE
	OpFMIN // a < b ? a : b
	OpFMAX // a > b ? a : b
	OpFNEG
	OpFABS
	OpFSQRT
	OpI2F
	OpF2I // truncated, saturating, NaN -> 0
	OpCount
)

// noReg in an index operand means "element 0" (scalars).
const NoReg = 255

func Encode(op, a, b, c int) uint32 {
	return uint32(op) | uint32(a)<<8 | uint32(b)<<16 | uint32(c)<<24
}

func Decode(w uint32) (op, a, b, c int) {
	return int(w & 255), int(w >> 8 & 255), int(w >> 16 & 255), int(w >> 24)
}

// hasImm reports whether op takes a second word.
func HasImm(op int) bool { return op == OpLDI || op == OpJMP || op == OpJZ || op == OpLOOP }

// FieldByName returns the index of the named field, or -1.
func (p *Program) FieldByName(name string) int {
	for i, f := range p.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// RuleByName returns the index of the named rule, or -1.
func (p *Program) RuleByName(name string) int {
	for i, r := range p.Rules {
		if r.Name == name {
			return i
		}
	}
	return -1
}

// String describes the program's size, for logs.
func (p *Program) String() string {
	return fmt.Sprintf("%d fields (%d words per state), %d rules, %d code words, %d registers",
		len(p.Fields), p.Words, len(p.Rules), len(p.Code), p.Regs)
}
