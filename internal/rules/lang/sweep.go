package lang

import (
	"fmt"
	"sort"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Swept constants (rules run -D NAME=LO:HI:STEP): one compiled program
// serves every combination of a sweep, each combination's states holding
// their constants' values in hidden read-only scalar fields placed after
// every declared field. The declared fields keep the offsets a plain
// compile gives them, so a state's first Words words are the plain
// program's state; unswept constants stay immediates, so the generated
// kernels fold them as before.
//
// A swept constant may be used only where the plain compile would load
// its value as it is: on its own as an operand. Where the plain compile
// folds it with other constants (P * 2.0, uniform(0, P), const Q = P) the
// folding is in float64 at compile time, the hidden field's in float32 at
// run time, and the sweep's rows would differ from separate runs: those
// uses are errors naming file:line:col.

// CompileSwept compiles a rule file whose constants named in swept are
// hidden fields; swept maps each to a value of its type (an int or a
// float, as --define parses it). defines override the other constants.
func CompileSwept(file string, src []byte, defines map[string]string, swept map[string]string) (*bytecode.Program, error) {
	sw := map[string]constVal{}
	for name, s := range swept {
		if _, dup := defines[name]; dup {
			return nil, fmt.Errorf("%s: -D %s given as one value and as a sweep", file, name)
		}
		v, err := parseDefine(s)
		if err != nil {
			return nil, fmt.Errorf("%s: -D %s=%s: %v", file, name, s, err)
		}
		sw[name] = v
	}
	if len(sw) == 0 {
		return compile(file, src, defines, nil)
	}
	return compile(file, src, defines, sw)
}

// sweptDeclared declares the hidden fields (when no rule did) and refuses
// a swept name that is no constant of the file.
func (c *compiler) sweptDeclared() error {
	if c.swept == nil {
		return nil
	}
	if err := c.declSwept(); err != nil {
		return err
	}
	var missing []string
	for name := range c.swept {
		if _, ok := c.sweptPos[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("%s: -D sweeps no constant of the file: %s", c.file, strings.Join(missing, ", "))
	}
	return nil
}

// sweptOrder puts every rule after every constant and field, so that the
// hidden fields, declared before the first rule, follow all declared ones.
func sweptOrder(decls []decl) []decl {
	out := make([]decl, 0, len(decls))
	for _, d := range decls {
		if d.r == nil {
			out = append(out, d)
		}
	}
	for _, d := range decls {
		if d.r != nil {
			out = append(out, d)
		}
	}
	return out
}

// declareSwept notes the declaration of a swept constant: its field comes
// later (declSwept).
func (c *compiler) declareSwept(d *constDecl) error {
	if c.sweptPos == nil {
		c.sweptPos = map[string]bytecode.Pos{}
	}
	c.sweptPos[d.name] = d.p
	return nil
}

// declSwept declares the hidden fields of the swept constants, once,
// before the first rule, in name order.
func (c *compiler) declSwept() error {
	if c.swept == nil || c.sweptDone {
		return nil
	}
	c.sweptDone = true
	names := make([]string, 0, len(c.sweptPos))
	for name := range c.sweptPos {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if len(c.prog.Fields) == bytecode.MaxFields {
			return c.errAt(c.sweptPos[name], "sweeping %s: more than %d fields with the swept constants", name, bytecode.MaxFields)
		}
		t := bytecode.Int
		if c.swept[name].isFloat {
			t = bytecode.Float
		}
		f := bytecode.Field{Name: name, Type: t, Size: 1, Scalar: true, Off: c.prog.Words, Pos: c.sweptPos[name]}
		if f.Off+1 > bytecode.MaxWords {
			return c.errAt(f.Pos, "the state exceeds %d words", bytecode.MaxWords)
		}
		c.prog.Words++
		c.fieldIdx[name] = len(c.prog.Fields)
		c.prog.Fields = append(c.prog.Fields, f)
	}
	return nil
}

// isSwept reports whether e names a swept constant (not a local shadowing it).
func (c *compiler) isSwept(e expr) bool {
	n, ok := e.(*nameRef)
	if !ok || c.lookupLocal(n.name) != nil {
		return false
	}
	_, sw := c.sweptPos[n.name]
	return sw
}

// checkSweptFold refuses an expression the plain compile would fold and
// that holds a swept constant besides being one.
func (c *compiler) checkSweptFold(e expr) error {
	if c.sweptPos == nil || c.isSwept(e) {
		return nil
	}
	if call, ok := e.(*callExpr); ok && call.fn == "uniform" {
		for _, a := range call.args {
			if n := c.sweptIn(a); n != nil {
				return c.errAt(n.p, "%s is swept: uniform's bounds cannot be swept constants (a separate run folds them); draw with rand() and scale", n.name)
			}
		}
	}
	if !c.foldable(e) {
		return nil
	}
	if n := c.sweptIn(e); n != nil {
		return c.errAt(n.p, "%s is swept: it may appear only on its own as an operand, not in a constant expression a separate run folds at compile time; use a let (let p = %s) or sweep the folded value", n.name, n.name)
	}
	return nil
}

// foldable is isConstExpr with the swept constants counted as constants.
func (c *compiler) foldable(e expr) bool {
	switch e := e.(type) {
	case *nameRef:
		return c.isSwept(e) || c.isConstExpr(e)
	case *unaryExpr:
		return c.foldable(e.x)
	case *binaryExpr:
		return c.foldable(e.x) && c.foldable(e.y)
	case *callExpr:
		if isDraw(e.fn) {
			return false
		}
		for _, a := range e.args {
			if !c.foldable(a) {
				return false
			}
		}
		return true
	}
	return c.isConstExpr(e)
}

// sweptIn returns the first swept constant in e, or nil.
func (c *compiler) sweptIn(e expr) *nameRef {
	switch e := e.(type) {
	case *nameRef:
		if c.isSwept(e) {
			return e
		}
	case *unaryExpr:
		return c.sweptIn(e.x)
	case *binaryExpr:
		if n := c.sweptIn(e.x); n != nil {
			return n
		}
		return c.sweptIn(e.y)
	case *callExpr:
		for _, a := range e.args {
			if n := c.sweptIn(a); n != nil {
				return n
			}
		}
	}
	return nil
}
