// Package turtle interprets a derived L-system string as geometry with the
// 3D turtle of "The Algorithmic Beauty of Plants" (ABOP, Prusinkiewicz and
// Lindenmayer 1990, chapters 1 and 2), and writes the geometry as OBJ and
// as a PNG preview. The domain code writes to io.Writers and returns images;
// cmd puts them in files (internal/output).
//
// # Conventions
//
// The turtle has a position P, an orthonormal frame of heading H, left L and
// up U with H × L = U, a line width and a colour index. It starts at the
// origin with H = +Y, L = -X, U = +Z, the initial width System.Width and
// colour 0. A 2D L-system therefore grows upwards in the XY plane and is seen
// as in the book when looking along -Z ("front" view).
//
// Commands (a module's first parameter, when the module has one, replaces
// the default amount; other parameters are ignored):
//
//	F G      move forward by the parameter or System.Step, drawing a segment
//	f g      move forward without drawing
//	+ -      turn left / right by the angle (degrees; default System.Angle)
//	& ^      pitch down / up
//	\ /      roll left / right
//	|        turn around (180° about U)
//	$        roll about H until L is horizontal (ABOP p. 57, V = +Y)
//	[ ]      push / pop the whole turtle state
//	! #      set the width to the parameter; without one, decrease / increase
//	         it by Options.WidthIncrement (never below zero; as in cpfg)
//	' ;      set the colour index to the parameter; without one, add 1
//	,        set the colour index to the parameter; without one, subtract 1
//	         (never below 0), as cpfg's ; and , do
//	{ . }    start a polygon, add the position as a vertex, end it
//	~X       draw the predefined surface named by the next module X at the
//	         turtle, in its frame, scaled by X's first parameter (1 without
//	         one), with the current colour (cpfg's ~; see SurfaceUse)
//
// Every other symbol is ignored. The rotations are the book's R_U, R_L and
// R_H (section 1.5) applied to the frame written as the rows of a matrix,
// [H; L; U]' = R [H; L; U]: this is the reading under which + turns H towards
// L (left), & pitches H towards -U (down) and \ rolls U towards L (left), as
// the book's text and 2D figures require. (Read as [H L U]' = [H L U] R, the
// printed matrices would turn each the other way.)
//
// Tropism (ABOP chapter 2, with fig. 2.8): after every drawing move F or G,
// when System.Elasticity e and System.Tropism T are non-zero, the frame is
// rotated about H × T by the angle e·|H × T| (radians), bending H towards T.
//
// Polygons follow cpfg's rules (ABOP sections 1.10.3 and 5.1). They do not
// follow the bracket structure: '{' opens a new polygon on a polygon stack,
// and '}' closes the innermost open one with the turtle's colour at that
// moment. While one is open, the moves F and f add the position they reach
// to it, so that "{-f+f+f-|-f+f+f}" traces a leaf (F also draws its segment);
// G and g move without adding a vertex, and '.' adds the turtle's position
// explicitly, as in ABOP's "{.].C.}" with C -> GC. A vertex where the
// polygon's last vertex is adds nothing, so ".f." traces what "f" does.
// Polygons with fewer than three vertices, and those never closed, are
// dropped; '.' outside any polygon is ignored. A ']' or '}' without its
// opening partner is an error (ErrUnbalanced); a '[' never closed is not.
package turtle

import (
	"context"
	"errors"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// Interpreter turns a module string into geometry.
type Interpreter interface {
	Interpret(ctx context.Context, sys *lsys.System, s *lsys.String, o Options) (*Geometry, error)
}

// Options control interpretation.
type Options struct {
	// Workers is the number of goroutines; 0 means GOMAXPROCS. The geometry
	// does not depend on it, bit for bit.
	Workers int
	// Progress, if set, is called with modules interpreted and the total.
	// Calls never overlap.
	Progress func(done, total int64)
	// WidthIncrement is what ! and # without a parameter subtract from and
	// add to the width; 0 means a tenth of System.Width.
	WidthIncrement float64
}

// Segment is a line drawn by F or G, from A to B, with the turtle's width
// and colour index at the time.
type Segment struct {
	A, B  [3]float32
	Width float32
	Color uint16
}

// Polygon is a filled polygon: PolyVerts[First : First+Count] in order.
type Polygon struct {
	First, Count int32
	Color        uint16
}

// Box is an axis-aligned bounding box.
type Box struct {
	Min [3]float32 `json:"min"`
	Max [3]float32 `json:"max"`
}

// Stats describe the interpreted string and its geometry.
type Stats struct {
	Modules  int `json:"modules"`
	Segments int `json:"segments"`
	Polygons int `json:"polygons"`
	// Surfaces counts the uses of predefined surfaces (~).
	Surfaces int `json:"surfaces,omitempty"`
	// MaxDepth is the deepest bracket nesting.
	MaxDepth int `json:"max_depth"`
	// Bounds enclose every segment end point and polygon vertex (line
	// widths not included); all zero when there are none.
	Bounds Box `json:"bounds"`
}

// Geometry is the interpreter's result. Segments and polygons are in string
// order.
type Geometry struct {
	Segments  []Segment
	Polygons  []Polygon
	PolyVerts [][3]float32
	// Surfaces are the uses of predefined surfaces (~), in string order.
	Surfaces []SurfaceUse
	Stats    Stats
}

// Errors wrapped by Interpret.
var (
	// ErrUnbalanced: a ']' or '}' closes nothing.
	ErrUnbalanced = errors.New("unbalanced bracket")
	// ErrParams: the string's parameters do not match the system's arities.
	ErrParams = errors.New("parameter count mismatch")
	// ErrNonFinite: a coordinate or width is NaN or infinite (a NaN or huge
	// parameter, or a string that overflows float32).
	ErrNonFinite = errors.New("non-finite geometry")
)
