package turtle

import (
	"context"
	"fmt"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// Queries is the environment of ABOP's query modules (lsys/query.go): it
// walks the turtle over a derived string and sets each ?P, ?H, ?U and ?L
// module's parameters to the turtle's position, heading, up or left vector
// at that module, (x, y, z) or, for a module with two parameters, (x, y).
//
// The walk is the interpretation's own arithmetic (walk.go), sequential
// from the start, over the string as derived: the homomorphism is not
// applied first (it is an interpretation rule, applied once to the final
// string), so a homomorphism that moves the turtle is not seen by queries.
// Strings longer than one interpretation chunk (32,768 modules) are drawn
// from chunk start states composed in parallel, whose last bits may differ
// from a sequential walk's; a query's value is then within rounding of the
// drawn geometry, not bit for bit equal to it.
type Queries struct {
	Options Options
}

var _ lsys.Environment = Queries{}

// queryCheck is how many modules the walk goes between context checks.
const queryCheck = 1 << 16

// Query sets the query modules of s in place.
func (q Queries) Query(ctx context.Context, sys *lsys.System, s *lsys.String) error {
	want := 0
	for _, c := range s.Syms {
		want += int(sys.Arity[c])
	}
	if want != len(s.Params) {
		return fmt.Errorf("%w: the modules take %d parameters, the string has %d", ErrParams, want, len(s.Params))
	}
	p := newProgram(sys, q.Options)
	w := &walker{syms: s.Syms, params: s.Params}
	t := p.initial
	lo, plo, po, depth := 0, 0, 0, 0
	for i, c := range s.Syms {
		n := int(sys.Arity[c])
		switch {
		case c == lsys.SymPush:
			depth++
		case c == lsys.SymPop:
			if depth == 0 {
				return fmt.Errorf("module %d: ']' closes no '[': %w", i, ErrUnbalanced)
			}
			depth--
		case i-lo >= queryCheck:
			if err := ctx.Err(); err != nil {
				return err
			}
			t, _ = p.walk(w, lo, i, plo, nil, t, xturtle{})
			lo, plo = i, po
		}
		if letter := lsys.QueryLetter(c); letter != 0 && n > 0 {
			t, _ = p.walk(w, lo, i, plo, nil, t, xturtle{})
			lo, plo = i, po // the query module itself moves nothing
			v := queried(&t.frame, letter)
			copy(s.Params[po:po+n], []float64{v.x, v.y, v.z}[:min(n, 3)])
		}
		po += n
	}
	return nil
}

// queried is the vector a query module with this letter reads.
func queried(f *frame, letter byte) vec3 {
	switch letter {
	case 'H':
		return f.h
	case 'U':
		return f.u
	case 'L':
		return f.l
	}
	return f.p
}
