package golly

import (
	"fmt"
	"maps"
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
		return "none, rotate4, reflect_horizontal, rotate4reflect, permute"
	case "oneDimensional":
		return "none, reflect, permute"
	}
	return "none, rotate2, rotate3, rotate6, rotate6reflect, permute"
}

// symmetryPerms is the group of neighbour permutations of a symmetry
// (nil for permute: every permutation), the identity first: a variant
// lists as its neighbour i the original's neighbour perm[i]. The
// neighbours are in Golly's order, clockwise from N, so a rotation is a
// cyclic shift and a reflection about the N-S axis is i -> -i; with the
// rotations, that reflection gives every reflection of the neighbourhood
// (Golly's lists for rotate4reflect and rotate6reflect are these groups
// in another order, which does not matter: all variants of one binding
// of a line have one output). Golly's oneDimensional reflect swaps W, E.
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
	square := neigh == "Moore" || neigh == "vonNeumann"
	quarter := n / 4 // a quarter turn, on the square neighbourhoods
	switch {
	case sym == "none":
		return rotations(n), true
	case sym == "permute":
		return nil, true
	case neigh == "oneDimensional" && sym == "reflect":
		return [][]int{{0, 1}, {1, 0}}, true
	case square && sym == "reflect_horizontal":
		return withReflections(rotations(n)), true
	case square && sym == "rotate4":
		return rotations(quarter), true
	case square && sym == "rotate4reflect":
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
	case neigh == "hexagonal" && sym == "rotate6reflect":
		return withReflections(rotations(1)), true
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
// Golly's order of matching: the lines in order; within a line, Golly
// first expands its bound variables (each binding a transition: the
// values in their variables' listed order, the variables by name, the
// first name's value changing fastest) and then each binding's variants
// under the symmetry. Variants here keep bound variables symbolic (one
// variant matches every binding) unless the line's output is a bound
// variable and two of its variants can match one neighbourhood: then
// which binding comes first decides the output, and the line is listed
// binding by binding as Golly does. Repeated variants of a line are
// listed once.
func (t *Table) Expand() ([]Transition, error) {
	perms, _ := symmetryPerms(t.Neigh, t.Sym)
	var out []Transition
	for _, tr := range t.Trans {
		tr.In = unbindSingles(tr)
		vs, err := lineVariants(tr, perms, MaxTableVariants-len(out))
		if err != nil {
			return nil, err
		}
		if tr.Out.Var != "" && mayOverlap(vs) {
			vs = nil
			err = eachBinding(tr, func(b Transition) error {
				bv, err := lineVariants(b, perms, MaxTableVariants-len(out)-len(vs))
				vs = append(vs, bv...)
				return err
			})
			if err != nil {
				return nil, err
			}
			vs = dedup(vs)
		}
		out = append(out, vs...)
	}
	return out, nil
}

// lineVariants is a transition's distinct variants under perms (nil:
// every permutation), at most limit of them.
func lineVariants(tr Transition, perms [][]int, limit int) ([]Transition, error) {
	var out []Transition
	seen := map[string]bool{}
	add := func(nb []Token) error {
		in := append([]Token{tr.In[0]}, nb...)
		k := variantKey(in)
		if seen[k] {
			return nil
		}
		seen[k] = true
		if len(out) >= limit {
			return &TableError{Line: tr.Line, Col: 1, Msg: fmt.Sprintf("the table's symmetries make more than %d transitions", MaxTableVariants)}
		}
		out = append(out, Transition{In: in, Out: tr.Out, Line: tr.Line})
		return nil
	}
	nb := tr.In[1:]
	if perms == nil {
		return out, permutations(nb, add)
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
	return out, nil
}

func variantKey(in []Token) string {
	var key strings.Builder
	for _, tok := range in {
		key.WriteString(tokenKey(tok) + ";")
	}
	return key.String()
}

// dedup keeps the first of equal variants (a later one never matches
// first).
func dedup(vs []Transition) []Transition {
	seen := map[string]bool{}
	var out []Transition
	for _, v := range vs {
		if k := variantKey(v.In); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

// mayOverlap reports whether two of a line's variants can match one
// neighbourhood with different outputs (a line of very many variants is
// assumed to).
func mayOverlap(vs []Transition) bool {
	if len(vs) > 2048 {
		return true
	}
	for i := range vs {
		for j := range i {
			if conflict(vs[i], vs[j]) {
				return true
			}
		}
	}
	return false
}

// conflict reports whether some neighbourhood matches both a and b (two
// variants of one line, whose output is a bound variable) and gives
// them different outputs. Positions holding one variable (of a or of b)
// must hold one state: they are joined into classes, each class's
// states the intersection of its positions' sets; a and b both match
// when no class is empty, and their outputs differ when the output
// positions are in different classes that can take different states.
func conflict(a, b Transition) bool {
	n := len(a.In)
	class := make([]int, n)
	for p := range class {
		class[p] = p
	}
	find := func(p int) int {
		for class[p] != p {
			p = class[p]
		}
		return p
	}
	outPos := func(v Transition) int {
		first := map[string]int{}
		for p, tok := range v.In {
			if tok.Var == "" {
				continue
			}
			if f, ok := first[tok.Var]; ok {
				class[find(p)] = find(f)
			} else {
				first[tok.Var] = p
			}
		}
		return first[v.Out.Var]
	}
	oa, ob := outPos(a), outPos(b)
	dom := make([][]uint8, n)
	for p := range n {
		r := find(p)
		for _, set := range [][]uint8{a.In[p].Set, b.In[p].Set} {
			if dom[r] == nil {
				dom[r] = slices.Clone(set)
			} else {
				dom[r] = slices.DeleteFunc(dom[r], func(s uint8) bool { return !slices.Contains(set, s) })
			}
			if len(dom[r]) == 0 {
				return false
			}
		}
	}
	ra, rb := find(oa), find(ob)
	return ra != rb && !(len(dom[ra]) == 1 && len(dom[rb]) == 1 && dom[ra][0] == dom[rb][0])
}

// eachBinding calls f with tr's bound variables replaced by each of
// their values in turn, in Golly's order: the variables sorted by name,
// the first changing fastest, each through its listed states.
func eachBinding(tr Transition, f func(Transition) error) error {
	lists := map[string][]uint8{}
	for _, tok := range tr.In {
		if tok.Var != "" {
			lists[tok.Var] = tok.List
		}
	}
	names := slices.Sorted(maps.Keys(lists))
	idx := make([]int, len(names))
	for {
		val := map[string]uint8{}
		for k, name := range names {
			val[name] = lists[name][idx[k]]
		}
		b := Transition{Line: tr.Line, In: slices.Clone(tr.In), Out: tr.Out}
		for i, tok := range b.In {
			if v, ok := val[tok.Var]; ok {
				b.In[i] = Token{Set: []uint8{v}, List: []uint8{v}}
			}
		}
		if v, ok := val[tr.Out.Var]; ok {
			b.Out = Token{Set: []uint8{v}, List: []uint8{v}}
		}
		if err := f(b); err != nil {
			return err
		}
		k := 0
		for ; k < len(names); k++ {
			if idx[k]++; idx[k] < len(lists[names[k]]) {
				break
			}
			idx[k] = 0
		}
		if k == len(names) {
			return nil
		}
	}
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
			in[i] = Token{Set: tok.Set, List: tok.List}
		}
	}
	return in
}
