package lang

// Which rules draw random numbers (bytecode/rand.go), read off the syntax tree.

// isDraw reports whether a call is a draw (never a constant expression).
func isDraw(fn string) bool { return fn == "rand" || fn == "uniform" }

// drawsIn reports whether e holds a draw.
func drawsIn(e expr) bool {
	switch e := e.(type) {
	case *indexExpr:
		return drawsIn(e.idx)
	case *unaryExpr:
		return drawsIn(e.x)
	case *binaryExpr:
		return drawsIn(e.x) || drawsIn(e.y)
	case *callExpr:
		if isDraw(e.fn) {
			return true
		}
		for _, a := range e.args {
			if drawsIn(a) {
				return true
			}
		}
	}
	return false
}

// stmtDraws reports whether the statements hold a draw (any) and one inside
// a repeat (loop).
func stmtDraws(ss []stmt, inRepeat bool) (any, loop bool) {
	for _, s := range ss {
		var a, l bool
		switch s := s.(type) {
		case *letStmt:
			a = drawsIn(s.x)
		case *assignStmt:
			a = drawsIn(s.x) || (s.idx != nil && drawsIn(s.idx))
		case *ifStmt:
			a = drawsIn(s.cond)
			a1, l1 := stmtDraws(s.then, inRepeat)
			a2, l2 := stmtDraws(s.els, inRepeat)
			a, l = a || a1 || a2, l1 || l2
		case *repeatStmt:
			a, l = stmtDraws(s.body, true)
		}
		any = any || a
		loop = loop || l || (a && inRepeat)
	}
	return any, loop
}

// ruleDraws reports whether rule d draws in its precondition (its lets or
// its when: the state's fixed point is then no longer "no rule fired"), and
// whether it draws inside a repeat (the compiler then counts iterations).
func ruleDraws(d *ruleDecl) (inCond, inLoop, any bool) {
	lets := false
	for _, l := range d.lets {
		lets = lets || drawsIn(l.x)
	}
	if d.when != nil { // without one, the lets run before the consequence only
		inCond = lets || drawsIn(d.when)
	}
	body, inLoop := stmtDraws(d.body, false)
	return inCond, inLoop, lets || inCond || body
}
