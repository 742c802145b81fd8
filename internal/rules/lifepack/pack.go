// Package lifepack runs two-state outer-totalistic rules on the Moore
// neighbourhood (Conway's Life, HighLife and the other B/S rules of Golly's
// notation without Hensel letters) on the GPU with the cells bit-packed, 32
// to a word: a step reads and writes 1/32 of the bytes the rules engine's
// generated kernels move (an int32 a cell) and sums the eight neighbour
// counts of 32 cells at once with bitwise adders (cuda/rules_packed.cu).
//
// Its Engine stands in for the rules engine's CUDA backend for a rule given
// by notation (--rule B3/S23, an RLE's rule line): the notation says what
// the compiled program computes, so the packed kernel computes the same
// boards, firings and fixed points (TestCUDAPackedMatchesCPU). Where it
// cannot (a cell other than 0 or 1, --record, --trace, a sweep, --kernel
// generated or interpreter), the run goes to the engine it wraps.
//
// This file holds the layout and the Go twin of the kernel's bit logic,
// which the tests hold the CUDA kernel and the rules engine to.
package lifepack

import (
	"math/bits"
	"sync/atomic"

	"github.com/procgen-dev/procgen/internal/parallel"
	"github.com/procgen-dev/procgen/internal/rules"
)

// Rule is a B/S rule: bit n of Birth, a dead cell with n live neighbours
// becomes alive; bit n of Survive, a live one stays alive (n = 0..8).
type Rule struct {
	Birth, Survive uint16
	// Torus wraps the board's rows and columns; else the cells outside
	// it are dead (a bounded plane).
	Torus bool
}

// Board is where the cells sit in a state: W x H int32 words from word Off,
// cell (x, y) at Off + y*W + x.
type Board struct {
	W, H, Off int
}

// Words is the packed words of a row's cells.
func (b Board) Words() int { return (b.W + 31) / 32 }

// Stride is the words a packed row takes: Words rounded up to 4 (16 bytes,
// a GPU lane's load), the words past Words 0.
func (b Board) Stride() int { return (b.Words() + 3) &^ 3 }

// tail is the number of cells in a row's last word (1..32).
func (b Board) tail() int { return b.W - 32*(b.Words()-1) }

// Whole128 reports whether the rows fill whole 128-cell segments (a warp's
// row of 4 words a lane): no bits past W, no padding words. Life on such
// boards has a kernel of its own (cuda/rules_packed_life9.cuh).
func (b Board) Whole128() bool { return b.W%128 == 0 }

// strip is LP_STRIP: the rows a thread of the kernel walks down.
const strip = 16

// grid is the kernel's launch grid for n states: blocks of 32 x 8 threads,
// 128 words of a row (4 a lane) by 8 strips of rows; past 65,535 rows of
// blocks each loops over several.
func (b Board) grid(n int) (x, y int) {
	strips := n * ((b.H + strip - 1) / strip)
	return (b.Stride() + 127) / 128, min((strips+7)/8, 65535)
}

// Blocks is how many thread blocks a step of n states launches: the
// device's auto weighs a packed run by it (an H200 holds about 528 at once).
func (b Board) Blocks(n int) int {
	x, y := b.grid(n)
	return x * y
}

// PackedLen is the packed words of n states.
func (b Board) PackedLen(n int) int { return n * b.H * b.Stride() }

// Pack packs the boards of st's states into dst (PackedLen(st.N) words),
// bit x % 32 of word (s*H + y)*Stride() + x/32 for cell (x, y) of state s,
// on every core. It reports false, leaving dst partly written, when a cell
// holds a value other than 0 or 1, which the packed rule cannot hold.
func Pack(st *rules.States, b Board, dst []uint32) bool {
	ws := b.Stride()
	var bad atomic.Bool
	eachRow(st.N*b.H, func(r int) {
		s, y := r/b.H, r%b.H
		row := st.State(s)[b.Off+y*b.W : b.Off+(y+1)*b.W]
		out := dst[r*ws : (r+1)*ws]
		clear(out)
		for k := range b.Words() {
			var w uint32
			for i, c := range row[32*k : min(32*k+32, b.W)] {
				if c > 1 {
					bad.Store(true)
					return
				}
				w |= c << i
			}
			out[k] = w
		}
	})
	return !bad.Load()
}

// Unpack writes packed boards back into st's states as 0 and 1, on every
// core.
func Unpack(src []uint32, st *rules.States, b Board) {
	ws := b.Stride()
	eachRow(st.N*b.H, func(r int) {
		s, y := r/b.H, r%b.H
		row := st.State(s)[b.Off+y*b.W : b.Off+(y+1)*b.W]
		in := src[r*ws : (r+1)*ws]
		for x := range row {
			row[x] = in[x>>5] >> (x & 31) & 1
		}
	})
}

// eachRow calls fn for rows 0..n-1, ranges of at least 16 rows on every
// core.
func eachRow(n int, fn func(r int)) {
	parallel.For(n, 16, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			fn(r)
		}
	})
}

// Step is one step of every state from cur into next, the Go twin of
// pg_life_step: changed[s] gets the cells of state s that changed.
func Step(cur, next []uint32, n int, b Board, r Rule, changed []int64) {
	wpr, ws, tail := b.Words(), b.Stride(), b.tail()
	for s := range n {
		board := cur[s*b.H*ws : (s+1)*b.H*ws]
		for y := range b.H {
			yu, yd := y-1, y+1
			if r.Torus {
				yu, yd = (yu+b.H)%b.H, yd%b.H
			}
			for k := range wpr {
				mw, mc, me := rowBits(board[y*ws:y*ws+wpr], k, tail, r.Torus)
				var aw, ac, ae, bw, bc, be uint32
				if yu >= 0 {
					aw, ac, ae = rowBits(board[yu*ws:yu*ws+wpr], k, tail, r.Torus)
				}
				if yd < b.H {
					bw, bc, be = rowBits(board[yd*ws:yd*ws+wpr], k, tail, r.Torus)
				}
				nx := nextBits(mc, [8]uint32{aw, ac, ae, mw, me, bw, bc, be}, r)
				if k == wpr-1 && tail < 32 {
					nx &= 1<<tail - 1
				}
				next[(s*b.H+y)*ws+k] = nx
				changed[s] += int64(bits.OnesCount32(nx ^ mc))
			}
		}
	}
}

// rowBits is word k of a row with its west and east neighbours aligned to
// its bits (pg_life_row).
func rowBits(row []uint32, k, tail int, torus bool) (west, mid, east uint32) {
	c := row[k]
	var lbit, rbit uint32
	switch {
	case k > 0:
		lbit = row[k-1] >> 31
	case torus:
		lbit = row[len(row)-1] >> (tail - 1) & 1
	}
	if k < len(row)-1 {
		rbit = row[k+1] << 31
	} else if torus {
		rbit = (row[0] & 1) << (tail - 1)
	}
	return c<<1 | lbit, c, c>>1 | rbit
}

// nextBits applies r to the 32 cells c with neighbour words nb (pg_life_next),
// by counting: the kernel's adders are checked against it.
func nextBits(c uint32, nb [8]uint32, r Rule) uint32 {
	var out uint32
	for i := range 32 {
		n := 0
		for _, w := range nb {
			n += int(w >> i & 1)
		}
		rule := r.Birth
		if c>>i&1 == 1 {
			rule = r.Survive
		}
		out |= uint32(rule>>n&1) << i
	}
	return out
}
