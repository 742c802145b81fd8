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
//   - Contexts are plain symbol lists. cpfg's bracketed right contexts
//     (B > C[D]E), which descend into branches, are refused by
//     compileRules.
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
