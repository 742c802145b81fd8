package lsys

// Context matching in bracketed strings, as cpfg does it (ABOP p. 32):
//
//   - The left context is searched leftwards from the module. A ']' there
//     closes a sibling branch that lies to the left: the whole branch is
//     skipped (to its '['). A '[' opens the branch the module is in: the
//     search steps out of it into the parent branch, whose modules before
//     the '[' are the left context. So in A[B]C the left neighbour of C is
//     A, and in A[BC] the left neighbour of B is A.
//   - The right context is searched rightwards. A '[' starts a branch that
//     is not on the module's own path: the whole branch is skipped (to just
//     after its ']'). A ']' closes the module's own branch: there is nothing
//     more to its right, and the match fails. So in A[B]C the right
//     neighbour of A is C, and in A[BC]D the right neighbour of C is none.
//   - Symbols on the ignore list are skipped on both sides, unless the
//     context asks for that very symbol (a module equal to the expected
//     symbol always matches it; cpfg's ignore list is for symbols a context
//     does not mention).
//   - Contexts may hold branches, as in ABOP's BC < S > G[H]M (p. 32),
//     brackets balanced within each context (leftTree, rightTree). In a
//     right context, "[H]" matches the branch that starts at that point:
//     its first modules must match H (the rest of the branch is skipped),
//     and the context goes on after the branch. In a left context,
//     "A[B]C < D" matches a sibling branch met leftwards (D's left
//     neighbour is C, then a branch whose first modules match B, then A).
//     Ignored symbols are skipped before a branch; a pattern branch is
//     matched against the first branch at its place only (no search among
//     several sibling branches).
//
// Bracket partners come from matchBrackets, so skipping a branch is O(1).

type ctxMatcher struct {
	syms   []Symbol
	match  []int32 // bracket partners
	ignore *[256]bool
}

// left matches want (nearest module last) to the left of module i, writing
// the positions of the matched modules to pos[:len(want)].
func (m *ctxMatcher) left(i int, want []Symbol, pos []int) bool {
	syms := m.syms
	j := i - 1
	for k := len(want) - 1; k >= 0; {
		if j < 0 {
			return false
		}
		s := syms[j]
		switch {
		case s == want[k]:
			pos[k] = j
			k--
			j--
		case s == SymPop:
			j = int(m.match[j]) - 1
		case s == SymPush || m.ignore[s]:
			j--
		default:
			return false
		}
	}
	return true
}

// right matches want (nearest module first) to the right of module i,
// writing the positions of the matched modules to pos[:len(want)].
func (m *ctxMatcher) right(i int, want []Symbol, pos []int) bool {
	syms := m.syms
	n := len(syms)
	j := i + 1
	for k := 0; k < len(want); {
		if j >= n {
			return false
		}
		s := syms[j]
		switch {
		case s == want[k]:
			pos[k] = j
			k++
			j++
		case s == SymPush:
			j = int(m.match[j]) + 1
		case s == SymPop:
			return false
		case m.ignore[s]:
			j++
		default:
			return false
		}
	}
	return true
}

// leftTree is left for a context that holds branches.
func (m *ctxMatcher) leftTree(i int, want []Symbol, pos []int) bool {
	syms := m.syms
	j := i - 1
	for k := len(want) - 1; k >= 0; {
		if j < 0 {
			return false
		}
		s := syms[j]
		if want[k] == SymPop {
			// A pattern branch "[...]", met from its end: the string must
			// hold a branch here; match its first modules forwards.
			switch {
			case s == SymPop:
				open, kk := int(m.match[j]), openOf(want, k)
				pos[k], pos[kk] = j, open
				if !m.forward(open+1, want[kk+1:k], pos[kk+1:k]) {
					return false
				}
				k, j = kk-1, open-1
			case m.ignore[s]:
				j--
			default:
				return false
			}
			continue
		}
		switch {
		case s == want[k]:
			pos[k] = j
			k--
			j--
		case s == SymPop:
			j = int(m.match[j]) - 1
		case s == SymPush || m.ignore[s]:
			j--
		default:
			return false
		}
	}
	return true
}

// openOf is the index of the '[' that the ']' at want[k] closes.
func openOf(want []Symbol, k int) int {
	d := 0
	for ; k >= 0; k-- {
		switch want[k] {
		case SymPop:
			d++
		case SymPush:
			if d--; d == 0 {
				return k
			}
		}
	}
	return 0 // unbalanced: the parser refuses it
}

// rightTree is right for a context that holds branches.
func (m *ctxMatcher) rightTree(i int, want []Symbol, pos []int) bool {
	return m.forward(i+1, want, pos)
}

// forward matches want from position j on (right context rules), with
// pattern branches: "[" must meet the string's '[' (after ignored symbols),
// and "]" leaves the string's branch, whatever is left of it.
func (m *ctxMatcher) forward(j int, want []Symbol, pos []int) bool {
	syms := m.syms
	n := len(syms)
	var ends [8]int // the string's ']' of each open pattern branch
	open := ends[:0]
	for k := 0; k < len(want); {
		w := want[k]
		if w == SymPop {
			e := open[len(open)-1]
			open = open[:len(open)-1]
			pos[k] = e
			k, j = k+1, e+1
			continue
		}
		if j >= n {
			return false
		}
		s := syms[j]
		switch {
		case w == SymPush && s == SymPush:
			pos[k] = j
			open = append(open, int(m.match[j]))
			k, j = k+1, j+1
		case w == SymPush && (m.ignore[s]):
			j++
		case w == SymPush:
			return false
		case s == w:
			pos[k] = j
			k, j = k+1, j+1
		case s == SymPush:
			j = int(m.match[j]) + 1
		case s == SymPop:
			return false
		case m.ignore[s]:
			j++
		default:
			return false
		}
	}
	return true
}
