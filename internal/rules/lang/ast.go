package lang

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// The syntax tree the parser builds and the compiler reads.

type expr interface{ at() bytecode.Pos }

type numLit struct {
	p       bytecode.Pos
	isFloat bool
	i       int64
	f       float64
	text    string
}

type nameRef struct {
	p    bytecode.Pos
	name string
}

type indexExpr struct {
	p    bytecode.Pos // the name's position
	name string
	idx  expr
}

type unaryExpr struct {
	p  bytecode.Pos
	op string
	x  expr
}

type binaryExpr struct {
	p    bytecode.Pos // the operator's position
	op   string
	x, y expr
}

type callExpr struct {
	p    bytecode.Pos
	fn   string
	args []expr
}

func (e *numLit) at() bytecode.Pos     { return e.p }
func (e *nameRef) at() bytecode.Pos    { return e.p }
func (e *indexExpr) at() bytecode.Pos  { return e.p }
func (e *unaryExpr) at() bytecode.Pos  { return e.p }
func (e *binaryExpr) at() bytecode.Pos { return e.p }
func (e *callExpr) at() bytecode.Pos   { return e.p }

type stmt interface{ at() bytecode.Pos }

type letStmt struct {
	p    bytecode.Pos
	name string
	x    expr
}

// assignStmt is NAME = x, NAME[idx] = x or NAME[idx] += x.
type assignStmt struct {
	p    bytecode.Pos
	op   string // "=" or "+="
	name string
	idx  expr // nil: a scalar field or a local
	x    expr
}

type ifStmt struct {
	p         bytecode.Pos
	cond      expr
	then, els []stmt
}

type repeatStmt struct {
	p     bytecode.Pos
	count expr
	body  []stmt
}

func (s *letStmt) at() bytecode.Pos    { return s.p }
func (s *assignStmt) at() bytecode.Pos { return s.p }
func (s *ifStmt) at() bytecode.Pos     { return s.p }
func (s *repeatStmt) at() bytecode.Pos { return s.p }

type constDecl struct {
	p    bytecode.Pos
	name string
	x    expr
}

type fieldDecl struct {
	p      bytecode.Pos
	typ    bytecode.Type
	name   string
	size   expr // nil: a scalar
	init   expr // nil: 0, or required in input when gen is nil too
	hasGen bool
	genLo  expr
	genHi  expr
}

type ruleDecl struct {
	p      bytecode.Pos
	name   string
	v      string // the index variable
	vPos   bytecode.Pos
	lo, hi expr
	lets   []*letStmt // evaluated before the precondition and again before the body
	when   expr       // nil: always
	body   []stmt
}

// decl is one top-level declaration in source order.
type decl struct {
	c *constDecl
	f *fieldDecl
	r *ruleDecl
}

type syntaxTree struct {
	decls    []decl
	hasState bool
}
