package turtle

import "github.com/procgen-dev/procgen/internal/lsys"

// cmd is what a symbol does to the turtle.
type cmd uint8

// The rotations come right after cDraw, so that the walkers find them with
// one comparison, in pairs: k = cm-cLeft rotates in the plane of (H, L),
// (H, U) or (L, U) for k>>1 = 0, 1, 2, the first vector towards the second
// for even k and away for odd k. So + turns H towards L (left), ^ pitches H
// towards U (up), / rolls L towards U (right), and -, &, \ are their
// opposites: ABOP's R_U, R_L and R_H in row form (see the package comment).
const (
	cNone cmd = iota
	cDraw
	cLeft
	cRight
	cPitchUp
	cPitchDown
	cRollRight
	cRollLeft
	cMove
	cAround
	cLevel
	cPush
	cPop
	cThinner
	cThicker
	cColor
	cPolyStart
	cPolyVertex
	cPolyEnd
	// cColorDown is last so that the values above stay those of the CUDA
	// turtle (TC_* in cuda/turtle_math.cuh), which has no decrement.
	cColorDown
	// cSurface (~) is host-only too (see hostOnlySyms).
	cSurface
)

var symbolCmds = map[byte]cmd{
	'F': cDraw, 'G': cDraw, 'f': cMove, 'g': cMove,
	'+': cLeft, '-': cRight, '&': cPitchDown, '^': cPitchUp,
	'\\': cRollLeft, '/': cRollRight, '|': cAround, '$': cLevel,
	'[': cPush, ']': cPop, '!': cThinner, '#': cThicker, '\'': cColor,
	';': cColor, ',': cColorDown, '~': cSurface,
	'{': cPolyStart, '.': cPolyVertex, '}': cPolyEnd,
}

// turtle is the full state: frame, width and colour index.
type turtle struct {
	frame
	width float64
	color int32
}

// xturtle is a relative turtle transform: a frame transform and the width
// and colour updates (see frame).
type xturtle struct {
	frame
	w widthFn
	c colorFn
}

func identityX() xturtle { return xturtle{frame: identityFrame(), c: identityColor()} }

func (t *turtle) apply(x *xturtle) turtle {
	return turtle{frame: t.frame.apply(&x.frame), width: x.w.apply(t.width), color: x.c.apply(t.color)}
}

// program is a system's command table with its default amounts resolved.
type program struct {
	cmds  [256]cmd
	arity [256]uint8
	step  float64
	// cos and sin of the default angle.
	cos, sin   float64
	winc       float64
	tropic     bool
	tropismDir vec3
	elasticity float64
	initial    turtle
	// moveVertices: F and f also add a vertex to the open polygon (see
	// the package comment). Set per string: only strings holding a '{'
	// pay for the events.
	moveVertices bool
}

func newProgram(sys *lsys.System, o Options) *program {
	p := &program{arity: sys.Arity, step: sys.Step}
	for s, c := range symbolCmds {
		p.cmds[s] = c
	}
	p.sin, p.cos = sincosDeg(sys.Angle)
	w0 := widthValue(sys.Width)
	p.winc = o.WidthIncrement
	if p.winc == 0 {
		p.winc = w0 / 10
	}
	p.tropismDir = vec3{sys.Tropism[0], sys.Tropism[1], sys.Tropism[2]}
	p.elasticity = sys.Elasticity
	p.tropic = p.elasticity != 0 && dot(p.tropismDir, p.tropismDir) != 0
	p.initial = turtle{frame: startFrame(), width: w0}
	return p
}

// linear reports whether every command p uses is a fixed transform of the
// frame, so that chunk transforms compose (only tropism and $ are not).
func (p *program) linear(hasLevel bool) bool { return !p.tropic && !hasLevel }

// cs is the cosine and sine of a rotation command's angle.
func (p *program) cs(has bool, v float64) (c, s float64) {
	if !has {
		return p.cos, p.sin
	}
	s, c = sincosDeg(v)
	return c, s
}
