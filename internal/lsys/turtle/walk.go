package turtle

import "math"

// chunkSize is the number of modules per chunk. It is fixed, not derived
// from the number of workers, so that the chunk start states, and with them
// every rounding, are the same for any number of workers.
const chunkSize = 1 << 15

// span is a balanced group '[' ... ']' at modules lo..hi (inclusive) holding
// params parameters. Its net effect on the turtle is nothing.
type span struct{ lo, hi, params int }

// chunk is a range of modules and what the passes learn about it.
type chunk struct {
	lo, hi int
	// Survey (pass 1).
	segs, events, params int
	surfs                int    // '~' followed by a module
	pops                 int    // ']' that close a '[' before the chunk
	pushes               int    // '[' that the chunk leaves open
	maxRel               int    // deepest nesting relative to the chunk's start
	skips                []span // the maximal balanced groups inside the chunk, in order
	level                bool   // holds a '$'
	// Scan.
	segOff, evOff, paramOff, depth, surfOff int
	// Start states: the turtle at lo, and the states the chunk's unmatched
	// ']' pop, innermost last.
	start turtle
	pre   []turtle
	// Linear summary: the transform from the last unmatched ']' (or lo) to
	// hi, and to each unmatched '['.
	x  xturtle
	ys []xturtle
	// Emit (pass 2): bounds of the segments' end points and their widest
	// width; NaN if any is not finite.
	box  Box
	wmax float32
}

// survey is pass 1: counts and bracket structure, no geometry.
func (p *program) survey(syms []byte, c *chunk) {
	type open struct{ at, params int }
	var stack []open
	po, rel := 0, 0
	for i := c.lo; i < c.hi; i++ {
		s := syms[i]
		n := int(p.arity[s])
		switch p.cmds[s] {
		case cDraw:
			c.segs++
			if p.moveVertices && s == 'F' {
				c.events++
			}
		case cMove:
			if p.moveVertices && s == 'f' {
				c.events++
			}
		case cPolyStart, cPolyVertex, cPolyEnd:
			c.events++
		case cSurface:
			if i+1 < len(syms) {
				c.surfs++
			}
		case cLevel:
			c.level = true
		case cPush:
			stack = append(stack, open{i, po})
			rel++
			c.maxRel = max(c.maxRel, rel)
		case cPop:
			rel--
			if len(stack) == 0 {
				c.pops++
				break
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			// Groups closed earlier inside this one are no longer maximal.
			k := len(c.skips)
			for k > 0 && c.skips[k-1].lo > o.at {
				k--
			}
			c.skips = append(c.skips[:k], span{o.at, i, po + n - o.params})
		}
		po += n
	}
	c.params = po
	c.pushes = len(stack)
}

// walker holds what a walk reads and writes besides the turtle itself.
type walker struct {
	syms   []byte
	params []float64
	// summary: walk a relative transform from the identity; pushes record
	// it in ys, pops restart it (every ']' on a spine is unmatched). Else
	// the real turtle with a stack.
	summary bool
	stack   []turtle
	ys      []xturtle
}

// walk runs modules lo..hi-1 except those in skips (which must lie inside
// and be in order) from turtle t, or from transform x in summary mode, with
// po the parameter offset of lo, to find chunk start states. It does the
// same arithmetic as emit, which is the same loop specialised for writing
// geometry. The state lives in local variables so that it stays in
// registers.
func (p *program) walk(w *walker, lo, hi, po int, skips []span, t turtle, x xturtle) (turtle, xturtle) {
	syms, params := w.syms, w.params
	summary := w.summary
	f := t.frame
	if summary {
		f = x.frame
	}
	pos, h, l, u := f.p, f.h, f.l, f.u
	width, color, wf, cf := t.width, t.color, x.w, x.c
	i := lo
	for k := 0; k <= len(skips); k++ {
		end := hi
		if k < len(skips) {
			end = skips[k].lo
		}
		for ; i < end; i++ {
			s := syms[i]
			n := int(p.arity[s])
			cm := p.cmds[s]
			if cm == cNone {
				po += n
				continue
			}
			has := n > 0
			var v float64
			if has {
				v = params[po]
			}
			po += n
			switch { // not on cm: see emit
			case cm == cDraw:
				d := p.step
				if has {
					d = v
				}
				pos = pos.add(h.scale(d))
				if p.tropic {
					h, l, u = tropism(h, l, u, p.tropismDir, p.elasticity)
				}
			case cm == cMove:
				d := p.step
				if has {
					d = v
				}
				pos = pos.add(h.scale(d))
			case cm <= cRollLeft:
				c, s := p.cs(has, v)
				if k := cm - cLeft; k&1 != 0 {
					s = -s
				}
				switch (cm - cLeft) >> 1 {
				case 0:
					h, l = rot2(h, l, c, s)
				case 1:
					h, u = rot2(h, u, c, s)
				default:
					l, u = rot2(l, u, c, s)
				}
			case cm == cAround:
				h, l = h.neg(), l.neg()
			case cm == cLevel:
				l, u = level(h, l, u)
			case cm == cPush:
				if summary {
					w.ys = append(w.ys, xturtle{frame{pos, h, l, u}, wf, cf})
				} else {
					w.stack = append(w.stack, turtle{frame{pos, h, l, u}, width, color})
				}
			case cm == cPop:
				if summary {
					id := identityX()
					pos, h, l, u, wf, cf = id.p, id.h, id.l, id.u, id.w, id.c
					break
				}
				k := len(w.stack) - 1
				r := w.stack[k]
				w.stack = w.stack[:k]
				pos, h, l, u, width, color = r.p, r.h, r.l, r.u, r.width, r.color
			case cm == cThinner || cm == cThicker:
				var g widthFn
				switch {
				case has:
					g = widthFn{math.Inf(-1), widthValue(v)}
				case cm == cThinner:
					g = widthFn{-p.winc, 0}
				default:
					g = widthFn{p.winc, 0}
				}
				if summary {
					wf = wf.then(g)
				} else {
					width = g.apply(width)
				}
			case cm == cColor || cm == cColorDown:
				g := colorFn{1, 0, maxColor}
				switch {
				case has:
					c := colorIndex(v)
					g = colorFn{0, c, c}
				case cm == cColorDown:
					g = colorFn{-1, 0, maxColor}
				}
				if summary {
					cf = cf.then(g)
				} else {
					color = g.apply(color)
				}
			}
		}
		if k < len(skips) {
			i = skips[k].hi + 1
			po += skips[k].params
		}
	}
	f = frame{pos, h, l, u}
	if summary {
		return t, xturtle{f, wf, cf}
	}
	return turtle{f, width, color}, x
}

// summarize computes a chunk's linear summary by walking its spine (the
// modules outside its balanced groups) from the identity. On the spine every
// ']' is unmatched and comes before every '[', which is unmatched too.
func (p *program) summarize(syms []byte, params []float64, c *chunk) {
	w := &walker{syms: syms, params: params, summary: true}
	_, c.x = p.walk(w, c.lo, c.hi, c.paramOff, c.skips, turtle{}, identityX())
	c.ys = w.ys
}

// combine turns the linear summaries into each chunk's start state, in
// order, with the real turtle stack.
func (p *program) combine(chunks []chunk) {
	var stack []turtle
	cur := p.initial
	for ci := range chunks {
		c := &chunks[ci]
		c.start = cur
		if c.pops > 0 {
			top := len(stack) - c.pops
			c.pre = append([]turtle(nil), stack[top:]...)
			cur = stack[top]
			stack = stack[:top]
		}
		if ci == len(chunks)-1 {
			break
		}
		for k := range c.ys {
			stack = append(stack, cur.apply(&c.ys[k]))
		}
		cur = cur.apply(&c.x)
	}
}

// walkSpines finds the chunk start states when the commands are not linear
// (tropism, $): one sequential walk over every chunk's spine with the real
// turtle. Balanced groups are skipped whole, so the walk is as long as the
// string only for strings with little branching.
func (p *program) walkSpines(syms []byte, params []float64, chunks []chunk) {
	w := &walker{syms: syms, params: params}
	cur := p.initial
	for ci := range chunks {
		c := &chunks[ci]
		c.start = cur
		if c.pops > 0 {
			c.pre = append([]turtle(nil), w.stack[len(w.stack)-c.pops:]...)
		}
		if ci == len(chunks)-1 {
			break
		}
		cur, _ = p.walk(w, c.lo, c.hi, c.paramOff, c.skips, cur, xturtle{})
	}
}
