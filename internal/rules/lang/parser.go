package lang

import (
	"fmt"
	"strconv"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

type parser struct {
	file string
	toks []token
	k    int
}

// maxNesting bounds expression and block nesting, so hostile input cannot
// exhaust the stack.
const maxNesting = 200

func parseFile(file string, src []byte) (*syntaxTree, error) {
	toks, err := lex(file, src)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, toks: toks}
	return p.parse()
}

func (p *parser) peek() token { return p.toks[p.k] }
func (p *parser) next() token {
	t := p.toks[p.k]
	if t.kind != tEOF {
		p.k++
	}
	return t
}

func (p *parser) errAt(pos bytecode.Pos, format string, args ...any) error {
	return &Error{p.file, pos, fmt.Sprintf(format, args...)}
}

func (p *parser) isOp(s string) bool { t := p.peek(); return t.kind == tOp && t.text == s }
func (p *parser) isWord(s string) bool {
	t := p.peek()
	return t.kind == tIdent && t.text == s
}

func (p *parser) expectOp(s, what string) (token, error) {
	t := p.next()
	if t.kind != tOp || t.text != s {
		return t, p.errAt(t.pos, "expected %q %s, found %s", s, what, t)
	}
	return t, nil
}

func (p *parser) expectWord(s, what string) error {
	t := p.next()
	if t.kind != tIdent || t.text != s {
		return p.errAt(t.pos, "expected %q %s, found %s", s, what, t)
	}
	return nil
}

var keywords = map[string]bool{"state": true, "rule": true, "over": true, "in": true, "when": true, "let": true,
	"if": true, "else": true, "repeat": true, "const": true, "int": true, "float": true}

func (p *parser) ident(what string) (token, error) {
	t := p.next()
	if t.kind != tIdent {
		return t, p.errAt(t.pos, "expected %s, found %s", what, t)
	}
	if keywords[t.text] {
		return t, p.errAt(t.pos, "expected %s, found keyword %q", what, t.text)
	}
	return t, nil
}

func (p *parser) parse() (*syntaxTree, error) {
	tree := &syntaxTree{}
	for {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			if !tree.hasState {
				return nil, p.errAt(t.pos, "no state block: declare the state layout with state { int cells[64] ... }")
			}
			return tree, nil
		case p.isOp(";"):
			p.next()
		case p.isWord("const"):
			c, err := p.constDecl()
			if err != nil {
				return nil, err
			}
			tree.decls = append(tree.decls, decl{c: c})
		case p.isWord("state"):
			if tree.hasState {
				return nil, p.errAt(t.pos, "a second state block: declare every field in one")
			}
			tree.hasState = true
			fs, err := p.stateBlock()
			if err != nil {
				return nil, err
			}
			for _, f := range fs {
				tree.decls = append(tree.decls, decl{f: f})
			}
		case p.isWord("rule"):
			if !tree.hasState {
				return nil, p.errAt(t.pos, "rule before the state block: declare the state first")
			}
			r, err := p.rule()
			if err != nil {
				return nil, err
			}
			tree.decls = append(tree.decls, decl{r: r})
		default:
			return nil, p.errAt(t.pos, "expected const, state or rule, found %s", t)
		}
	}
}

func (p *parser) constDecl() (*constDecl, error) {
	t := p.next() // const
	name, err := p.ident("a constant name")
	if err != nil {
		return nil, err
	}
	if _, err := p.expectOp("=", "after the constant name"); err != nil {
		return nil, err
	}
	x, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	return &constDecl{t.pos, name.text, x}, nil
}

func (p *parser) stateBlock() ([]*fieldDecl, error) {
	p.next() // state
	if _, err := p.expectOp("{", "to open the state block"); err != nil {
		return nil, err
	}
	var fs []*fieldDecl
	for {
		if p.isOp("}") {
			p.next()
			return fs, nil
		}
		if p.isOp(";") {
			p.next()
			continue
		}
		t := p.next()
		if t.kind != tIdent || (t.text != "int" && t.text != "float") {
			return nil, p.errAt(t.pos, "expected a field type (int or float) or '}', found %s", t)
		}
		f := &fieldDecl{p: t.pos, typ: bytecode.Int}
		if t.text == "float" {
			f.typ = bytecode.Float
		}
		name, err := p.ident("a field name")
		if err != nil {
			return nil, err
		}
		f.name, f.p = name.text, name.pos
		if p.isOp("[") {
			p.next()
			if f.size, err = p.expr(0); err != nil {
				return nil, err
			}
			if _, err := p.expectOp("]", "after the array size"); err != nil {
				return nil, err
			}
		}
		if p.isOp("=") {
			p.next()
			if f.init, err = p.expr(0); err != nil {
				return nil, err
			}
		}
		if p.isOp("~") {
			p.next()
			if err := p.expectWord("uniform", "after '~' (a random initialiser: ~ uniform(LO, HI))"); err != nil {
				return nil, err
			}
			if _, err := p.expectOp("(", "after uniform"); err != nil {
				return nil, err
			}
			f.hasGen = true
			if f.genLo, err = p.expr(0); err != nil {
				return nil, err
			}
			if _, err := p.expectOp(",", "between uniform's bounds"); err != nil {
				return nil, err
			}
			if f.genHi, err = p.expr(0); err != nil {
				return nil, err
			}
			if _, err := p.expectOp(")", "after uniform's bounds"); err != nil {
				return nil, err
			}
		}
		fs = append(fs, f)
	}
}

func (p *parser) rule() (*ruleDecl, error) {
	t := p.next() // rule
	name, err := p.ident("a rule name")
	if err != nil {
		return nil, err
	}
	r := &ruleDecl{p: t.pos, name: name.text}
	if err := p.expectWord("over", "after the rule name (rule NAME over i in LO..HI)"); err != nil {
		return nil, err
	}
	v, err := p.ident("the index variable")
	if err != nil {
		return nil, err
	}
	r.v, r.vPos = v.text, v.pos
	if err := p.expectWord("in", "after the index variable"); err != nil {
		return nil, err
	}
	if r.lo, err = p.expr(0); err != nil {
		return nil, err
	}
	if _, err := p.expectOp("..", "in the value range LO..HI"); err != nil {
		return nil, err
	}
	if r.hi, err = p.expr(0); err != nil {
		return nil, err
	}
	for p.isWord("let") {
		s, err := p.stmt(0)
		if err != nil {
			return nil, err
		}
		r.lets = append(r.lets, s.(*letStmt))
	}
	if p.isWord("when") {
		p.next()
		if r.when, err = p.expr(0); err != nil {
			return nil, err
		}
	}
	if r.body, err = p.block(0); err != nil {
		return nil, err
	}
	return r, nil
}

func (p *parser) block(depth int) ([]stmt, error) {
	if depth > maxNesting {
		return nil, p.errAt(p.peek().pos, "blocks nested too deeply")
	}
	if _, err := p.expectOp("{", "to open a block"); err != nil {
		return nil, err
	}
	var out []stmt
	for {
		if p.isOp("}") {
			p.next()
			return out, nil
		}
		if p.isOp(";") {
			p.next()
			continue
		}
		s, err := p.stmt(depth)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

func (p *parser) stmt(depth int) (stmt, error) {
	t := p.peek()
	switch {
	case p.isWord("let"):
		p.next()
		name, err := p.ident("a local name")
		if err != nil {
			return nil, err
		}
		if _, err := p.expectOp("=", "after the local name"); err != nil {
			return nil, err
		}
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		return &letStmt{name.pos, name.text, x}, nil
	case p.isWord("if"):
		return p.ifStmt(depth)
	case p.isWord("repeat"):
		p.next()
		n, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		body, err := p.block(depth + 1)
		if err != nil {
			return nil, err
		}
		return &repeatStmt{t.pos, n, body}, nil
	case t.kind == tIdent && !keywords[t.text]:
		p.next()
		s := &assignStmt{p: t.pos, name: t.text}
		var err error
		if p.isOp("[") {
			p.next()
			if s.idx, err = p.expr(0); err != nil {
				return nil, err
			}
			if _, err := p.expectOp("]", "after the index"); err != nil {
				return nil, err
			}
		}
		op := p.next()
		if op.kind != tOp || (op.text != "=" && op.text != "+=") {
			return nil, p.errAt(op.pos, "expected '=' or '+=' in an assignment, found %s", op)
		}
		s.op = op.text
		if s.x, err = p.expr(0); err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, p.errAt(t.pos, "expected a statement (let, if, repeat or an assignment), found %s", t)
}

func (p *parser) ifStmt(depth int) (stmt, error) {
	t := p.next() // if
	cond, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	s := &ifStmt{p: t.pos, cond: cond}
	if s.then, err = p.block(depth + 1); err != nil {
		return nil, err
	}
	if p.isWord("else") {
		p.next()
		if p.isWord("if") {
			if depth > maxNesting {
				return nil, p.errAt(p.peek().pos, "blocks nested too deeply")
			}
			e, err := p.ifStmt(depth + 1)
			if err != nil {
				return nil, err
			}
			s.els = []stmt{e}
		} else if s.els, err = p.block(depth + 1); err != nil {
			return nil, err
		}
	}
	return s, nil
}

var precedence = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, "<=": 7, ">": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (p *parser) expr(depth int) (expr, error) { return p.binary(1, depth) }

func (p *parser) binary(minPrec, depth int) (expr, error) {
	if depth > maxNesting {
		return nil, p.errAt(p.peek().pos, "expression nested too deeply")
	}
	x, err := p.unary(depth + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		prec, ok := precedence[t.text]
		if t.kind != tOp || !ok || prec < minPrec {
			return x, nil
		}
		p.next()
		y, err := p.binary(prec+1, depth+1)
		if err != nil {
			return nil, err
		}
		x = &binaryExpr{t.pos, t.text, x, y}
	}
}

func (p *parser) unary(depth int) (expr, error) {
	if depth > maxNesting {
		return nil, p.errAt(p.peek().pos, "expression nested too deeply")
	}
	t := p.peek()
	if t.kind == tOp && (t.text == "-" || t.text == "!" || t.text == "~") {
		p.next()
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &unaryExpr{t.pos, t.text, x}, nil
	}
	return p.primary(depth)
}

func (p *parser) primary(depth int) (expr, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil || v > 1<<31 {
			return nil, p.errAt(t.pos, "integer %s does not fit in 32 bits", t.text)
		}
		return &numLit{p: t.pos, i: v, f: float64(v), text: t.text}, nil
	case tFloat:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, p.errAt(t.pos, "bad number %s", t.text)
		}
		return &numLit{p: t.pos, isFloat: true, f: v, text: t.text}, nil
	case tIdent:
		if keywords[t.text] && t.text != "int" && t.text != "float" {
			return nil, p.errAt(t.pos, "expected an expression, found keyword %q", t.text)
		}
		switch {
		case p.isOp("("):
			p.next()
			c := &callExpr{p: t.pos, fn: t.text}
			for !p.isOp(")") {
				a, err := p.expr(depth + 1)
				if err != nil {
					return nil, err
				}
				c.args = append(c.args, a)
				if !p.isOp(")") {
					if _, err := p.expectOp(",", "between arguments"); err != nil {
						return nil, err
					}
				}
			}
			p.next()
			return c, nil
		case p.isOp("["):
			p.next()
			idx, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			if _, err := p.expectOp("]", "after the index"); err != nil {
				return nil, err
			}
			return &indexExpr{t.pos, t.text, idx}, nil
		}
		if t.text == "int" || t.text == "float" {
			return nil, p.errAt(t.pos, "expected '(' after %s (a conversion: %s(x))", t.text, t.text)
		}
		return &nameRef{t.pos, t.text}, nil
	case tOp:
		if t.text == "(" {
			x, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			if _, err := p.expectOp(")", "to close the parenthesis"); err != nil {
				return nil, err
			}
			return x, nil
		}
	}
	return nil, p.errAt(t.pos, "expected an expression, found %s", t)
}
