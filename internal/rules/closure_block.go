package rules

// blockBuilder turns one basic block into statements: temporaries read once
// fold into the expression that reads them, other register writes stay
// stores to the register file.
type blockBuilder struct {
	p       *Program
	cp      *closureProg
	pending [MaxRegs]*inode // values computed but not yet stored
	stmts   []cstmt
}

type binst struct {
	pc            int
	w             uint32
	imm           uint32
	reads, writes []int
}

func (bb *blockBuilder) build(code []uint32, from, to int, liveOut uint32, blockAt []int) cblock {
	var ins []binst
	for pc := from; pc < to; pc++ {
		in := binst{pc: pc, w: code[pc]}
		in.reads, in.writes, _ = regOperands(code[pc])
		if hasImm(int(code[pc] & 255)) {
			in.imm = code[pc+1]
			pc++
		}
		ins = append(ins, in)
	}
	// fold[j]: instruction j's result is read exactly once, later in the
	// block, and is dead after that read.
	fold := make([]bool, len(ins))
	for j, in := range ins {
		if len(in.writes) != 1 || int(in.w&255) == opLOOP {
			continue
		}
		d := in.writes[0]
		uses, redefined := 0, false
		for _, nx := range ins[j+1:] {
			for _, r := range nx.reads {
				if r == d {
					uses++
				}
			}
			if int(nx.w&255) == opLOOP && nx.reads[0] == d {
				uses += 2 // the loop counter stays in its register
			}
			if len(nx.writes) > 0 && nx.writes[0] == d {
				redefined = true
				break
			}
		}
		fold[j] = uses == 1 && (redefined || liveOut&(1<<d) == 0)
	}
	var blk cblock
	blk.term = termJmp
	blk.next = blockAt[to]
	for j, in := range ins {
		op, a, b, c := decode(in.w)
		switch {
		case op == opNop:
		case op == opLDI:
			bb.define(a, &inode{op: nConst, k: in.imm}, fold[j])
		case op == opMOV:
			bb.define(a, bb.operand(b), fold[j])
		case op == opLD || op == opLDS:
			n := &inode{op: op, field: c}
			if b != noReg {
				n.x = bb.operand(b)
				n.reads, n.loads = n.x.reads, n.x.loads
			}
			if op == opLD {
				n.loads |= 1 << c
			}
			bb.define(a, n, fold[j])
		case op == opST || op == opSTP || op == opADDI || op == opADDF:
			val := bb.operand(a)
			var idx *inode
			if b != noReg {
				idx = bb.operand(b)
			}
			if op != opSTP {
				// A field read from the state and written in place in one
				// rule is read through the snapshot (analyse.go); should it
				// ever not be, reads pending here keep their order.
				bb.flush(func(n *inode) bool { return n.loads&(1<<c) != 0 })
			}
			bb.emit(bb.store(op, c, idx, val))
		case op == opJMP:
			bb.flushAll()
			blk.next = blockAt[in.imm]
		case op == opJZ:
			cond := bb.operand(a)
			bb.flushAll()
			blk.term, blk.cond, blk.alt = termJZ, bb.lower(cond), blockAt[in.imm]
		case op == opLOOP:
			bb.flushAll()
			blk.term, blk.reg, blk.alt = termLoop, a&31, blockAt[in.imm]
		case op == opRET:
			cond := bb.operand(a)
			bb.flushAll()
			blk.term, blk.cond = termRet, bb.lower(cond)
		case op == opEND:
			bb.flushAll()
			blk.term = termEnd
		case op >= opINEG && op <= opBOOL || op >= opFNEG && op <= opF2I:
			x := bb.operand(b)
			bb.define(a, &inode{op: op, x: x, reads: x.reads, loads: x.loads}, fold[j])
		case op >= opIADD && op < opCount:
			x := bb.operand(b)
			y := bb.operand(c)
			bb.define(a, &inode{op: op, x: x, y: y, reads: x.reads | y.reads, loads: x.loads | y.loads}, fold[j])
		default:
			bb.flushAll()
			bb.emit(faultStmt())
		}
	}
	bb.flushAll()
	blk.stmts = bb.stmts
	return blk
}

// operand is register r's value: its pending expression, or a read.
func (bb *blockBuilder) operand(r int) *inode {
	if n := bb.pending[r]; n != nil {
		bb.pending[r] = nil
		return n
	}
	return &inode{op: nReg, reg: r, reads: 1 << r}
}

// define gives register d the value n: kept pending when it folds into
// its one reader, else stored now.
func (bb *blockBuilder) define(d int, n *inode, fold bool) {
	// Pending expressions that read d's old value are computed first.
	bb.flush(func(p *inode) bool { return p.reads&(1<<d) != 0 })
	if bb.pending[d] != nil {
		bb.assign(d, bb.pending[d])
		bb.pending[d] = nil
	}
	if fold {
		bb.pending[d] = n
		return
	}
	bb.assign(d, n)
}

// flush stores the pending expressions that match.
func (bb *blockBuilder) flush(match func(*inode) bool) {
	for r := range bb.pending {
		if n := bb.pending[r]; n != nil && match(n) {
			bb.pending[r] = nil
			bb.assign(r, n)
		}
	}
}

func (bb *blockBuilder) flushAll() { bb.flush(func(*inode) bool { return true }) }

func (bb *blockBuilder) emit(s cstmt) { bb.stmts = append(bb.stmts, s) }

// assign stores n in register d.
func (bb *blockBuilder) assign(d int, n *inode) {
	bb.flush(func(p *inode) bool { return p.reads&(1<<d) != 0 })
	rd := d & 31
	switch n.op {
	case nConst:
		k := n.k
		bb.emit(func(f *cframe) { f.r[rd] = k })
	case nReg:
		rs := n.reg & 31
		bb.emit(func(f *cframe) { f.r[rd] = f.r[rs] })
	default:
		e := bb.lower(n)
		bb.emit(func(f *cframe) { f.r[rd] = e(f) })
	}
}
