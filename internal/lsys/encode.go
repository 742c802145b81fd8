package lsys

import (
	"context"
	"errors"
	"io"
	"math"
	"strconv"
)

// Encoder writes module strings as text, one string a line, in the notation
// of the L-system files: each module is its symbol, followed by its
// parameters in parentheses separated by commas when it has any, as in
// "F1F0[+A(1,0.5)]". Parameters are written in the shortest form that reads
// back as the same float64 ("0.1", "1e+20", "-2"), so a line parses back as
// an axiom. Modules are not separated: a symbol is one character.
//
// An Encoder buffers what it writes and flushes at the end of every line;
// it checks its context between chunks of the string, so a long string can
// be interrupted.
type Encoder struct {
	w     io.Writer
	arity *[256]uint8
	buf   []byte
	err   error
}

// encodeChunk is how many bytes the Encoder collects before it writes them
// (and checks its context).
const encodeChunk = 64 << 10

// NewEncoder writes the strings of sys (whose Arity says how many
// parameters each module has) to w.
func NewEncoder(w io.Writer, sys *System) *Encoder {
	return &Encoder{w: w, arity: &sys.Arity, buf: make([]byte, 0, encodeChunk+512)}
}

// Encode writes s as one line. After an error, every later call returns it.
func (e *Encoder) Encode(ctx context.Context, s *String) error {
	if e.err != nil {
		return e.err
	}
	e.err = e.encode(ctx, s)
	return e.err
}

func (e *Encoder) encode(ctx context.Context, s *String) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p := 0
	for _, c := range s.Syms {
		if q := QueryLetter(c); q != 0 {
			e.buf = append(e.buf, '?', q)
		} else {
			e.buf = append(e.buf, c)
		}
		if n := int(e.arity[c]); n > 0 {
			if p+n > len(s.Params) {
				return errors.New("lsys: encode: the string has fewer parameters than its modules take")
			}
			for k, v := range s.Params[p : p+n] {
				e.buf = append(e.buf, ",("[b2i(k == 0)])
				e.buf = appendParam(e.buf, v)
			}
			e.buf = append(e.buf, ')')
			p += n
		}
		if len(e.buf) >= encodeChunk {
			if err := e.flush(); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if p != len(s.Params) {
		return errors.New("lsys: encode: the string has more parameters than its modules take")
	}
	e.buf = append(e.buf, '\n')
	return e.flush()
}

func (e *Encoder) flush() error {
	if len(e.buf) == 0 {
		return nil
	}
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	return err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendParam writes v in the shortest form that parses back to v; integers
// (the common case) take a fast path. -0 is written as 0.
func appendParam(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// Encode writes s to w as one line of text; see Encoder.
func Encode(ctx context.Context, w io.Writer, sys *System, s *String) error {
	return NewEncoder(w, sys).Encode(ctx, s)
}
