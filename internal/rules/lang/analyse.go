package lang

import (
	"fmt"
	"strings"
)

// analyse decides, before a rule is compiled, how each field it writes is
// written (docs/rules-language.md, "One application of a rule"):
//   - += accumulates (AtomMask);
//   - plain writes whose index is the same one-to-one function of the rule's
//     index everywhere (i, i+K, i-K, K*i, (i+K) % N with N >= the range), or
//     any write of a rule over a single index, cannot collide and go in place;
//   - other plain writes may collide and are resolved as "the highest index
//     wins, then the last write of that evaluation" (PendMask);
//   - a field the rule both reads and writes in place or accumulates into is
//     read from a snapshot taken before the rule (SnapMask), so every index
//     sees the state as it was before the rule.
func (c *compiler) analyse(d *ruleDecl) error {
	reads := uint32(0)
	plain := map[int][]expr{}
	plainSeen := map[int]bool{}
	acc := uint32(0)
	firstOp := map[int]string{}
	var walkE func(e expr)
	walkE = func(e expr) {
		switch e := e.(type) {
		case *nameRef:
			if fi, ok := c.fieldIdx[e.name]; ok {
				reads |= 1 << fi
			}
		case *indexExpr:
			if fi, ok := c.fieldIdx[e.name]; ok {
				reads |= 1 << fi
			}
			walkE(e.idx)
		case *unaryExpr:
			walkE(e.x)
		case *binaryExpr:
			walkE(e.x)
			walkE(e.y)
		case *callExpr:
			for _, a := range e.args {
				walkE(a)
			}
		}
	}
	var err error
	var walkS func(ss []stmt, locals map[string]bool)
	walkS = func(ss []stmt, locals map[string]bool) {
		inner := map[string]bool{}
		for k, v := range locals {
			inner[k] = v
		}
		for _, s := range ss {
			switch s := s.(type) {
			case *letStmt:
				walkE(s.x)
				inner[s.name] = true
			case *assignStmt:
				walkE(s.x)
				if s.idx != nil {
					walkE(s.idx)
				}
				fi, ok := c.fieldIdx[s.name]
				if !ok || inner[s.name] {
					continue
				}
				if op, seen := firstOp[fi]; seen && op != s.op && err == nil {
					err = c.errAt(s.p, "rule %s writes field %q with both = and +=: use one per rule", d.name, s.name)
				}
				firstOp[fi] = s.op
				if s.op == "+=" {
					acc |= 1 << fi
				} else {
					plainSeen[fi] = true
					plain[fi] = append(plain[fi], s.idx)
				}
			case *ifStmt:
				walkE(s.cond)
				walkS(s.then, inner)
				walkS(s.els, inner)
			case *repeatStmt:
				walkS(s.body, inner)
			}
		}
	}
	for _, l := range d.lets {
		walkE(l.x)
	}
	if d.when != nil {
		walkE(d.when)
	}
	walkS(d.body, map[string]bool{})
	if err != nil {
		return err
	}
	c.pend, c.atom, c.snap = 0, acc, 0
	for fi, idxs := range plain {
		if !c.inPlace(idxs) {
			c.pend |= 1 << fi
		}
	}
	c.snap = reads & (acc | (packMask(plainSeen) &^ c.pend))
	return nil
}

func packMask(m map[int]bool) uint32 {
	var v uint32
	for fi := range m {
		v |= 1 << fi
	}
	return v
}

// inPlace reports whether plain writes at these indices can never collide
// within one application of the rule being compiled.
func (c *compiler) inPlace(idxs []expr) bool {
	if c.n <= 1 {
		return true
	}
	first := ""
	for k, e := range idxs {
		if e == nil {
			return false // a scalar written by many indices
		}
		s, ok := c.canon(e)
		if !ok {
			return false
		}
		if k == 0 {
			first = s
		} else if s != first {
			return false
		}
	}
	return c.injective(idxs[0])
}

// injective recognises one-to-one functions of the index variable.
func (c *compiler) injective(e expr) bool {
	v := c.rule.v
	isV := func(e expr) bool { n, ok := e.(*nameRef); return ok && n.name == v && c.lookupLocal(v).reg == 0 }
	constI := func(e expr) (int64, bool) {
		if !c.isConstExpr(e) {
			return 0, false
		}
		x, err := c.evalConst(e)
		return x.i, err == nil && !x.isFloat
	}
	var affine func(e expr) bool
	affine = func(e expr) bool {
		if isV(e) {
			return true
		}
		b, ok := e.(*binaryExpr)
		if !ok {
			return false
		}
		switch b.op {
		case "+":
			_, kx := constI(b.x)
			_, ky := constI(b.y)
			return (affine(b.x) && ky) || (kx && affine(b.y))
		case "-":
			_, ky := constI(b.y)
			return affine(b.x) && ky
		}
		return false
	}
	if affine(e) {
		return true
	}
	if b, ok := e.(*binaryExpr); ok {
		switch b.op {
		case "%":
			n, ok := constI(b.y)
			return ok && affine(b.x) && n >= int64(c.n)
		case "*":
			kx, okx := constI(b.x)
			ky, oky := constI(b.y)
			return (isV(b.x) && oky && ky != 0) || (okx && kx != 0 && isV(b.y))
		}
	}
	return false
}

// canon prints e with constants folded, so equal indices compare equal.
func (c *compiler) canon(e expr) (string, bool) {
	if c.isConstExpr(e) {
		v, err := c.evalConst(e)
		return v.String(), err == nil
	}
	switch e := e.(type) {
	case *nameRef:
		return e.name, true
	case *indexExpr:
		x, ok := c.canon(e.idx)
		return e.name + "[" + x + "]", ok
	case *unaryExpr:
		x, ok := c.canon(e.x)
		return e.op + "(" + x + ")", ok
	case *binaryExpr:
		x, okx := c.canon(e.x)
		y, oky := c.canon(e.y)
		return "(" + x + e.op + y + ")", okx && oky
	case *callExpr:
		if isDraw(e.fn) {
			return "", false // two draws of one text differ
		}
		parts := make([]string, len(e.args))
		for k, a := range e.args {
			s, ok := c.canon(a)
			if !ok {
				return "", false
			}
			parts[k] = s
		}
		return fmt.Sprintf("%s(%s)", e.fn, strings.Join(parts, ",")), true
	}
	return "", false
}
