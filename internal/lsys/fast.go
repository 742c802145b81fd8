package lsys

import (
	"context"
	"encoding/binary"
)

// fastTable is the fast path for systems without parameters, contexts,
// conditions or stochastic productions (Koch curves, Hilbert curves, the
// classic bracketed plants): every symbol always rewrites to the same bytes,
// so a step is a table expansion. Each successor is stored padded to a
// fixed width of 8 to 64 bytes as 64-bit words; the rewrite stores whole
// words and advances by the true length, so it runs without a branch or a
// call per module (the next module's words overwrite the padding).
type fastTable struct {
	n     [256]int32     // successor length
	words [256][8]uint64 // successor bytes, zero-padded, little-endian
	width int            // bytes stored per module: 8, 16, 32, 64; 0 = copy()
	succ  [256][]byte
}

func newFastTable(r *rules) *fastTable {
	t := &fastTable{}
	longest := 1
	for s := range t.succ {
		b := []byte{byte(s)}
		if k := r.static[s]; k >= 0 {
			b = r.list[k].succSyms
		}
		t.succ[s] = b
		t.n[s] = int32(len(b))
		longest = max(longest, len(b))
		var pad [64]byte
		copy(pad[:], b)
		for w := range t.words[s] {
			t.words[s][w] = binary.LittleEndian.Uint64(pad[8*w:])
		}
	}
	for _, w := range []int{8, 16, 32, 64} {
		if longest <= w {
			t.width = w
			break
		}
	}
	return t
}

// fastRewrite is rewrite for a fast table: count, scan, expand.
func (st *cpuState) fastRewrite(ctx context.Context, in, out *String, step int, limit int64) (*String, error) {
	t := st.r.fast
	n := in.Len()
	err := forChunks(ctx, n, chunkSize, st.workers, func(w, c, lo, hi int) error {
		st.outM[c] = t.count(in.Syms[lo:hi])
		return nil
	})
	if err != nil {
		return nil, err
	}
	total := exclusiveScan(st.outM)
	if limit > 0 && int64(total) > limit {
		return nil, &LimitError{Step: step + 1, Modules: int64(total), Max: limit}
	}
	out = output(out, total, 0)
	nc := len(st.outM)
	err = forChunks(ctx, n, chunkSize, st.workers, func(w, c, lo, hi int) error {
		end := total
		if c+1 < nc {
			end = st.outM[c+1]
		}
		t.expand(out.Syms[st.outM[c]:end], in.Syms[lo:hi])
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// count is the output length of src, with four independent sums so the
// additions do not wait on each other.
func (t *fastTable) count(src []byte) int {
	var a, b, c, d int
	i := 0
	for ; i+4 <= len(src); i += 4 {
		q := src[i : i+4 : i+4]
		a += int(t.n[q[0]])
		b += int(t.n[q[1]])
		c += int(t.n[q[2]])
		d += int(t.n[q[3]])
	}
	for ; i < len(src); i++ {
		a += int(t.n[src[i]])
	}
	return a + b + c + d
}

// expand writes the successors of src to dst, which has exactly the room
// they need: whole-word stores while a full width fits, copy() for the tail.
func (t *fastTable) expand(dst, src []byte) {
	i, o := 0, 0
	switch t.width {
	case 8:
		for lim := len(dst) - 8; i < len(src) && o <= lim; i++ {
			s := src[i]
			binary.LittleEndian.PutUint64(dst[o:], t.words[s][0])
			o += int(t.n[s])
		}
	case 16:
		for lim := len(dst) - 16; i < len(src) && o <= lim; i++ {
			s := src[i]
			w := &t.words[s]
			d := dst[o : o+16]
			binary.LittleEndian.PutUint64(d, w[0])
			binary.LittleEndian.PutUint64(d[8:], w[1])
			o += int(t.n[s])
		}
	case 32:
		for lim := len(dst) - 32; i < len(src) && o <= lim; i++ {
			s := src[i]
			w := &t.words[s]
			d := dst[o : o+32]
			binary.LittleEndian.PutUint64(d, w[0])
			binary.LittleEndian.PutUint64(d[8:], w[1])
			binary.LittleEndian.PutUint64(d[16:], w[2])
			binary.LittleEndian.PutUint64(d[24:], w[3])
			o += int(t.n[s])
		}
	case 64:
		for lim := len(dst) - 64; i < len(src) && o <= lim; i++ {
			s := src[i]
			w := &t.words[s]
			d := dst[o : o+64]
			if t.n[s] == 1 { // most modules of long-successor systems are turtle commands
				d[0] = byte(w[0])
				o++
				continue
			}
			binary.LittleEndian.PutUint64(d, w[0])
			binary.LittleEndian.PutUint64(d[8:], w[1])
			binary.LittleEndian.PutUint64(d[16:], w[2])
			binary.LittleEndian.PutUint64(d[24:], w[3])
			binary.LittleEndian.PutUint64(d[32:], w[4])
			binary.LittleEndian.PutUint64(d[40:], w[5])
			binary.LittleEndian.PutUint64(d[48:], w[6])
			binary.LittleEndian.PutUint64(d[56:], w[7])
			o += int(t.n[s])
		}
	}
	for ; i < len(src); i++ {
		o += copy(dst[o:], t.succ[src[i]])
	}
}
