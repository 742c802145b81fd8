package golly

import (
	"fmt"
	"strings"
)

// DefaultBoard is the side of the board of a rule without a :T or :P
// suffix (-D W=... -D H=... override it).
const DefaultBoard = 64

// Source writes r as a rule file of the rules language: a W x H board
// c (cell k = y*W + x: 0 dead, 1 alive, 2.. dying), one rule that
// changes the cells whose next state differs. The board is a torus for
// :T, else a bounded plane whose outside is dead (Golly's :P; an
// unbounded Golly grid cut to the board).
func Source(r Rule) string {
	var b strings.Builder
	w, h := r.Topo.W, r.Topo.H
	if w == 0 {
		w, h = DefaultBoard, DefaultBoard
	}
	grid := "a bounded plane (the cells outside are dead)"
	if r.Topo.Torus {
		grid = "a torus"
	}
	fmt.Fprintf(&b, "# %s: written by procgen from Golly's notation (internal/rules/golly).\n", r)
	fmt.Fprintf(&b, "# A W x H board, %s; cell k = y*W + x holds 0 (dead), 1 (alive)", grid)
	if r.States > 2 {
		fmt.Fprintf(&b, " or 2..%d (dying)", r.States-1)
	}
	fmt.Fprintf(&b, ".\nconst W = %d\nconst H = %d\n\nstate {\n  int c[W * H] ~ uniform(0, 1)\n}\n\n", w, h)
	b.WriteString("rule golly over k in 0..W * H\n  let x = k % W\n  let y = k / W\n  let a = c[k]\n")
	if r.Kind == LargerThanLife {
		ltlBody(&b, r)
	} else {
		nearBody(&b, r)
	}
	if r.States > 2 {
		// A live cell that does not survive, and every dying cell, moves
		// one state on, back to 0 after the last.
		fmt.Fprintf(&b, "  let live = (a < 2) & hit\n  let next = live + (1 - live) * (a != 0) * ((a + 1) %% %d)\n", r.States)
	} else {
		b.WriteString("  let next = hit\n")
	}
	b.WriteString("  when next != a\n{\n  c[k] = next\n}\n")
	return b.String()
}

// alive is a neighbour's contribution to a count: only state 1 counts.
func alive(r Rule, read string) string {
	if r.States > 2 {
		return "(" + read + " == 1)"
	}
	return read
}

// nearBody writes the count (or the Hensel configuration) of the range-1
// neighbourhoods and hit: 1 when a dead cell is born or a live one
// survives.
func nearBody(b *strings.Builder, r Rule) {
	rows := map[int]string{-1: "up", 0: "mid", 1: "down"}
	cols := map[int]string{-1: "l", 0: "x", 1: "r"}
	masks := map[[2]int]string{{0, -1}: "u", {0, 1}: "d", {-1, 0}: "lf", {1, 0}: "rt"}
	b.WriteString("  let up = ((y - 1) % H) * W\n  let mid = y * W\n  let down = ((y + 1) % H) * W\n")
	b.WriteString("  let l = (x - 1) % W\n  let r = (x + 1) % W\n")
	if !r.Topo.Torus {
		b.WriteString("  let u = y > 0\n  let d = y < H - 1\n  let lf = x > 0\n  let rt = x < W - 1\n")
	}
	term := func(o [2]int) string {
		t := alive(r, fmt.Sprintf("c[%s + %s]", rows[o[1]], cols[o[0]]))
		if !r.Topo.Torus {
			for _, m := range [][2]int{{0, o[1]}, {o[0], 0}} {
				if m != [2]int{0, 0} {
					t += " & " + masks[m]
				}
			}
			t = "(" + t + ")"
		}
		return t
	}
	if hensel(r) {
		var terms []string
		for bit, o := range neighbourOffsets {
			terms = append(terms, fmt.Sprintf("%d * %s", 1<<bit, term(o)))
		}
		fmt.Fprintf(b, "  let q = (a == 1) * 256 + %s\n", strings.Join(terms, " + "))
		table := henselTable(r)
		var sel []string
		for i, word := range table {
			if word != 0 {
				sel = append(sel, fmt.Sprintf("(wd == %d) * %d", i, int32(word)))
			}
		}
		if len(sel) == 0 {
			sel = []string{"0"}
		}
		b.WriteString("  let wd = q >> 5\n")
		fmt.Fprintf(b, "  let hit = ((%s) >> (q & 31)) & 1\n", strings.Join(sel, " + "))
		return
	}
	var terms []string
	for _, o := range neighbourOffsets {
		if r.Neigh == VonNeumann && o[0] != 0 && o[1] != 0 || r.Neigh == Hexagonal && o[0] == -o[1] {
			continue
		}
		terms = append(terms, term(o))
	}
	fmt.Fprintf(b, "  let n = %s\n", strings.Join(terms, " + "))
	fmt.Fprintf(b, "  let hit = (((a == 1) * %d + (a == 0) * %d) >> n) & 1\n", countMask(r.Survive), countMask(r.Birth))
}

// hensel is whether some count of r has only part of its letters.
func hensel(r Rule) bool {
	for n := range 9 {
		all := uint16(1)<<max(len(henselLetters[n]), 1) - 1
		if b := r.Birth[n]; b != 0 && b != all {
			return true
		}
		if s := r.Survive[n]; s != 0 && s != all {
			return true
		}
	}
	return false
}

func countMask(set [9]uint16) int {
	m := 0
	for n, letters := range set {
		if letters != 0 {
			m |= 1 << n
		}
	}
	return m
}

// henselTable is the 512-bit table of hit by configuration q: bit q of
// word q>>5, q = 256 for a live cell + its neighbourhood byte.
func henselTable(r Rule) [16]uint32 {
	var t [16]uint32
	for live, set := range [2][9]uint16{r.Birth, r.Survive} {
		for n := range 9 {
			classes := henselClasses(n)
			if n == 0 || n == 8 {
				classes = [][4]uint64{{}}
				cfg := uint8(0)
				if n == 8 {
					cfg = 0xff
				}
				classes[0][cfg>>6] |= 1 << (cfg & 63)
			}
			for k, cls := range classes {
				if set[n]&(1<<k) == 0 {
					continue
				}
				for cfg := range 256 {
					if cls[cfg>>6]&(1<<(cfg&63)) != 0 {
						q := live*256 + cfg
						t[q>>5] |= 1 << (q & 31)
					}
				}
			}
		}
	}
	return t
}

// ltlBody writes the Larger-than-Life count, each cell of the
// neighbourhood read on its own (the language has no loops in a
// precondition), and hit.
func ltlBody(b *strings.Builder, r Rule) {
	var terms []string
	for _, o := range ltlOffsets(r) {
		dx, dy := o[0], o[1]
		row, col := "y", "x"
		if dy != 0 {
			row = fmt.Sprintf("((y + %d) %% H)", dy)
		}
		if dx != 0 {
			col = fmt.Sprintf("((x + %d) %% W)", dx)
		}
		t := alive(r, fmt.Sprintf("c[%s * W + %s]", row, col))
		if !r.Topo.Torus {
			t = "(" + t + planeMask("x", "W", dx) + planeMask("y", "H", dy) + ")"
		}
		terms = append(terms, t)
	}
	fmt.Fprintf(b, "  let n = %s\n", strings.Join(terms, " + "))
	fmt.Fprintf(b, "  let lo = (a == 1) * %d + (a != 1) * %d\n", r.SMin, r.BMin)
	fmt.Fprintf(b, "  let hi = (a == 1) * %d + (a != 1) * %d\n", r.SMax, r.BMax)
	b.WriteString("  let hit = (n >= lo) & (n <= hi)\n")
}

// planeMask is " & (v >= -d)" or " & (v < N - d)": whether the cell d
// away along v lies on the board.
func planeMask(v, n string, d int) string {
	switch {
	case d < 0:
		return fmt.Sprintf(" & (%s >= %d)", v, -d)
	case d > 0:
		return fmt.Sprintf(" & (%s < %s - %d)", v, n, d)
	}
	return ""
}
