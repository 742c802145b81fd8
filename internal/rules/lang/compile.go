package lang

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Compile parses, checks and compiles a rule file. defines override the
// file's constants (NAME -> value). Errors name file:line:col.
func Compile(file string, src []byte, defines map[string]string) (*bytecode.Program, error) {
	return compile(file, src, defines, nil)
}

// compile is Compile with swept constants (sweep.go): nil compiles plainly.
func compile(file string, src []byte, defines map[string]string, swept map[string]constVal) (*bytecode.Program, error) {
	tree, err := parseFile(file, src)
	if err != nil {
		return nil, err
	}
	c := &compiler{file: file, consts: map[string]constVal{}, fieldIdx: map[string]int{},
		prog: &bytecode.Program{File: file}, defines: map[string]constVal{}, ruleIdx: map[string]bool{}, swept: swept}
	if swept != nil {
		tree.decls = sweptOrder(tree.decls)
	}
	for name, s := range defines {
		v, err := parseDefine(s)
		if err != nil {
			return nil, fmt.Errorf("%s: --define %s=%s: %v", file, name, s, err)
		}
		c.defines[name] = v
	}
	used := map[string]bool{}
	for _, d := range tree.decls {
		switch {
		case d.c != nil:
			if err := c.declConst(d.c); err != nil {
				return nil, err
			}
			used[d.c.name] = true
		case d.f != nil:
			if err := c.declField(d.f); err != nil {
				return nil, err
			}
		case d.r != nil:
			if err := c.declSwept(); err != nil {
				return nil, err
			}
			if err := c.compileRule(d.r); err != nil {
				return nil, err
			}
		}
	}
	if err := c.sweptDeclared(); err != nil {
		return nil, err
	}
	var unknown []string
	for name := range c.defines {
		if !used[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("%s: --define names no constant of the file: %s", file, strings.Join(unknown, ", "))
	}
	if len(c.prog.Code) > bytecode.MaxCode {
		return nil, fmt.Errorf("%s: the rules compile to %d code words, more than the %d the kernels hold", file, len(c.prog.Code), bytecode.MaxCode)
	}
	c.prog.Regs = max(c.prog.Regs, 1)
	c.prog.Consts = map[string]int64{}
	for name, v := range c.consts {
		if !v.isFloat {
			c.prog.Consts[name] = v.i
		}
	}
	return c.prog, nil
}

type local struct {
	name string
	reg  int
	typ  bytecode.Type
}

// maxRepeatIters bounds the iterations of nested repeats per application.
const maxRepeatIters = 1e10

type compiler struct {
	file     string
	defines  map[string]constVal
	consts   map[string]constVal
	fieldIdx map[string]int
	ruleIdx  map[string]bool
	prog     *bytecode.Program
	// swept: constants compiled as hidden per-state fields (sweep.go),
	// with a value of each one's type; sweptDone once they are declared.
	swept     map[string]constVal
	sweptPos  map[string]bytecode.Pos // the swept constants declared
	sweptDone bool

	// The rule being compiled.
	rule    *ruleDecl
	n       int // its range length
	scopes  [][]local
	nextReg int
	pend    uint32
	atom    uint32
	// iters is the product of the enclosing repeat counts: how often the
	// statement being compiled runs per application of the rule.
	iters  float64
	snap   uint32
	lastPC int // the last instruction emitted
	// Draws (rand.go): each call's site number in the rule, and the
	// register counting finished repeat iterations (-1: none needed).
	sites    map[*callExpr]int
	drawK    int
	firstReg int // the first register after the index (and drawK)
}

func (c *compiler) errAt(p bytecode.Pos, format string, args ...any) error {
	return &Error{c.file, p, fmt.Sprintf(format, args...)}
}

func (c *compiler) describeName(name string) string {
	if _, ok := c.fieldIdx[name]; ok {
		return fmt.Sprintf("field %q", name)
	}
	if c.rule != nil && name == c.rule.v {
		return fmt.Sprintf("index variable %q", name)
	}
	if c.lookupLocal(name) != nil {
		return fmt.Sprintf("local %q", name)
	}
	return fmt.Sprintf("%q", name)
}

// checkNew rejects a name that is already something.
func (c *compiler) checkNew(p bytecode.Pos, name, what string) error {
	switch {
	case name == "uniform" || builtins[name]:
		return c.errAt(p, "%s name %q is a built-in function", what, name)
	case c.fieldIdx[name] != 0 || (len(c.prog.Fields) > 0 && c.prog.Fields[0].Name == name):
		return c.errAt(p, "%s %q: the name is a field already", what, name)
	case c.consts[name] != constVal{} || c.hasConst(name):
		return c.errAt(p, "%s %q: the name is a constant already", what, name)
	case c.rule != nil && name == c.rule.v:
		return c.errAt(p, "%s %q: the name is the rule's index variable", what, name)
	case c.lookupLocal(name) != nil:
		return c.errAt(p, "%s %q: the name is a local already", what, name)
	}
	return nil
}

func (c *compiler) hasConst(name string) bool { _, ok := c.consts[name]; return ok }

var builtins = map[string]bool{"int": true, "float": true, "min": true, "max": true, "abs": true, "sqrt": true,
	"rand": true}

func (c *compiler) declConst(d *constDecl) error {
	if err := c.checkNew(d.p, d.name, "constant"); err != nil {
		return err
	}
	if _, ok := c.swept[d.name]; ok {
		return c.declareSwept(d)
	}
	v, err := c.evalConst(d.x)
	if err != nil {
		return err
	}
	if dv, ok := c.defines[d.name]; ok {
		v = dv
	}
	if !v.isFloat && (v.i > math.MaxInt32 || v.i < math.MinInt32) {
		return c.errAt(d.p, "constant %s = %d does not fit in 32 bits", d.name, v.i)
	}
	c.consts[d.name] = v
	return nil
}

func (c *compiler) constInt(e expr, what string) (int64, error) {
	v, err := c.evalConst(e)
	if err != nil {
		return 0, err
	}
	if v.isFloat {
		return 0, c.errAt(e.at(), "%s must be an integer, not %s", what, v)
	}
	return v.i, nil
}

func (c *compiler) declField(d *fieldDecl) error {
	if err := c.checkNew(d.p, d.name, "field"); err != nil {
		return err
	}
	if len(c.prog.Fields) == bytecode.MaxFields {
		return c.errAt(d.p, "more than %d fields", bytecode.MaxFields)
	}
	f := bytecode.Field{Name: d.name, Type: d.typ, Size: 1, Scalar: d.size == nil, Pos: d.p}
	if d.size != nil {
		n, err := c.constInt(d.size, "an array size")
		if err != nil {
			return err
		}
		if n < 1 || n > bytecode.MaxWords {
			hint := ""
			if n < 0 {
				// -D W=65536 -D H=32768 makes W * H wrap to -2^31.
				hint = " (int constants are 32-bit: a size past 2147483647 wraps around)"
			}
			return c.errAt(d.size.at(), "array size %d out of range 1..%d%s", n, bytecode.MaxWords, hint)
		}
		f.Size = int(n)
	}
	// Arrays of a warp or more start on a 32-word boundary: coalesced loads
	// in layout C and aligned ones in A.
	off := c.prog.Words
	if f.Size >= 32 {
		off = (off + 31) &^ 31
	}
	f.Off = off
	if off+f.Size > bytecode.MaxWords {
		return c.errAt(d.p, "the state exceeds %d words", bytecode.MaxWords)
	}
	c.prog.Words = off + f.Size
	if d.init != nil {
		v, err := c.evalConst(d.init)
		if err != nil {
			return err
		}
		if f.Type == bytecode.Int && v.isFloat {
			return c.errAt(d.init.at(), "int field %s: initial value %s is a float", d.name, v)
		}
		f.Init = constBits(v, f.Type)
		f.HasDef = true
	}
	if d.hasGen {
		lo, err := c.evalConst(d.genLo)
		if err != nil {
			return err
		}
		hi, err := c.evalConst(d.genHi)
		if err != nil {
			return err
		}
		if f.Type == bytecode.Int && (lo.isFloat || hi.isFloat) {
			return c.errAt(d.genLo.at(), "int field %s: uniform bounds must be integers", d.name)
		}
		if hi.float() < lo.float() {
			return c.errAt(d.genLo.at(), "uniform(%s, %s): the upper bound is below the lower", lo, hi)
		}
		f.HasGen, f.GenLo, f.GenHi = true, lo.float(), hi.float()
	}
	c.fieldIdx[d.name] = len(c.prog.Fields)
	c.prog.Fields = append(c.prog.Fields, f)
	return nil
}

func constBits(v constVal, t bytecode.Type) uint32 {
	if t == bytecode.Float {
		return math.Float32bits(float32(v.float()))
	}
	return uint32(int32(v.i))
}

func (c *compiler) compileRule(d *ruleDecl) error {
	if c.ruleIdx[d.name] {
		return c.errAt(d.p, "a second rule named %q", d.name)
	}
	if len(c.prog.Rules) == bytecode.MaxRules {
		return c.errAt(d.p, "more than %d rules", bytecode.MaxRules)
	}
	c.rule, c.scopes = nil, nil
	if err := c.checkNew(d.vPos, d.v, "index variable"); err != nil {
		return err
	}
	lo, err := c.constInt(d.lo, "the range start")
	if err != nil {
		return err
	}
	hi, err := c.constInt(d.hi, "the range end")
	if err != nil {
		return err
	}
	if hi < lo || hi-lo > bytecode.MaxRange || lo < math.MinInt32 || hi > math.MaxInt32+1 {
		return c.errAt(d.lo.at(), "range %d..%d: want LO <= HI and at most %d indices", lo, hi, bytecode.MaxRange)
	}
	c.rule, c.n = d, int(hi-lo)
	defer func() { c.rule = nil }()
	c.scopes = [][]local{{{name: d.v, reg: 0, typ: bytecode.Int}}}
	c.nextReg = 1
	inCond, inLoop, draws := ruleDraws(d)
	c.prog.Draws = c.prog.Draws || draws
	c.prog.DrawsInCond = c.prog.DrawsInCond || inCond
	c.sites, c.drawK = map[*callExpr]int{}, -1
	if inLoop {
		// A hidden local of the whole evaluation, zeroed at both entries.
		c.drawK = 1
		c.scopes[0] = append(c.scopes[0], local{name: " draws", reg: 1, typ: bytecode.Int})
		c.nextReg = 2
		c.prog.Regs = max(c.prog.Regs, 2)
	}
	c.firstReg = c.nextReg
	if err := c.analyse(d); err != nil {
		return err
	}
	r := bytecode.Rule{Name: d.name, Pos: d.p, Lo: int(lo), Hi: int(hi), CondPC: -1}
	lets := make([]stmt, len(d.lets))
	for k, l := range d.lets {
		lets[k] = l
	}
	if d.when != nil {
		r.CondPC = len(c.prog.Code)
		c.zeroDrawK(d.p)
		c.scopes = append(c.scopes, nil)
		for _, l := range lets {
			if err := c.stmt(l); err != nil {
				return err
			}
		}
		t, _, err := c.typeOf(d.when)
		if err != nil {
			return err
		}
		if t != bytecode.Int {
			return c.errAt(d.when.at(), "the precondition is a float: compare it (x != 0.0)")
		}
		reg, err := c.expr(d.when, bytecode.Int)
		if err != nil {
			return err
		}
		c.emit(d.when.at(), "", bytecode.OpRET, reg, 0, 0)
		c.scopes = c.scopes[:1]
		c.nextReg = c.firstReg
	}
	r.BodyPC = len(c.prog.Code)
	c.zeroDrawK(d.p)
	// The body sees the rule's lets again (the compact schedule runs it on
	// another thread than the precondition, with only the index passed on).
	if err := c.block(append(lets, d.body...)); err != nil {
		return err
	}
	c.emit(d.p, "", bytecode.OpEND, 0, 0, 0)
	r.SnapMask, r.PendMask, r.AtomMask = c.snap, c.pend, c.atom
	c.ruleIdx[d.name] = true
	c.prog.Rules = append(c.prog.Rules, r)
	return nil
}

func (c *compiler) emit(p bytecode.Pos, what string, op, a, b, cc int) int {
	pc := len(c.prog.Code)
	c.lastPC = pc
	c.prog.Code = append(c.prog.Code, bytecode.Encode(op, a, b, cc))
	c.prog.Debug = append(c.prog.Debug, bytecode.DebugInfo{Pos: p, What: what})
	return pc
}

func (c *compiler) emitImm(p bytecode.Pos, op, a int, imm uint32) int {
	pc := c.emit(p, "", op, a, 0, 0)
	c.prog.Code = append(c.prog.Code, imm)
	c.prog.Debug = append(c.prog.Debug, bytecode.DebugInfo{Pos: p, What: ""})
	return pc
}

// patch sets the jump target of the instruction at pc.
func (c *compiler) patch(pc, target int) { c.prog.Code[pc+1] = uint32(target) }

func (c *compiler) alloc(p bytecode.Pos) (int, error) {
	if c.nextReg >= bytecode.MaxRegs {
		return 0, c.errAt(p, "expression too complex: more than %d registers (split it with let)", bytecode.MaxRegs)
	}
	r := c.nextReg
	c.nextReg++
	c.prog.Regs = max(c.prog.Regs, c.nextReg)
	return r, nil
}

func (c *compiler) lookupLocal(name string) *local {
	for s := len(c.scopes) - 1; s >= 0; s-- {
		for k := range c.scopes[s] {
			if c.scopes[s][k].name == name {
				return &c.scopes[s][k]
			}
		}
	}
	return nil
}

func (c *compiler) block(stmts []stmt) error {
	c.scopes = append(c.scopes, nil)
	base := c.nextReg
	for _, s := range stmts {
		if err := c.stmt(s); err != nil {
			return err
		}
	}
	c.scopes = c.scopes[:len(c.scopes)-1]
	c.nextReg = base
	return nil
}

func (c *compiler) stmt(s stmt) error {
	switch s := s.(type) {
	case *letStmt:
		if err := c.checkNew(s.p, s.name, "local"); err != nil {
			return err
		}
		t, _, err := c.typeOf(s.x)
		if err != nil {
			return err
		}
		mark := c.nextReg
		r, err := c.expr(s.x, t)
		if err != nil {
			return err
		}
		if r != mark || c.nextReg != mark+1 {
			// The value sits in a local or deeper: give the new local its own register.
			c.nextReg = mark
			dst, err := c.alloc(s.p)
			if err != nil {
				return err
			}
			c.emit(s.p, "", bytecode.OpMOV, dst, r, 0)
			r = dst
		}
		c.scopes[len(c.scopes)-1] = append(c.scopes[len(c.scopes)-1], local{s.name, r, t})
		return nil
	case *assignStmt:
		return c.assign(s)
	case *ifStmt:
		t, _, err := c.typeOf(s.cond)
		if err != nil {
			return err
		}
		if t != bytecode.Int {
			return c.errAt(s.cond.at(), "the condition is a float: compare it (x != 0.0)")
		}
		mark := c.nextReg
		r, err := c.expr(s.cond, bytecode.Int)
		if err != nil {
			return err
		}
		c.nextReg = mark
		jz := c.emitImm(s.p, bytecode.OpJZ, r, 0)
		if err := c.block(s.then); err != nil {
			return err
		}
		if s.els == nil {
			c.patch(jz, len(c.prog.Code))
			return nil
		}
		jmp := c.emitImm(s.p, bytecode.OpJMP, 0, 0)
		c.patch(jz, len(c.prog.Code))
		if err := c.block(s.els); err != nil {
			return err
		}
		c.patch(jmp, len(c.prog.Code))
		return nil
	case *repeatStmt:
		n, err := c.constInt(s.count, "a repeat count")
		if err != nil {
			return err
		}
		if n < 0 || n > math.MaxInt32 {
			return c.errAt(s.count.at(), "repeat count %d: want 0..%d", n, math.MaxInt32)
		}
		// Nested repeats multiply: a body run more than maxRepeatIters
		// times per application would keep one state busy for hours (and
		// a GPU kernel cannot be interrupted).
		outer := max(c.iters, 1)
		if outer*float64(n) > maxRepeatIters {
			return c.errAt(s.count.at(), "nested repeats run their body %.3g times per application: over the limit of %.0g",
				outer*float64(n), float64(maxRepeatIters))
		}
		c.iters = outer * float64(max(n, 1))
		defer func() { c.iters = outer }()
		rc, err := c.alloc(s.p)
		if err != nil {
			return err
		}
		skip := -1
		if n == 0 {
			skip = c.emitImm(s.p, bytecode.OpJMP, 0, 0)
		}
		c.emitImm(s.p, bytecode.OpLDI, rc, uint32(n))
		top := len(c.prog.Code)
		// The counter is a hidden local of the loop's scope.
		c.scopes = append(c.scopes, []local{{name: " repeat", reg: rc, typ: bytecode.Int}})
		err = c.block(s.body)
		c.scopes = c.scopes[:len(c.scopes)-1]
		if err != nil {
			return err
		}
		if err := c.countIteration(s.p); err != nil {
			return err
		}
		c.emitImm(s.p, bytecode.OpLOOP, rc, uint32(top))
		if skip >= 0 {
			c.patch(skip, len(c.prog.Code))
		}
		c.nextReg = rc
		return nil
	}
	return c.errAt(s.at(), "unknown statement")
}
