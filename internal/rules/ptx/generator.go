package ptx

import (
	"fmt"
	"sort"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Code generation per rule set: a compiled Program becomes PTX text whose
// kernels do what the interpreter kernels of cuda/rules.cu do (same
// schedules, layouts, firing order, snapshot and pending writes, fault keys
// and stability detection), with the bytecode registers in machine
// registers and every rule's precondition and consequence straight-line
// code (a repeat is a PTX loop), its range, masks and field offsets
// constants. The driver compiles the text for the device (internal/gpu
// LoadPTXModule); the interpreter stays the fallback and the reference.
//
// The kernels take fewer parameters than the interpreter's: the code, field
// and rule tables are folded in.

// generator writes one kernel's body; the register declarations are prepended
// when it is done, since PTX wants them before use.
type generator struct {
	p      *bytecode.Program
	layout Layout
	wp     int
	b      strings.Builder
	nr     int // %r (b32) registers used
	nd     int // %rd (b64)
	np     int // %p (predicates)
	nl     int // labels
	// invalid counts instructions translated into a fault because the
	// interpreter has no such opcode (tests check that it has all others).
	invalid int
	// wide: the wide encodings (encoding.go) of faults, pending writes,
	// compacted pairs and firing counts.
	wide bool
	// kernel-wide registers the evaluation code uses
	cur, snap, pend, nstates string
	// draws (rand.go): the seed, the run's number of state 0, the
	// step's and the rule's keys
	seed, first, firstStep, tkey, rkey string
}

func (g *generator) r() string  { g.nr++; return fmt.Sprintf("%%r%d", g.nr) }
func (g *generator) rd() string { g.nd++; return fmt.Sprintf("%%rd%d", g.nd) }
func (g *generator) pr() string { g.np++; return fmt.Sprintf("%%p%d", g.np) }
func (g *generator) label(what string) string {
	g.nl++
	return fmt.Sprintf("$L%d_%s", g.nl, what)
}

// op writes one instruction.
func (g *generator) op(format string, args ...any) {
	g.b.WriteByte('\t')
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteString(";\n")
}

func (g *generator) at(label string) { g.b.WriteString(label + ":\n") }

func (g *generator) comment(format string, args ...any) {
	g.b.WriteString("\t// ")
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// q names bytecode register k.
func q(k int) string { return fmt.Sprintf("%%q%d", k) }

// index returns the element index (64-bit) of word w (a b32 register) of
// state s (a b32 register) in the layout: rules_addr in cuda/rules.cu.
func (g *generator) index(s, w string) string {
	ix := g.rd()
	switch g.layout {
	case LayoutA:
		g.op("mul.wide.u32 %s, %s, %d", ix, s, g.wp)
		t := g.rd()
		g.op("cvt.u64.u32 %s, %s", t, w)
		g.op("add.s64 %s, %s, %s", ix, ix, t)
	case LayoutB:
		g.op("mul.wide.u32 %s, %s, %s", ix, w, g.nstates)
		t := g.rd()
		g.op("cvt.u64.u32 %s, %s", t, s)
		g.op("add.s64 %s, %s, %s", ix, ix, t)
	default:
		hi, lo := g.r(), g.r()
		g.op("shr.u32 %s, %s, 5", hi, w)
		g.op("and.b32 %s, %s, 31", lo, w)
		g.op("mul.wide.u32 %s, %s, %s", ix, hi, g.nstates)
		t := g.rd()
		g.op("cvt.u64.u32 %s, %s", t, s)
		g.op("add.s64 %s, %s, %s", ix, ix, t)
		g.op("shl.b64 %s, %s, 5", ix, ix)
		g.op("cvt.u64.u32 %s, %s", t, lo)
		g.op("add.s64 %s, %s, %s", ix, ix, t)
	}
	return ix
}

// addr returns the address of element ix of the array at base (size 4 or 8).
func (g *generator) addr(base, ix string, size int) string {
	a := g.rd()
	g.op("mad.lo.s64 %s, %s, %d, %s", a, ix, size, base)
	return a
}

// evalSite is where an inlined evaluation continues.
type evalSite struct {
	s, i, rel string // state, index and index - lo (b32 registers)
	key       string // b64 register that receives a fault's key
	at        string // wide: b64 register that receives rel<<32 | pc
	fault     string // label jumped to after a fault (key set)
	enabled   string // precondition held (or a consequence's END/RET)
	disabled  string // precondition did not hold ("" in a consequence)
}

// faultStub is an out-of-line fault path: the hot path only branches.
type faultStub struct {
	label string
	pc    int
	value string // b32 register or immediate
}

// eval inlines the bytecode from entry (a precondition when site.disabled
// is set, else a consequence): rules_exec in cuda/rules.cu, instruction for
// instruction.
func (g *generator) eval(entry int, site evalSite) error {
	code := g.p.Code
	pcs, err := reachable(g.p, entry)
	if err != nil {
		return err
	}
	tag := g.label("pc")
	at := func(pc int) string { return fmt.Sprintf("%s%d", tag, pc) }
	var stubs []faultStub
	fail := func(pc int, value string) string {
		l := fmt.Sprintf("%sf%d_%d", tag, pc, len(stubs))
		stubs = append(stubs, faultStub{l, pc, value})
		return l
	}
	npend := ""
	for _, pc := range pcs {
		op, _, _, _ := bytecode.Decode(code[pc])
		if op == bytecode.OpSTP && npend == "" {
			npend = g.r()
		}
	}
	g.op("mov.u32 %s, %s", q(0), site.i)
	if npend != "" {
		g.op("mov.u32 %s, 0", npend)
	}
	cond := site.disabled != ""
	// Labels only where branches land: straight-line runs stay one block
	// in the text ptxas reads.
	targets := map[int]bool{}
	for _, pc := range pcs {
		if op, _, _, _ := bytecode.Decode(code[pc]); op == bytecode.OpJMP || op == bytecode.OpJZ || op == bytecode.OpLOOP {
			targets[int(code[pc+1])] = true
		}
	}
	for _, pc := range pcs {
		if targets[pc] {
			g.at(at(pc))
		}
		op, a, b, c := bytecode.Decode(code[pc])
		qa, qb, qc := q(a), q(b), q(c)
		bin := func(ins string) { g.op("%s %s, %s, %s", ins, qa, qb, qc) }
		setp := func(cmp string) {
			p := g.pr()
			g.op("setp.%s %s, %s, %s", cmp, p, qb, qc)
			g.op("selp.u32 %s, 1, 0, %s", qa, p)
		}
		switch op {
		case bytecode.OpLDI:
			g.op("mov.b32 %s, 0x%08x", qa, code[pc+1])
		case bytecode.OpMOV:
			g.op("mov.b32 %s, %s", qa, qb)
		case bytecode.OpLD, bytecode.OpLDS, bytecode.OpST, bytecode.OpSTP, bytecode.OpADDI, bytecode.OpADDF:
			f := g.p.Fields[c]
			w := g.r()
			if b == bytecode.NoReg {
				g.op("mov.u32 %s, %d", w, f.Off)
			} else {
				p := g.pr()
				g.op("setp.ge.u32 %s, %s, %d", p, qb, f.Size)
				g.op("@%s bra %s", p, fail(pc, qb))
				g.op("add.s32 %s, %s, %d", w, qb, f.Off)
			}
			ix := g.index(site.s, w)
			switch op {
			case bytecode.OpLD:
				g.op("ld.global.u32 %s, [%s]", qa, g.addr(g.cur, ix, 4))
			case bytecode.OpLDS:
				g.op("ld.global.u32 %s, [%s]", qa, g.addr(g.snap, ix, 4))
			case bytecode.OpST:
				g.op("st.global.u32 [%s], %s", g.addr(g.cur, ix, 4), qa)
			case bytecode.OpSTP:
				p := g.pr()
				g.op("add.s32 %s, %s, 1", npend, npend)
				g.op("setp.gt.s32 %s, %s, %d", p, npend, bytecode.MaxPendings)
				g.op("@%s bra %s", p, fail(pc, npend))
				if g.wide {
					g.pendingWide(qa, site.rel, g.addr(g.pend, ix, 8))
					break
				}
				// (rel+1)<<40 | npend<<32 | value: the high word is (rel+1)<<8 | npend.
				hi, k := g.r(), g.rd()
				g.op("add.s32 %s, %s, 1", hi, site.rel)
				g.op("shl.b32 %s, %s, 8", hi, hi)
				g.op("or.b32 %s, %s, %s", hi, hi, npend)
				g.op("mov.b64 %s, {%s, %s}", k, qa, hi)
				g.op("red.global.max.u64 [%s], %s", g.addr(g.pend, ix, 8), k)
			case bytecode.OpADDI:
				g.op("red.global.add.u32 [%s], %s", g.addr(g.cur, ix, 4), qa)
			default:
				g.op("red.global.add.f32 [%s], %s", g.addr(g.cur, ix, 4), qa)
			}
		case bytecode.OpJMP:
			g.op("bra %s", at(int(code[pc+1])))
		case bytecode.OpJZ:
			p := g.pr()
			g.op("setp.eq.u32 %s, %s, 0", p, qa)
			g.op("@%s bra %s", p, at(int(code[pc+1])))
		case bytecode.OpLOOP:
			p := g.pr()
			g.op("sub.s32 %s, %s, 1", qa, qa)
			g.op("setp.gt.s32 %s, %s, 0", p, qa)
			g.op("@%s bra %s", p, at(int(code[pc+1])))
		case bytecode.OpRET:
			if cond {
				p := g.pr()
				g.op("setp.ne.u32 %s, %s, 0", p, qa)
				g.op("@%s bra %s", p, site.enabled)
				g.op("bra %s", site.disabled)
			} else {
				g.op("bra %s", site.enabled)
			}
		case bytecode.OpEND:
			g.op("bra %s", site.enabled)
		case bytecode.OpIADD:
			bin("add.s32")
		case bytecode.OpISUB:
			bin("sub.s32")
		case bytecode.OpIMUL:
			bin("mul.lo.s32")
		case bytecode.OpIDIV, bytecode.OpIMOD:
			p, done := g.pr(), g.label("mod")
			g.op("setp.eq.s32 %s, %s, 0", p, qc)
			g.op("@%s bra %s", p, fail(pc, "0"))
			// y == -1 (and y == 1 for %) first: INT_MIN / -1 traps nowhere
			// but is undefined in PTX; the interpreter negates (wrapping).
			m1 := g.pr()
			g.op("setp.eq.s32 %s, %s, -1", m1, qc)
			if op == bytecode.OpIDIV {
				t := g.r()
				g.op("neg.s32 %s, %s", t, qb)
				g.op("div.s32 %s, %s, %s", qa, qb, qc)
				g.op("selp.b32 %s, %s, %s, %s", qa, t, qa, m1)
			} else {
				// Euclidean: m += |y| when m < 0 (|y| wrapping, as in C).
				one, y, m, lt, neg := g.pr(), g.r(), g.r(), g.pr(), g.pr()
				g.op("setp.eq.s32 %s, %s, 1", one, qc)
				g.op("or.pred %s, %s, %s", one, one, m1)
				g.op("mov.u32 %s, 0", m)
				g.op("@%s bra %s", one, done)
				g.op("rem.s32 %s, %s, %s", m, qb, qc)
				g.op("setp.lt.s32 %s, %s, 0", neg, qc)
				g.op("neg.s32 %s, %s", y, qc)
				g.op("selp.b32 %s, %s, %s, %s", y, y, qc, neg)
				g.op("setp.lt.s32 %s, %s, 0", lt, m)
				g.op("@%s add.s32 %s, %s, %s", lt, m, m, y)
				g.at(done)
				g.op("mov.b32 %s, %s", qa, m)
			}
		case bytecode.OpIAND:
			bin("and.b32")
		case bytecode.OpIOR:
			bin("or.b32")
		case bytecode.OpIXOR:
			bin("xor.b32")
		case bytecode.OpISHL, bytecode.OpISHR:
			t := g.r()
			g.op("and.b32 %s, %s, 31", t, qc)
			if op == bytecode.OpISHL {
				g.op("shl.b32 %s, %s, %s", qa, qb, t)
			} else {
				g.op("shr.s32 %s, %s, %s", qa, qb, t)
			}
		case bytecode.OpIEQ:
			setp("eq.u32")
		case bytecode.OpINE:
			setp("ne.u32")
		case bytecode.OpILT:
			setp("lt.s32")
		case bytecode.OpILE:
			setp("le.s32")
		case bytecode.OpIMIN:
			bin("min.s32")
		case bytecode.OpIMAX:
			bin("max.s32")
		case bytecode.OpINEG:
			g.op("neg.s32 %s, %s", qa, qb)
		case bytecode.OpINOT:
			g.op("not.b32 %s, %s", qa, qb)
		case bytecode.OpILNOT, bytecode.OpBOOL:
			p := g.pr()
			g.op("setp.%s.u32 %s, %s, 0", map[bool]string{true: "eq", false: "ne"}[op == bytecode.OpILNOT], p, qb)
			g.op("selp.u32 %s, 1, 0, %s", qa, p)
		case bytecode.OpIABS:
			p, t := g.pr(), g.r()
			g.op("setp.lt.s32 %s, %s, 0", p, qb)
			g.op("neg.s32 %s, %s", t, qb)
			g.op("selp.b32 %s, %s, %s, %s", qa, t, qb, p)
		case bytecode.OpFADD:
			bin("add.rn.f32")
		case bytecode.OpFSUB:
			bin("sub.rn.f32")
		case bytecode.OpFMUL:
			bin("mul.rn.f32")
		case bytecode.OpFDIV:
			bin("div.rn.f32")
		case bytecode.OpFEQ:
			setp("eq.f32")
		case bytecode.OpFNE:
			setp("neu.f32")
		case bytecode.OpFLT:
			setp("lt.f32")
		case bytecode.OpFLE:
			setp("le.f32")
		case bytecode.OpFMIN, bytecode.OpFMAX:
			p := g.pr()
			g.op("setp.%s.f32 %s, %s, %s", map[bool]string{true: "lt", false: "gt"}[op == bytecode.OpFMIN], p, qb, qc)
			g.op("selp.b32 %s, %s, %s, %s", qa, qb, qc, p)
		case bytecode.OpFNEG:
			g.op("xor.b32 %s, %s, 0x80000000", qa, qb)
		case bytecode.OpFABS:
			g.op("and.b32 %s, %s, 0x7fffffff", qa, qb)
		case bytecode.OpFSQRT:
			g.op("sqrt.rn.f32 %s, %s", qa, qb)
		case bytecode.OpI2F:
			g.op("cvt.rn.f32.s32 %s, %s", qa, qb)
		case bytecode.OpF2I:
			g.op("cvt.rzi.s32.f32 %s, %s", qa, qb)
		case bytecode.OpRAND, bytecode.OpRANDF:
			if g.rkey == "" {
				return fmt.Errorf("codegen: pc %d: a draw in a kernel without draw keys", pc)
			}
			g.draw(op, a, b, c, site.s)
		case bytecode.OpURANGE:
			g.URange(a, b, c)
		default:
			g.invalid++
			g.op("bra %s", fail(pc, fmt.Sprint(op)))
		}
	}
	if g.wide {
		g.faultStubsWide(stubs, site)
		return nil
	}
	// Fault paths: key = rel<<45 | pc<<32 | uint32(value) (rules_fault_key).
	for _, f := range stubs {
		g.at(f.label)
		hi := g.r()
		g.op("shl.b32 %s, %s, 13", hi, site.rel)
		g.op("or.b32 %s, %s, %d", hi, hi, f.pc)
		if strings.HasPrefix(f.value, "%") {
			g.op("mov.b64 %s, {%s, %s}", site.key, f.value, hi)
		} else {
			v := g.r()
			g.op("mov.b32 %s, %s", v, f.value)
			g.op("mov.b64 %s, {%s, %s}", site.key, v, hi)
		}
		g.op("bra %s", site.fault)
	}
	return nil
}

// reachable lists, in order, the instructions an evaluation from entry can
// execute, and checks that every operand is one the generator (and the
// interpreter) can handle.
func reachable(p *bytecode.Program, entry int) ([]int, error) {
	code := p.Code
	seen := map[int]bool{}
	work := []int{entry}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[pc] {
			continue
		}
		if pc < 0 || pc >= len(code) || pc >= 1<<13 {
			return nil, fmt.Errorf("codegen: pc %d out of the code", pc)
		}
		seen[pc] = true
		op, a, b, c := bytecode.Decode(code[pc])
		next := pc + 1
		if bytecode.HasImm(op) {
			if pc+1 >= len(code) {
				return nil, fmt.Errorf("codegen: pc %d: missing operand", pc)
			}
			next = pc + 2
		}
		regs := []int{a, b, c}
		switch op {
		case bytecode.OpRAND, bytecode.OpRANDF:
			regs = []int{a}
			if b != bytecode.NoReg {
				regs = append(regs, b)
			}
		case bytecode.OpLD, bytecode.OpLDS, bytecode.OpST, bytecode.OpSTP, bytecode.OpADDI, bytecode.OpADDF:
			if c >= len(p.Fields) {
				return nil, fmt.Errorf("codegen: pc %d: field %d", pc, c)
			}
			regs = []int{a}
			if b != bytecode.NoReg {
				regs = append(regs, b)
			}
		}
		for _, k := range regs {
			if k >= bytecode.MaxRegs {
				return nil, fmt.Errorf("codegen: pc %d: register %d", pc, k)
			}
		}
		switch op {
		case bytecode.OpRET, bytecode.OpEND:
		case bytecode.OpJMP:
			work = append(work, int(code[pc+1]))
		case bytecode.OpJZ, bytecode.OpLOOP:
			work = append(work, int(code[pc+1]), next)
		default:
			if op <= bytecode.OpNop || op >= bytecode.OpTotal {
				break // a fault, as in the interpreter
			}
			work = append(work, next)
		}
	}
	pcs := make([]int, 0, len(seen))
	for pc := range seen {
		pcs = append(pcs, pc)
	}
	sort.Ints(pcs)
	return pcs, nil
}
