package syntax

import (
	"errors"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// evalConst evaluates an expression without parameters (a #define, an axiom
// argument, a probability, a directive's value). It compiles the expression
// and runs lsys's own evaluator, so a constant gets exactly the value (and
// the errors: division by zero, domain, non-finite results) that the same
// expression would get in a production on either backend.
func (s *source) evalConst(n *node, text string, off int) (float64, error) {
	e, err := s.compile(n, text, off)
	if err != nil {
		return 0, err
	}
	if err := e.Check(0); err != nil {
		if n := firstSlot(n); n != nil {
			return 0, s.errorf(n.off, "a parameter cannot appear here: expected a constant")
		}
		return 0, s.errorf(off, "internal error: %v", err)
	}
	v, err := e.Eval(nil)
	if err != nil {
		var xe *lsys.ExprError
		if errors.As(err, &xe) && xe.Detail != "" {
			return 0, s.errorf(off, "cannot evaluate %s: %v (%s)", quote(text), xe.Err, xe.Detail)
		}
		return 0, s.errorf(off, "cannot evaluate %s: %v", quote(text), err)
	}
	return v, nil
}

// firstSlot finds a parameter reference, which no constant may hold.
func firstSlot(n *node) *node {
	if n == nil {
		return nil
	}
	if n.kind == nSlot {
		return n
	}
	for _, k := range append([]*node{n.a, n.b}, n.args...) {
		if s := firstSlot(k); s != nil {
			return s
		}
	}
	return nil
}
