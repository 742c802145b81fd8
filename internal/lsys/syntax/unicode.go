package syntax

import (
	"unicode/utf8"
)

// bookRunes are the characters ABOP prints (and a PDF's text copies) for
// what L-system files write in ASCII. normalizeBook rewrites them in place.
// Arrows (→), ω, δ and ° keep their own handling in the parser.
var bookRunes = map[rune]string{
	'\u2212': "-",  // − minus sign: turn right, and negation
	'\u2013': "-",  // – en dash, as copied from PDFs
	'\u00d7': "*",  // × multiplication
	'\u00b7': "*",  // · multiplication
	'\u22c5': "*",  // ⋅ dot operator
	'\u2217': "*",  // ∗ asterisk operator: multiplication, or "any context"
	'\u2227': "^",  // ∧ pitch up (ABOP's ^)
	'\u2019': "'",  // ’ the colour module ' as a PDF copies it
	'\u2018': "'",  // ‘
	'\u201d': "\"", // ”
	'\u201c': "\"", // “
	'\u2264': "<=", // ≤
	'\u2265': ">=", // ≥
	'\u2260': "!=", // ≠
	'\u03b5': "*",  // ε the empty successor (a '*' module elsewhere, as in cpfg)
	'\u00a0': " ",  // no-break space
	'\u25e6': degRune,
	'\u02da': degRune,
}

// normalizeBook replaces every rune of bookRunes by its ASCII spelling,
// padded with spaces in front to the rune's length, so that every other
// byte keeps its offset and error positions stay exact (one that points at
// a replaced character points at its last bytes). The padding goes in front
// so that "−>" still reads as an arrow; spaces between modules and inside
// expressions mean nothing. Runes are only replaced outside comments, which
// are blanked already.
func normalizeBook(t []byte) {
	for i := 0; i < len(t); {
		if t[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(t[i:])
		if rep, ok := bookRunes[r]; ok && len(rep) <= n {
			for k := 0; k < n-len(rep); k++ {
				t[i+k] = ' '
			}
			copy(t[i+n-len(rep):], rep)
		}
		i += n
	}
}
