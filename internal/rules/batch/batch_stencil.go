package batch

import (
	"slices"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Stencil sums. A neighbour count is a run of fused loads adding into one
// register (`n = c[up + l] + c[up + x] + ...`); with indices kept as
// numbers each is a run of consecutive words (two where the index wraps).
// Adding them one at a time reads and writes the sum once per neighbour;
// stencilSum collects the run and adds four windows a pass.

// window2 is one load's words: lanes [0, j) read w1, lanes [j, n) w2.
type window2 struct {
	w1, w2 []uint32
	j      int
}

// stencilSum adds the window (w1, w2 split at j) of the fused load at pc,
// and those of the fused loads right after it that add into the same
// register r through stride-1 indices, into r's lanes; it returns the pc
// after the last one.
func (b *Eval) stencilSum(pc, r, j int, w1, w2 []uint32) int {
	code := b.code
	ws := append(b.wins[:0], window2{w1, w2, j})
	temps := uint32(1) << (code[pc] >> 8 & 31)
	next := pc + 3
	// (A unit dropped as dead code is NOPs: never part of a live run,
	// checked all the same.)
	for next+2 < len(code) && b.fuse[next] && int(b.acc[next]) == r && !b.target[next] && code[next] == b.p.Code[next] {
		_, a, ib, c := bytecode.Decode(code[next])
		op2, _, _, fi := bytecode.Decode(code[next+1])
		if ib == r || c == r || temps&(1<<(ib&31)|1<<(c&31)) != 0 {
			break
		}
		x, ok1 := b.value(ib, -1)
		y, ok2 := b.value(c, b.ky[next])
		if !ok1 || !ok2 {
			break
		}
		v, ok := arith(x, y, add)
		if !ok || v.s != 1 {
			break
		}
		w1, w2, ok := b.window(op2, fi, v)
		if !ok {
			break
		}
		ws = append(ws, window2{w1, w2, v.j})
		temps |= 1 << (a & 31)
		next += 3
	}
	b.wins = ws
	b.toLanes(temps)
	// Lanes between two splits read one run of words from every window.
	cuts := append(b.cuts[:0], 0, b.n)
	for _, w := range ws {
		if w.j > 0 && w.j < b.n {
			cuts = append(cuts, w.j)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	b.cuts = cuts
	A := b.r[r][:b.n]
	for k := 0; k+1 < len(cuts); k++ {
		lo, hi := cuts[k], cuts[k+1]
		src := b.srcs[:0]
		for _, w := range ws {
			if w.j == 0 || hi <= w.j {
				src = append(src, w.w1[lo:hi])
			} else {
				src = append(src, w.w2[lo-w.j:hi-w.j])
			}
		}
		b.srcs = src
		addWindows(A[lo:hi], src)
	}
	return next
}

// addWindows adds the windows (each at least len(A) words) into A, four
// a pass.
func addWindows(A []uint32, ws [][]uint32) {
	n := len(A)
	for ; len(ws) >= 4; ws = ws[4:] {
		a, b, c, d := ws[0][:n], ws[1][:n], ws[2][:n], ws[3][:n]
		for i := range A {
			A[i] += a[i] + b[i] + c[i] + d[i]
		}
	}
	switch len(ws) {
	case 3:
		a, b, c := ws[0][:n], ws[1][:n], ws[2][:n]
		for i := range A {
			A[i] += a[i] + b[i] + c[i]
		}
	case 2:
		a, b := ws[0][:n], ws[1][:n]
		for i := range A {
			A[i] += a[i] + b[i]
		}
	case 1:
		a := ws[0][:n]
		for i := range A {
			A[i] += a[i]
		}
	}
}
