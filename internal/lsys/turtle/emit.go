package turtle

import "math"

// event is a polygon command with the turtle's position and colour.
type event struct {
	p      [3]float32
	color  uint16
	kind   cmd
	module int
}

// emit is pass 2: walk the chunk from its start state, popping into c.pre
// once its own stack is empty, and write its segments and polygon events at
// their offsets; then bound its segments. The loop is walk's, specialised:
// the same helpers, so the same arithmetic.
func (p *program) emit(syms []byte, params []float64, c *chunk, g *Geometry, evs []event) {
	segs := g.Segments
	surfs := g.Surfaces[c.surfOff : c.surfOff+c.surfs]
	ui := 0
	t := c.start
	pos, h, l, u := t.p, t.h, t.l, t.u
	width, color := t.width, t.color
	pre := c.pre
	stack := make([]turtle, 0, 32)
	po := c.paramOff
	segs = segs[c.segOff : c.segOff+c.segs]
	evs = evs[c.evOff : c.evOff+c.events]
	si, ei := 0, 0
	for i := c.lo; i < c.hi; i++ {
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
		// Conditions, not a switch on cm: the compiler turns a dense switch
		// into a jump table and spills the whole turtle state to memory
		// before every jump, which cost more than everything else here.
		switch {
		case cm == cDraw:
			d := p.step
			if has {
				d = v
			}
			// Element by element: a [3]float32 value would be built on
			// the stack and copied with wider loads, which stall on the
			// narrower stores.
			sg := &segs[si]
			si++
			sg.A[0], sg.A[1], sg.A[2] = float32(pos.x), float32(pos.y), float32(pos.z)
			pos = pos.add(h.scale(d))
			sg.B[0], sg.B[1], sg.B[2] = float32(pos.x), float32(pos.y), float32(pos.z)
			sg.Width = float32(width)
			sg.Color = uint16(color)
			if p.moveVertices && s == 'F' {
				evs[ei] = event{p: pos.f32(), color: uint16(color), kind: cPolyVertex, module: i}
				ei++
			}
			if p.tropic {
				h, l, u = tropism(h, l, u, p.tropismDir, p.elasticity)
			}
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
		case cm == cPush:
			stack = append(stack, turtle{frame{pos, h, l, u}, width, color})
		case cm == cPop:
			var r turtle
			if k := len(stack) - 1; k >= 0 {
				r, stack = stack[k], stack[:k]
			} else {
				k = len(pre) - 1
				r, pre = pre[k], pre[:k]
			}
			pos, h, l, u, width, color = r.p, r.h, r.l, r.u, r.width, r.color
		case cm == cMove:
			d := p.step
			if has {
				d = v
			}
			pos = pos.add(h.scale(d))
			if p.moveVertices && s == 'f' {
				evs[ei] = event{p: pos.f32(), color: uint16(color), kind: cPolyVertex, module: i}
				ei++
			}
		case cm == cAround:
			h, l = h.neg(), l.neg()
		case cm == cLevel:
			l, u = level(h, l, u)
		case cm == cThinner || cm == cThicker:
			switch {
			case has:
				width = widthValue(v)
			case cm == cThinner:
				width = max(width-p.winc, 0)
			default:
				width += p.winc
			}
		case cm == cColor || cm == cColorDown:
			switch {
			case has:
				color = colorIndex(v)
			case cm == cColor:
				color = min(color+1, maxColor)
			default:
				color = max(color-1, 0)
			}
		case cm == cSurface:
			if i+1 < len(syms) {
				surfs[ui] = p.surface(syms[i+1], params, po, frame{pos, h, l, u}, color)
				ui++
			}
		default: // polygon events
			evs[ei] = event{p: pos.f32(), color: uint16(color), kind: cm, module: i}
			ei++
		}
	}
	c.box, c.wmax = bound(segs)
}

// bound returns the box around the segments' end points and their largest
// width. Any NaN or infinity makes a corner of the box NaN.
func bound(segs []Segment) (Box, float32) {
	inf := float32(math.Inf(1))
	lx, ly, lz, hx, hy, hz := inf, inf, inf, -inf, -inf, -inf
	var wmax, nan float32
	for i := range segs {
		s := &segs[i]
		for _, q := range [2]*[3]float32{&s.A, &s.B} {
			x, y, z := q[0], q[1], q[2]
			// x*0 is 0 for finite x and NaN otherwise.
			nan += x*0 + y*0 + z*0
			if x < lx {
				lx = x
			}
			if x > hx {
				hx = x
			}
			if y < ly {
				ly = y
			}
			if y > hy {
				hy = y
			}
			if z < lz {
				lz = z
			}
			if z > hz {
				hz = z
			}
		}
		if s.Width > wmax {
			wmax = s.Width
		}
		nan += s.Width * 0
	}
	return Box{Min: [3]float32{lx + nan, ly, lz}, Max: [3]float32{hx, hy, hz}}, wmax + nan
}

// grow extends the box lo..hi by v; the built-in min and max keep a NaN.
func grow(lo, hi, v [3]float32) ([3]float32, [3]float32) {
	for k := range 3 {
		lo[k] = min(lo[k], v[k])
		hi[k] = max(hi[k], v[k])
	}
	return lo, hi
}
