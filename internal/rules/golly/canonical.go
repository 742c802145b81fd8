package golly

import (
	"fmt"
	"sort"
	"strings"
)

// String is the rule in the notation Golly 3.3 writes (its canonical
// form): B3/S23, B2-a/S12, S/B/C for Generations (/2/3), the MCell form for
// Larger than Life, then the suffix V or H and :Tw,h or :Pw,h.
func (r Rule) String() string {
	var b strings.Builder
	switch {
	case r.Kind == LargerThanLife:
		c := r.States
		if c == 2 {
			c = 0
		}
		m := 0
		if r.Middle {
			m = 1
		}
		fmt.Fprintf(&b, "R%d,C%d,M%d,S%d..%d,B%d..%d,N%c", r.Range, c, m, r.SMin, r.SMax, r.BMin, r.BMax, r.Neigh)
	case r.States > 2:
		fmt.Fprintf(&b, "%s/%s/%d", countsString(r.Survive), countsString(r.Birth), r.States)
	default:
		fmt.Fprintf(&b, "B%s/S%s", countsString(r.Birth), countsString(r.Survive))
	}
	if r.Kind == Totalistic {
		switch r.Neigh {
		case VonNeumann:
			b.WriteByte('V')
		case Hexagonal:
			b.WriteByte('H')
		}
	}
	if r.Topo.W > 0 {
		t := 'P'
		if r.Topo.Torus {
			t = 'T'
		}
		fmt.Fprintf(&b, ":%c%d,%d", t, r.Topo.W, r.Topo.H)
	}
	return b.String()
}

// countsString writes a count set: a digit alone when every letter is in,
// else the shorter of its letters and '-' with the letters left out (the
// letters when both are as long), each in alphabetical order.
func countsString(set [9]uint16) string {
	var b strings.Builder
	for n, letters := range set {
		if letters == 0 {
			continue
		}
		b.WriteByte(byte('0' + n))
		all := uint16(1)<<max(len(henselLetters[n]), 1) - 1
		if letters == all {
			continue
		}
		in, out := lettersOf(n, letters), lettersOf(n, all&^letters)
		if len(out)+1 < len(in) {
			b.WriteString("-" + out)
		} else {
			b.WriteString(in)
		}
	}
	return b.String()
}

func lettersOf(n int, set uint16) string {
	var ls []byte
	for k := range len(henselLetters[n]) {
		if set&(1<<k) != 0 {
			ls = append(ls, henselLetters[n][k])
		}
	}
	sort.Slice(ls, func(i, j int) bool { return ls[i] < ls[j] })
	return string(ls)
}

// SameRule reports whether two rules are the same rule on the same grid; a
// topology left out of either is no conflict (the board decides it).
func (r Rule) SameRule(o Rule) bool {
	a, b := r, o
	if a.Topo.W == 0 || b.Topo.W == 0 {
		a.Topo, b.Topo = Topology{}, Topology{}
	}
	return a.String() == b.String()
}
