package golly

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules"
)

// tableOffsets are the neighbours of each neighbourhood in Golly's
// transition order (dx, dy; y grows downwards).
func tableOffsets(neigh string) [][2]int {
	switch neigh {
	case "vonNeumann":
		return [][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}
	case "hexagonal":
		return [][2]int{{0, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 0}, {-1, -1}}
	case "oneDimensional": // each row on its own: W, E
		return [][2]int{{-1, 0}, {1, 0}}
	}
	return [][2]int{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}
}

// TableSource writes a table as rules-language source: a W x H board c
// on topo (a torus, else a bounded plane whose outside is state 0), one
// rule that gives each cell the output of the first transition its
// neighbourhood matches. The states s0 (the cell) .. sN are packed into
// words q so a transition's fixed states are one masked compare; sets
// are bit tests and a variable used twice an equality. When no two
// transitions with different outputs can match one neighbourhood, the
// outputs are summed; else each match carries its rank and the highest
// (the first line) wins through max.
func TableSource(t *Table, topo Topology) (string, error) {
	vs, err := t.Expand()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	writeBoard(&b, t.Name, "@TABLE", t.States, topo)
	b.WriteString("rule table over k in 0..W * H\n  let x = k % W\n  let y = k / W\n  let s0 = c[k]\n")
	offs := tableOffsets(t.Neigh)
	for i, o := range offs {
		fmt.Fprintf(&b, "  let s%d = %s\n", i+1, cellRead(o, topo.Torus))
	}
	pk := newPacking(t.States, len(offs)+1)
	for wd, ps := range pk.words {
		var terms []string
		for j, pos := range ps {
			terms = append(terms, fmt.Sprintf("s%d * %d", pos, 1<<(pk.bits*j)))
		}
		fmt.Fprintf(&b, "  let q%d = %s\n", wd, strings.Join(terms, " + "))
	}
	outs := make([]string, len(vs))
	for i, v := range vs {
		outs[i] = fmt.Sprint(v.Out.Set[0])
		if v.Out.Var != "" {
			for p, in := range v.In {
				if in.Var == v.Out.Var {
					outs[i] = fmt.Sprintf("s%d", p)
					break
				}
			}
		}
	}
	if tableDisjoint(vs, outs) {
		// One OR of matches per output, in the order outputs first occur.
		var order []string
		groups := map[string][]string{}
		for i, v := range vs {
			in0 := v.In[0]
			if outs[i] == "s0" || in0.Var == "" && len(in0.Set) == 1 && outs[i] == fmt.Sprint(in0.Set[0]) {
				continue // no change
			}
			if groups[outs[i]] == nil {
				order = append(order, outs[i])
			}
			groups[outs[i]] = append(groups[outs[i]], pk.cond(t.States, v))
		}
		next := "s0"
		for _, o := range order {
			next += fmt.Sprintf(" + (%s) * (%s - s0)", strings.Join(groups[o], " | "), o)
		}
		fmt.Fprintf(&b, "  let next = %s\n", next)
	} else {
		// A balanced tree of maxima: its nesting (which the parser
		// bounds) and the registers it holds grow with the log of the
		// variants, where a chain of lets would hold one register each.
		terms := make([]string, len(vs))
		for i, v := range vs {
			terms[i] = fmt.Sprintf("%s * (%d + %s)", pk.cond(t.States, v), (len(vs)-i)<<8, outs[i])
		}
		for len(terms) > 1 {
			var up []string
			for i := 0; i < len(terms); i += 2 {
				if i+1 == len(terms) {
					up = append(up, terms[i])
				} else {
					up = append(up, fmt.Sprintf("max(%s, %s)", terms[i], terms[i+1]))
				}
			}
			terms = up
		}
		best := terms[0]
		fmt.Fprintf(&b, "  let best = %s\n", best)
		b.WriteString("  let next = (best == 0) * s0 + (best & 255)\n")
	}
	b.WriteString("  when next != s0\n{\n  c[k] = next\n}\n")
	return b.String(), nil
}

// cellRead is the state of the cell o away from (x, y): on a plane, 0
// outside the board.
func cellRead(o [2]int, torus bool) string {
	if o == [2]int{} {
		return "c[k]"
	}
	row, col := "y", "x"
	if o[1] != 0 {
		row = fmt.Sprintf("((y + %d) %% H)", o[1])
	}
	if o[0] != 0 {
		col = fmt.Sprintf("((x + %d) %% W)", o[0])
	}
	read := fmt.Sprintf("c[%s * W + %s]", row, col)
	if torus {
		return read
	}
	var m []string
	if pm := planeMask("x", "W", o[0]); pm != "" {
		m = append(m, strings.TrimPrefix(pm, " & "))
	}
	if pm := planeMask("y", "H", o[1]); pm != "" {
		m = append(m, strings.TrimPrefix(pm, " & "))
	}
	return read + " * (" + strings.Join(m, " & ") + ")"
}

// packing puts the states s0..sN into 31-bit words.
type packing struct {
	bits  int
	words [][]int // positions in each word
}

func newPacking(states, positions int) packing {
	pk := packing{bits: bits.Len(uint(states - 1))}
	per := 31 / pk.bits
	for p := range positions {
		if p%per == 0 {
			pk.words = append(pk.words, nil)
		}
		pk.words[len(pk.words)-1] = append(pk.words[len(pk.words)-1], p)
	}
	return pk
}

// cond is the 0/1 expression that a neighbourhood matches v.
func (pk packing) cond(states int, v Transition) string {
	var parts []string
	first := map[string]int{}
	single := map[int]uint8{}
	for p, tok := range v.In {
		if tok.Var != "" {
			if f, ok := first[tok.Var]; ok {
				parts = append(parts, fmt.Sprintf("(s%d == s%d)", p, f))
				continue
			}
			first[tok.Var] = p
		}
		switch {
		case len(tok.Set) == states:
		case len(tok.Set) == 1:
			single[p] = tok.Set[0]
		case states <= 31:
			m := 0
			for _, s := range tok.Set {
				m |= 1 << s
			}
			parts = append(parts, fmt.Sprintf("((%d >> s%d) & 1)", m, p))
		default:
			var eq []string
			for _, s := range tok.Set {
				eq = append(eq, fmt.Sprintf("(s%d == %d)", p, s))
			}
			parts = append(parts, "("+strings.Join(eq, " | ")+")")
		}
	}
	for wd, ps := range pk.words {
		mask, val, all := 0, 0, true
		for j, pos := range ps {
			s, ok := single[pos]
			if !ok {
				all = false
				continue
			}
			mask |= (1<<pk.bits - 1) << (pk.bits * j)
			val |= int(s) << (pk.bits * j)
		}
		switch {
		case mask == 0:
		case all:
			parts = append([]string{fmt.Sprintf("(q%d == %d)", wd, val)}, parts...)
		default:
			parts = append([]string{fmt.Sprintf("((q%d & %d) == %d)", wd, mask, val)}, parts...)
		}
	}
	if len(parts) == 0 {
		return "1"
	}
	return "(" + strings.Join(parts, " & ") + ")"
}

// tableDisjoint reports whether no two variants with different outputs
// can match one neighbourhood (then the order of the lines does not
// matter). Variables' equalities are ignored: a conservative answer.
func tableDisjoint(vs []Transition, outs []string) bool {
	for i := range vs {
		for j := range i {
			if outs[i] == outs[j] {
				continue
			}
			overlap := true
			for p := range vs[i].In {
				if !intersects(vs[i].In[p].Set, vs[j].In[p].Set) {
					overlap = false
					break
				}
			}
			if overlap {
				return false
			}
		}
	}
	return true
}

func intersects(a, b []uint8) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

// CompileTable compiles a table's source (TableSource) on topo; defines
// override its constants (-D W=256 -D H=256). file names the .rule file
// in messages.
func CompileTable(t *Table, topo Topology, file string, defines map[string]string) (*rules.Program, error) {
	src, err := TableSource(t, topo)
	if err != nil {
		if te, ok := err.(*TableError); ok {
			te.File = file
		}
		return nil, err
	}
	return rules.Compile(file+" (@TABLE "+t.Name+")", []byte(src), defines)
}

// writeBoard writes the head of a .rule section's source (@TABLE or @TREE):
// a comment naming the rule and the board, and the W x H board of states
// 0..states-1 on topo (DefaultBoard square without a size).
func writeBoard(b *strings.Builder, name, section string, states int, topo Topology) {
	w, h := topo.W, topo.H
	if w == 0 {
		w, h = DefaultBoard, DefaultBoard
	}
	grid := "a bounded plane (the cells outside are state 0)"
	if topo.Torus {
		grid = "a torus"
	}
	fmt.Fprintf(b, "# %s: written by procgen from a Golly %s (internal/rules/golly).\n", name, section)
	fmt.Fprintf(b, "# A W x H board, %s; cell k = y*W + x holds a state 0..%d.\n", grid, states-1)
	fmt.Fprintf(b, "const W = %d\nconst H = %d\n\nstate {\n  int c[W * H] ~ uniform(0, %d)\n}\n\n", w, h, states-1)
}
