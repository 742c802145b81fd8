package rules

import (
	"math"
	"sync/atomic"
)

// The CPU's fast path: the bytecode compiled once into Go closures. Each
// basic block becomes a list of statements; inside a block, a register
// written once and read once (a temporary) is not stored but folded into the
// expression that reads it, so `c[up + l] + c[up + x]` is one tree of
// closures with the constants and registers of its leaves built in. The
// interpreter (interp.go) stays the reference: every fault is handed back to
// it so the error names the same instruction (closure.go's trees may
// evaluate the operands of one block in another order).

// cframe is one evaluation's machine: registers, the state and its snapshot.
type cframe struct {
	r     [MaxRegs]uint32
	cur   []uint32
	snap  []uint32
	pend  []pendingWrite
	npen  int
	fault bool
	stop  *atomic.Bool
	spins uint32
	// split is set when several goroutines apply one rule to one state
	// (cpu_split.go): += goes through atomics (int) or, in index order,
	// through fadds (float, whose sum depends on the order).
	split bool
	fadds []pendingWrite
}

type cexpr func(*cframe) uint32
type cstmt func(*cframe)

const (
	termJmp = iota
	termJZ
	termLoop
	termRet
	termEnd
)

type cblock struct {
	stmts     []cstmt
	term      int
	cond      cexpr // termJZ, termRet
	reg       int   // termLoop's counter
	next, alt int   // fall-through and taken successors
}

// closureProg is a Program compiled to closures.
type closureProg struct {
	p      *Program
	blocks []cblock
	cond   []int // per rule: entry block of the precondition, -1 without
	body   []int
}

// inode is an expression tree built from a block's instructions.
type inode struct {
	op    int // an opcode, or nReg / nConst
	reg   int
	k     uint32
	field int
	x, y  *inode
	reads uint32 // registers its leaves read
	loads uint32 // fields it reads from the current state
}

const (
	nReg   = -1
	nConst = -2
)

// regOperands returns the registers instruction w reads and writes, and
// false when one lies outside the register file.
func regOperands(w uint32) (reads, writes []int, ok bool) {
	op, a, b, c := decode(w)
	idx := func(r int) []int {
		if r == noReg {
			return nil
		}
		return []int{r}
	}
	switch {
	case op == opLDI:
		writes = []int{a}
	case op == opMOV, op >= opINEG && op <= opBOOL, op >= opFNEG && op <= opF2I:
		reads, writes = []int{b}, []int{a}
	case op == opLD, op == opLDS:
		reads, writes = idx(b), []int{a}
	case op == opST, op == opSTP, op == opADDI, op == opADDF:
		reads = append([]int{a}, idx(b)...)
	case op == opJZ, op == opRET:
		reads = []int{a}
	case op == opLOOP:
		reads, writes = []int{a}, []int{a}
	case op >= opIADD && op < opCount:
		reads, writes = []int{b, c}, []int{a}
	}
	for _, r := range append(append([]int(nil), reads...), writes...) {
		if r >= MaxRegs {
			return nil, nil, false
		}
	}
	return reads, writes, true
}

func regMask(rs []int) uint32 {
	m := uint32(0)
	for _, r := range rs {
		m |= 1 << r
	}
	return m
}

// compileClosures compiles p, or returns nil for code it does not handle
// (registers beyond MaxRegs: never emitted by Compile); the interpreter
// then runs it.
func compileClosures(p *Program) *closureProg {
	code := p.Code
	n := len(code)
	leader := make([]bool, n+1)
	leader[n] = true
	for _, r := range p.Rules {
		if r.CondPC >= 0 {
			leader[r.CondPC] = true
		}
		leader[r.BodyPC] = true
	}
	for pc := 0; pc < n; pc++ {
		op := int(code[pc] & 255)
		if _, _, ok := regOperands(code[pc]); !ok {
			return nil
		}
		if hasImm(op) {
			if pc+1 >= n {
				return nil
			}
			if op != opLDI {
				t := int(code[pc+1])
				if t < 0 || t > n {
					return nil
				}
				leader[t] = true
				leader[pc+2] = true
			}
			pc++
		}
		if op == opRET || op == opEND {
			leader[pc+1] = true
		}
	}
	// Blocks: [start[k], start[k+1]).
	var start []int
	blockAt := make([]int, n+1)
	leader[0] = true
	for pc := 0; pc <= n; pc++ {
		if leader[pc] {
			blockAt[pc] = len(start)
			start = append(start, pc)
		} else {
			blockAt[pc] = -1
		}
	}
	nb := len(start) - 1 // start[nb] == n: the end of the code
	cp := &closureProg{p: p, blocks: make([]cblock, nb+1)}
	// The block past the end faults, as the interpreter would.
	cp.blocks[nb] = cblock{stmts: []cstmt{faultStmt()}, term: termEnd}
	// Successors and per-block uses and defs, for liveness.
	succ := make([][]int, nb)
	use := make([]uint32, nb)
	def := make([]uint32, nb)
	lastPC := make([]int, nb)
	for k := 0; k < nb; k++ {
		pc, last := start[k], -1
		for pc < start[k+1] {
			rd, wr, _ := regOperands(code[pc])
			use[k] |= regMask(rd) &^ def[k]
			def[k] |= regMask(wr)
			last = pc
			if hasImm(int(code[pc] & 255)) {
				pc++
			}
			pc++
		}
		lastPC[k] = last
		op := int(code[last] & 255)
		next := blockAt[start[k+1]]
		switch op {
		case opJMP:
			succ[k] = []int{blockAt[code[last+1]]}
		case opJZ, opLOOP:
			succ[k] = []int{next, blockAt[code[last+1]]}
		case opRET, opEND:
		default:
			succ[k] = []int{next}
		}
	}
	liveIn := make([]uint32, nb+1)
	liveOut := make([]uint32, nb)
	for changed := true; changed; {
		changed = false
		for k := nb - 1; k >= 0; k-- {
			out := uint32(0)
			for _, s := range succ[k] {
				out |= liveIn[s]
			}
			in := use[k] | out&^def[k]
			if in != liveIn[k] || out != liveOut[k] {
				liveIn[k], liveOut[k], changed = in, out, true
			}
		}
	}
	for k := 0; k < nb; k++ {
		bb := &blockBuilder{p: p, cp: cp}
		cp.blocks[k] = bb.build(code, start[k], start[k+1], liveOut[k], blockAt)
	}
	cp.cond = make([]int, len(p.Rules))
	cp.body = make([]int, len(p.Rules))
	for ri, r := range p.Rules {
		cp.cond[ri] = -1
		if r.CondPC >= 0 {
			cp.cond[ri] = blockAt[r.CondPC]
		}
		cp.body[ri] = blockAt[r.BodyPC]
	}
	return cp
}

func faultStmt() cstmt { return func(f *cframe) { f.fault = true } }

// run evaluates from block b with index i: the precondition's value, or
// true at the end of a consequence. f.fault reports a fault (the caller asks
// the interpreter which one).
func (cp *closureProg) run(f *cframe, b int, i int32) bool {
	f.r[0] = uint32(i)
	f.npen = 0
	for {
		blk := &cp.blocks[b]
		for _, s := range blk.stmts {
			s(f)
		}
		if f.fault {
			return false
		}
		switch blk.term {
		case termJmp:
			b = blk.next
		case termJZ:
			v := blk.cond(f)
			if f.fault {
				return false
			}
			if v == 0 {
				b = blk.alt
			} else {
				b = blk.next
			}
		case termLoop:
			if f.spins++; f.spins&(1<<16-1) == 0 && f.stop != nil && f.stop.Load() {
				return false
			}
			r := &f.r[blk.reg]
			*r--
			if int32(*r) > 0 {
				b = blk.alt
			} else {
				b = blk.next
			}
		case termRet:
			v := blk.cond(f)
			return v != 0 && !f.fault
		default:
			return true
		}
	}
}

func fmin32(x, y uint32) uint32 {
	if f32(x) < f32(y) {
		return x
	}
	return y
}

func fmax32(x, y uint32) uint32 {
	if f32(x) > f32(y) {
		return x
	}
	return y
}

func fsqrt32(x uint32) uint32 { return u32(float32(math.Sqrt(float64(f32(x))))) }
