package rules

// The syntax tree the parser builds and the compiler reads.

type expr interface{ at() Pos }

type numLit struct {
	p       Pos
	isFloat bool
	i       int64
	f       float64
	text    string
}

type nameRef struct {
	p    Pos
	name string
}

type indexExpr struct {
	p    Pos // the name's position
	name string
	idx  expr
}

type unaryExpr struct {
	p  Pos
	op string
	x  expr
}

type binaryExpr struct {
	p    Pos // the operator's position
	op   string
	x, y expr
}

type callExpr struct {
	p    Pos
	fn   string
	args []expr
}

func (e *numLit) at() Pos     { return e.p }
func (e *nameRef) at() Pos    { return e.p }
func (e *indexExpr) at() Pos  { return e.p }
func (e *unaryExpr) at() Pos  { return e.p }
func (e *binaryExpr) at() Pos { return e.p }
func (e *callExpr) at() Pos   { return e.p }

type stmt interface{ at() Pos }

type letStmt struct {
	p    Pos
	name string
	x    expr
}

// assignStmt is NAME = x, NAME[idx] = x or NAME[idx] += x.
type assignStmt struct {
	p    Pos
	op   string // "=" or "+="
	name string
	idx  expr // nil: a scalar field or a local
	x    expr
}

type ifStmt struct {
	p         Pos
	cond      expr
	then, els []stmt
}

type repeatStmt struct {
	p     Pos
	count expr
	body  []stmt
}

func (s *letStmt) at() Pos    { return s.p }
func (s *assignStmt) at() Pos { return s.p }
func (s *ifStmt) at() Pos     { return s.p }
func (s *repeatStmt) at() Pos { return s.p }

type constDecl struct {
	p    Pos
	name string
	x    expr
}

type fieldDecl struct {
	p      Pos
	typ    Type
	name   string
	size   expr // nil: a scalar
	init   expr // nil: 0, or required in input when gen is nil too
	hasGen bool
	genLo  expr
	genHi  expr
}

type ruleDecl struct {
	p      Pos
	name   string
	v      string // the index variable
	vPos   Pos
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
