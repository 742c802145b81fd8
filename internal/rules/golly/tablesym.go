package golly

import (
	"fmt"
	"slices"
	"strings"
)

// MaxTableVariants bounds a table's transitions after its symmetries
// are expanded (permute can make 8! of one line); the code of the
// expanded table must also fit the kernels (rules.MaxCode).
const MaxTableVariants = 1 << 14

// symmetryNames lists the symmetries of a neighbourhood, for messages.
func symmetryNames(neigh string) string {
	switch neigh {
	case "Moore":
		return "none, rotate4, rotate8, reflect_horizontal, rotate4reflect, rotate8reflect, permute"
	case "vonNeumann":
		return "none, rotate4, reflect_horizontal, permute; not rotate4reflect"
	}
	return "none, rotate2, rotate3, rotate6, permute; not rotate6reflect"
}

// symmetryPerms is the group of neighbour permutations of a symmetry
// (nil for permute: every permutation), the identity first: a variant
// lists as its neighbour i the original's neighbour perm[i]. The
// neighbours are in Golly's order, clockwise from N, so a rotation is a
// cyclic shift and a reflection about the N-S axis is i -> -i.
func symmetryPerms(neigh, sym string) ([][]int, bool) {
	n := neighbourCount(neigh)
	rotations := func(by int) [][]int {
		var ps [][]int
		for r := 0; r < n; r += by {
			p := make([]int, n)
			for i := range n {
				p[i] = (i + r) % n
			}
			ps = append(ps, p)
		}
		return ps
	}
	withReflections := func(ps [][]int) [][]int {
		var out [][]int
		for _, p := range ps {
			q := make([]int, n)
			for i := range n {
				q[i] = p[(n-i)%n]
			}
			out = append(out, p, q)
		}
		return out
	}
	quarter := n / 4 // a quarter turn, on the square neighbourhoods
	switch {
	case sym == "none":
		return rotations(n), true
	case sym == "permute":
		return nil, true
	case neigh != "hexagonal" && sym == "reflect_horizontal":
		return withReflections(rotations(n)), true
	case neigh != "hexagonal" && sym == "rotate4":
		return rotations(quarter), true
	case neigh == "Moore" && sym == "rotate4reflect":
		return withReflections(rotations(quarter)), true
	case neigh == "Moore" && sym == "rotate8":
		return rotations(1), true
	case neigh == "Moore" && sym == "rotate8reflect":
		return withReflections(rotations(1)), true
	case neigh == "hexagonal" && sym == "rotate2":
		return rotations(3), true
	case neigh == "hexagonal" && sym == "rotate3":
		return rotations(2), true
	case neigh == "hexagonal" && sym == "rotate6":
		return rotations(1), true
	}
	return nil, false
}

// tokenKey names a token for comparing variants: a variable by name, a
// set by its states.
func tokenKey(t Token) string {
	if t.Var != "" {
		return "v" + t.Var
	}
	return fmt.Sprint(t.Set)
}

// Expand lists a table's transitions with their symmetric variants, in
// Golly's order of matching (each line's variants after the lines
// before it), repeated variants of a line once.
func (t *Table) Expand() ([]Transition, error) {
	perms, _ := symmetryPerms(t.Neigh, t.Sym)
	var out []Transition
	for _, tr := range t.Trans {
		seen := map[string]bool{}
		add := func(nb []Token) error {
			in := append([]Token{tr.In[0]}, nb...)
			var key strings.Builder
			for _, tok := range in {
				key.WriteString(tokenKey(tok) + ";")
			}
			if seen[key.String()] {
				return nil
			}
			seen[key.String()] = true
			if len(out) >= MaxTableVariants {
				return &TableError{Line: tr.Line, Col: 1, Msg: fmt.Sprintf("the table's symmetries make more than %d transitions", MaxTableVariants)}
			}
			out = append(out, Transition{In: in, Out: tr.Out, Line: tr.Line})
			return nil
		}
		tr.In = unbindSingles(tr)
		nb := tr.In[1:]
		if perms == nil {
			if err := permutations(nb, add); err != nil {
				return nil, err
			}
			continue
		}
		for _, p := range perms {
			v := make([]Token, len(nb))
			for i := range nb {
				v[i] = nb[p[i]]
			}
			if err := add(v); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// permutations calls f with every distinct ordering of toks (equal
// tokens are not told apart), stopping at f's first error.
func permutations(toks []Token, f func([]Token) error) error {
	cur := make([]Token, 0, len(toks))
	used := make([]bool, len(toks))
	var rec func() error
	rec = func() error {
		if len(cur) == len(toks) {
			return f(slices.Clone(cur))
		}
		tried := map[string]bool{}
		for i, tok := range toks {
			k := tokenKey(tok)
			if used[i] || tried[k] {
				continue
			}
			tried[k], used[i] = true, true
			cur = append(cur, tok)
			if err := rec(); err != nil {
				return err
			}
			cur, used[i] = cur[:len(cur)-1], false
		}
		return nil
	}
	return rec()
}

// unbindSingles turns a variable used once in a transition (and not its
// output) into its plain set: the same matches, and permute then sees
// such entries of one set as alike (8 orderings of WireWorld's line, not
// 8!).
func unbindSingles(tr Transition) []Token {
	uses := map[string]int{}
	for _, tok := range tr.In {
		uses[tok.Var]++
	}
	in := slices.Clone(tr.In)
	for i, tok := range in {
		if tok.Var != "" && uses[tok.Var] == 1 && tok.Var != tr.Out.Var {
			in[i] = Token{Set: tok.Set}
		}
	}
	return in
}
