package lsys

import (
	"context"
	"fmt"
	"math"
)

// BracketError is an unbalanced module string.
type BracketError struct {
	Pos   int  // module index of the offending bracket
	Close bool // a ']' with no '[' before it; else a '[' never closed
}

func (e *BracketError) Error() string {
	if e.Close {
		return fmt.Sprintf("unbalanced brackets: ']' at module %d closes no branch", e.Pos)
	}
	return fmt.Sprintf("unbalanced brackets: '[' at module %d is never closed", e.Pos)
}

// Brackets returns the branch structure of syms: for each '[' the index of
// its matching ']' and vice versa, -1 for every other module. It works in
// parallel (see matchBrackets) and fails with a *BracketError when the
// brackets do not balance; errors carry no "lsys:" prefix, callers say what
// string it was. Strings longer than math.MaxInt32 modules are
// refused.
func Brackets(syms []Symbol, workers int) ([]int32, error) {
	return matchBrackets(context.Background(), nil, syms, workers)
}

// bracketResidue is what a chunk could not match by itself: the ']' that
// close branches opened before the chunk, then the '[' whose branches end
// after it, both in string order.
type bracketResidue struct {
	closes, opens []int32
}

// matchBrackets is Brackets into dst (reused when large enough).
//
// The algorithm is a chunked stack: each chunk matches its own pairs with a
// local stack (in parallel, chunks of chunkSize modules), leaving a residue
// of unmatched ']' followed by unmatched '['; a serial pass then matches the
// residues left to right with one stack. The serial pass costs the sum of the
// residues, which is bounded by the number of chunks times the branch depth
// at chunk boundaries: tiny for plant-like strings, where depth is tens, not
// millions. The paper's five-pass depth-bucket algorithm (section 5.2.1)
// avoids that serial pass but reads the string three times instead of once;
// on a CPU the single pass wins (BenchmarkBrackets measures it).
func matchBrackets(ctx context.Context, dst []int32, syms []Symbol, workers int) ([]int32, error) {
	n := len(syms)
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("a string of %d modules is too long for bracket matching (limit %d)", n, math.MaxInt32)
	}
	if cap(dst) < n {
		dst = make([]int32, n)
	}
	match := dst[:n]
	nc := numChunks(n, chunkSize)
	res := make([]bracketResidue, nc)
	stacks := make([][]int32, numWorkers(workers))
	err := forChunks(ctx, n, chunkSize, workers, func(w, c, lo, hi int) error {
		st := stacks[w][:0]
		var closes []int32
		m := match[lo:hi]
		for k, s := range syms[lo:hi] {
			m[k] = -1
			switch s {
			case SymPush:
				st = append(st, int32(lo+k))
			case SymPop:
				if len(st) == 0 {
					closes = append(closes, int32(lo+k))
					continue
				}
				j := st[len(st)-1]
				st = st[:len(st)-1]
				match[j] = int32(lo + k)
				m[k] = j
			}
		}
		res[c] = bracketResidue{closes: closes}
		if len(st) > 0 {
			res[c].opens = append([]int32(nil), st...)
		}
		stacks[w] = st
		return nil
	})
	if err != nil {
		return nil, err
	}
	var st []int32
	for _, r := range res {
		for _, i := range r.closes {
			if len(st) == 0 {
				return nil, &BracketError{Pos: int(i), Close: true}
			}
			j := st[len(st)-1]
			st = st[:len(st)-1]
			match[j], match[i] = i, j
		}
		st = append(st, r.opens...)
	}
	if len(st) > 0 {
		return nil, &BracketError{Pos: int(st[0])}
	}
	return match, nil
}
