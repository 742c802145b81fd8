package lsys

import (
	"context"
	"errors"
	"fmt"
)

// Query modules (ABOP section 1.10, and the environmental loop of open
// L-systems, Měch and Prusinkiewicz 1996): ?P, ?H, ?U and ?L are written
// with two or three parameters, and after the axiom and after every
// derivation step the string is interpreted by the turtle and each query
// module's parameters are set to the turtle's position, heading, up or left
// vector where the module stands (x, y and, with three parameters, z).
// Productions then read them like any parameter, e.g. in a right context:
// "A > ?P(x,y) : x*x+y*y < 100 --> F A".
//
// A module name is one byte (model.go), so each query module is stored as a
// byte no source can write as a module (isModule in syntax refuses control
// characters); the parser reads "?P" as SymQueryP and Encoder writes it
// back as "?P".
const (
	SymQueryP Symbol = 0x11 + iota // position
	SymQueryH                      // heading
	SymQueryU                      // up
	SymQueryL                      // left
)

// queryLetters are the letters after '?', in the order of the symbols.
const queryLetters = "PHUL"

// QuerySymbol is the symbol of the query module written '?' letter, and
// whether letter names one.
func QuerySymbol(letter byte) (Symbol, bool) {
	for k := 0; k < len(queryLetters); k++ {
		if queryLetters[k] == letter {
			return SymQueryP + Symbol(k), true
		}
	}
	return 0, false
}

// QueryLetter is the letter of a query symbol ('P', 'H', 'U' or 'L'), or 0
// for every other symbol.
func QueryLetter(s Symbol) byte {
	if s >= SymQueryP && s <= SymQueryL {
		return queryLetters[s-SymQueryP]
	}
	return 0
}

// SymbolName is how s is written in a source: "?P" for a query module, the
// character otherwise.
func SymbolName(s Symbol) string {
	if c := QueryLetter(s); c != 0 {
		return "?" + string(c)
	}
	return string(rune(s))
}

// Environment sets the parameters of the query modules of a string, in
// place (turtle.Queries does it with the turtle of the interpretation). It
// is called with the axiom and with every step's string before anything
// else sees them.
type Environment interface {
	Query(ctx context.Context, sys *System, s *String) error
}

// HasQueries reports whether sys writes query modules (in the axiom, a
// production or a decomposition production): only then does a derivation
// need an Environment.
func HasQueries(sys *System) bool {
	for s := SymQueryP; s <= SymQueryL; s++ {
		if sys.Arity[s] > 0 {
			return true
		}
	}
	return false
}

// query fills the query modules of s when sys has any.
func query(ctx context.Context, sys *System, o *DeriveOptions, s *String, k int) error {
	if !HasQueries(sys) {
		return nil
	}
	if o.Env == nil {
		return fmt.Errorf("lsys: the system has query modules (?P, ?H, ?U, ?L) but the derivation has no environment to fill them")
	}
	if err := o.Env.Query(ctx, sys, s); err != nil {
		return fmt.Errorf("lsys: query modules of w%d: %w", k, err)
	}
	return nil
}

// QueriesOnHost reports why --device auto keeps sys on the CPU when it has
// query modules: the turtle fills them on the host after every step, so a
// device derivation would send every step's string there and back (which
// --device cuda does, deriving exactly the CPU's string).
func QueriesOnHost(sys *System) error {
	if !HasQueries(sys) {
		return nil
	}
	return errors.New("lsys: query modules (?P, ?H, ?U, ?L) are filled by the turtle on the CPU after every step")
}
