package cpfg

import (
	"fmt"
	"math"
)

// Surface is a cpfg surface file (.s): bicubic Bézier patches with the
// frame that places them at the turtle. The layout, as cpfg and L-studio's
// surface editor write it:
//
//	xmin xmax ymin ymax zmin zmax          bounding box (not used)
//	PRECISION S: 5 T: 5                    optional; steps per patch
//	CONTACT POINT  X: x Y: y Z: z          put at the turtle's position
//	END POINT  X: x Y: y Z: z              (not used)
//	HEADING  X: x Y: y Z: z                put along the turtle's heading
//	UP  X: x Y: y Z: z                     put along the turtle's up
//	SIZE: s                                the surface is scaled by 1/s
//
// then patches, each: a name; "TOP COLOR: i DIFFUSE: d BOTTOM COLOR: i
// DIFFUSE: d"; its neighbours "AL: n A: n AR: n", "L: n R: n" and "BL: n
// B: n BR: n" (another patch's name, or ~ for none); and 16 control points
// of 3 numbers, four rows of four. Words are separated by any whitespace.
type Surface struct {
	// PrecS and PrecT are the PRECISION line's steps per patch along its
	// rows and columns; 0 where the file has none.
	PrecS, PrecT int
	Contact, End [3]float64
	Heading, Up  [3]float64
	Size         float64
	Patches      []Patch
}

// Patch is one bicubic Bézier patch of a surface.
type Patch struct {
	Name string
	// TopColor and BottomColor are the patch's colour indices and
	// TopDiffuse and BottomDiffuse their diffuse factors, as given. They
	// are read and checked but not drawn: cpfg fills a surface with the
	// turtle's colour and uses these only in its old colour-ramp shading.
	TopColor, BottomColor     int
	TopDiffuse, BottomDiffuse float64
	// Neighbours are the patches around it, in the order AL A AR L R BL B
	// BR (above left, above, ..., below right); "" for none (~ in the file).
	Neighbours [8]string
	// Points are the control points, Points[row][column], rows in file order.
	Points [4][4][3]float64
}

// neighbourLabels are the neighbour lines' labels, in Neighbours' order;
// the neighbour opposite direction n is 7-n (cpfg's convention).
var neighbourLabels = [8]string{"AL:", "A:", "AR:", "L:", "R:", "BL:", "B:", "BR:"}

// MaxPrecision is the most steps per patch side: cpfg stops at 10, more
// gives smoother close-ups and costs (n+1)^2 vertices per patch.
const MaxPrecision = 64

// ParseSurface reads a surface file. Errors name name:line:col and what was
// expected there, as cpfg refuses such files (also a neighbour that names
// no patch, or whose own neighbour entry does not name the patch back).
func ParseSurface(name string, data []byte) (*Surface, error) {
	s := newScanner(name, data)
	surf := &Surface{}
	for _, what := range []string{"the bounding box's xmin", "xmax", "ymin", "ymax", "zmin", "zmax"} {
		if _, _, err := s.number(what); err != nil {
			return nil, err
		}
	}
	if s.peek().text == "PRECISION" {
		var err error
		if err = s.literal("PRECISION S:"); err == nil {
			surf.PrecS, err = s.integer("precision S", 1, MaxPrecision)
		}
		if err == nil {
			err = s.literal("T:")
		}
		if err == nil {
			surf.PrecT, err = s.integer("precision T", 1, MaxPrecision)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := surf.frame(s); err != nil {
		return nil, err
	}
	var toks [][8]token
	for !s.done() {
		p, nt, err := patch(s)
		if err != nil {
			return nil, err
		}
		surf.Patches = append(surf.Patches, p)
		toks = append(toks, nt)
	}
	if len(surf.Patches) == 0 {
		return nil, s.errorf(s.peek(), "expected a patch (its name), found the end of the file: a surface needs at least one")
	}
	if err := surf.checkNeighbours(s, toks); err != nil {
		return nil, err
	}
	return surf, nil
}

// frame reads the contact point, end point, heading, up and size.
func (surf *Surface) frame(s *scanner) error {
	xyz := []string{"X:", "Y:", "Z:"}
	for _, f := range []struct {
		lit string
		to  *[3]float64
	}{{"CONTACT POINT", &surf.Contact}, {"END POINT", &surf.End}, {"HEADING", &surf.Heading}, {"UP", &surf.Up}} {
		at := s.peek()
		if err := s.literal(f.lit); err != nil {
			return err
		}
		v, err := s.labelled(f.lit, xyz...)
		if err != nil {
			return err
		}
		copy(f.to[:], v)
		if f.to == &surf.Heading && norm(surf.Heading) == 0 {
			return s.errorf(at, "HEADING is the zero vector: it must give a direction")
		}
		if f.to == &surf.Up {
			if _, _, _, ok := surf.basis(); !ok {
				return s.errorf(at, "UP is zero or parallel to HEADING: it must give a direction across it")
			}
		}
	}
	if err := s.literal("SIZE:"); err != nil {
		return err
	}
	size, t, err := s.number("SIZE")
	if err != nil {
		return err
	}
	if !(size > 0) {
		return s.errorf(t, "SIZE %g: want a positive number (the surface is scaled by 1/SIZE)", size)
	}
	surf.Size = size
	return nil
}

// patch reads one patch; the tokens are its neighbour names, for errors.
func patch(s *scanner) (Patch, [8]token, error) {
	var p Patch
	var nt [8]token
	t, err := s.word("a patch name")
	if err != nil {
		return p, nt, err
	}
	p.Name = t.text
	steps := []func() error{
		func() error { return s.literal("TOP COLOR:") },
		func() (err error) { p.TopColor, err = s.integer("top colour", 0, math.MaxUint16); return },
		func() error { return s.literal("DIFFUSE:") },
		func() (err error) { p.TopDiffuse, _, err = s.number("top diffuse"); return },
		func() error { return s.literal("BOTTOM COLOR:") },
		func() (err error) { p.BottomColor, err = s.integer("bottom colour", 0, math.MaxUint16); return },
		func() error { return s.literal("DIFFUSE:") },
		func() (err error) { p.BottomDiffuse, _, err = s.number("bottom diffuse"); return },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return p, nt, err
		}
	}
	for n, l := range neighbourLabels {
		if err := s.literal(l); err != nil {
			return p, nt, err
		}
		if nt[n], err = s.word("a neighbour's name or ~"); err != nil {
			return p, nt, err
		}
		if nt[n].text != "~" {
			p.Neighbours[n] = nt[n].text
		}
	}
	for i := range 16 {
		for k, axis := range "xyz" {
			v, _, err := s.number(fmt.Sprintf("control point %d,%d's %c", i/4, i%4, axis))
			if err != nil {
				return p, nt, err
			}
			p.Points[i/4][i%4][k] = v
		}
	}
	return p, nt, nil
}

// checkNeighbours refuses repeated patch names, neighbours that name no
// patch and neighbours that do not name the patch back, as cpfg does.
func (surf *Surface) checkNeighbours(s *scanner, toks [][8]token) error {
	index := map[string]int{}
	for i, p := range surf.Patches {
		if _, dup := index[p.Name]; dup {
			return fmt.Errorf("%s: patch name %q is used twice: neighbours name patches", s.name, p.Name)
		}
		index[p.Name] = i
	}
	for i, p := range surf.Patches {
		for n, other := range p.Neighbours {
			if other == "" {
				continue
			}
			j, ok := index[other]
			if !ok {
				return s.errorf(toks[i][n], "%s: no patch %q", neighbourLabels[n], other)
			}
			if back := surf.Patches[j].Neighbours[7-n]; back != p.Name {
				if back == "" {
					back = "~"
				}
				return s.errorf(toks[i][n], "%s: patch %s names %s here, but %s's %s is %s, not %s",
					neighbourLabels[n], p.Name, other, other, neighbourLabels[7-n], back, p.Name)
			}
		}
	}
	return nil
}

func norm(v [3]float64) float64 { return math.Sqrt(dot(v, v)) }

func dot(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func scale(v [3]float64, k float64) [3]float64 { return [3]float64{v[0] * k, v[1] * k, v[2] * k} }

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// basis is the surface's frame made orthonormal: the heading h, the up
// vector u with its part along h removed (cpfg does the same with a cross
// product), and h×u; ok is false where up is zero or along the heading.
func (surf *Surface) basis() (h, u, side [3]float64, ok bool) {
	hl := norm(surf.Heading)
	if hl == 0 || math.IsInf(hl, 0) {
		return h, u, side, false
	}
	h = scale(surf.Heading, 1/hl)
	u = sub(surf.Up, scale(h, dot(surf.Up, h)))
	ul := norm(u)
	if !(ul > 1e-9*norm(surf.Up)) || math.IsInf(ul, 0) {
		return h, u, side, false
	}
	u = scale(u, 1/ul)
	return h, u, cross(h, u), true
}
