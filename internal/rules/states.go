package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/rng"
)

// NewStates returns n states holding every field's default (0 unless
// declared with = V).
func NewStates(p *Program, n int) *States {
	st := &States{N: n, Words: p.Words, Data: make([]uint32, n*p.Words)}
	for s := range n {
		w := st.State(s)
		for _, f := range p.Fields {
			for k := range f.Size {
				w[f.Off+k] = f.Init
			}
		}
	}
	return st
}

// Generate returns n states drawn from the fields' ~ uniform(LO, HI)
// initialisers (ints in LO..HI inclusive, floats in [LO, HI)); other fields
// hold their defaults. Element k of field f of state s depends on seed, s,
// f and k only.
func Generate(p *Program, n int, seed uint64) *States {
	st := NewStates(p, n)
	// Every value is a hash of its state, field and index alone, so the
	// work splits over states and over pieces of a field alike: one
	// 16384x16384 board is spread over the cores as well as many small ones.
	const piece = 1 << 14
	for fi, f := range p.Fields {
		if !f.HasGen || f.Size == 0 {
			continue
		}
		pieces := (f.Size + piece - 1) / piece
		parallel.For(n*pieces, 1, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				s, k0 := i/pieces, i%pieces*piece
				key := rng.Key(seed, uint64(s), uint64(fi))
				generateField(f, st.State(s)[f.Off:], key, k0, min(f.Size, k0+piece))
			}
		})
	}
	return st
}

// generateField sets values k0..k1-1 of field f (w from the field's first
// word) to their draws under key.
func generateField(f Field, w []uint32, key uint64, k0, k1 int) {
	for k := k0; k < k1; k++ {
		h := rng.Hash64(key, uint64(k))
		if f.Type == Int {
			span := uint64(int64(f.GenHi) - int64(f.GenLo) + 1)
			w[k] = uint32(int32(int64(f.GenLo) + int64((h>>32)*span>>32)))
		} else {
			w[k] = math.Float32bits(float32(f.GenLo + (f.GenHi-f.GenLo)*rng.Float64(h)))
		}
	}
}

// Columns names a state's values in CSV order: "cell[0]" ..., or a
// scalar's name.
func Columns(p *Program) []string {
	var cols []string
	for _, f := range p.Fields {
		if f.Scalar {
			cols = append(cols, f.Name)
			continue
		}
		for k := range f.Size {
			cols = append(cols, f.Name+"["+strconv.Itoa(k)+"]")
		}
	}
	return cols
}

// FormatValue writes a word of field f as text: an int, or a float32 that
// reads back to the same bits ("NaN", "+Inf", "-Inf" for those).
func FormatValue(f *Field, w uint32) string {
	if f.Type == Int {
		return strconv.FormatInt(int64(int32(w)), 10)
	}
	v := math.Float32frombits(w)
	switch {
	case v != v:
		return "NaN"
	case math.IsInf(float64(v), 1):
		return "+Inf"
	case math.IsInf(float64(v), -1):
		return "-Inf"
	}
	return strconv.FormatFloat(float64(v), 'g', -1, 32)
}

// ParseValue reads a value for field f.
func ParseValue(f *Field, s string) (uint32, error) {
	s = strings.TrimSpace(s)
	if f.Type == Int {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return 0, fmt.Errorf("%q is not an int32", s)
		}
		return uint32(int32(v)), nil
	}
	v, err := strconv.ParseFloat(s, 32)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, fmt.Errorf("%q is not a float32", s)
	}
	return math.Float32bits(float32(v)), nil
}
