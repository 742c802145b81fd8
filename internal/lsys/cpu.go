package lsys

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/procgen-dev/procgen/internal/rng"
)

// cpuState is what the CPU backend keeps between the steps of one
// derivation: the compiled rules and the per-module and per-chunk buffers,
// reused from step to step.
type cpuState struct {
	r       *rules
	workers int
	scr     []scratch
	match   []int32
	poff    []int
	choice  []int32
	chunkP  []int
	outM    []int // per chunk: output modules, then their offsets
	outP    []int // per chunk: output parameters, then their offsets
}

func newCPUState(r *rules, workers int) *cpuState {
	workers = numWorkers(workers)
	st := &cpuState{r: r, workers: workers, scr: make([]scratch, workers)}
	for i := range st.scr {
		st.scr[i] = newScratch(r)
	}
	return st
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// exclusiveScan turns counts into offsets in place and returns the total.
func exclusiveScan(v []int) int {
	t := 0
	for i, c := range v {
		v[i] = t
		t += c
	}
	return t
}

// hugeAdviceMin is the smallest fresh buffer worth adviseHugePages.
const hugeAdviceMin = 8 << 20

// output sizes out (reusing its arrays when they are large enough).
func output(out *String, m, p int) *String {
	if out == nil {
		out = &String{}
	}
	if cap(out.Syms) < m {
		out.Syms = make([]Symbol, m)
		adviseHugePages(out.Syms)
	}
	out.Syms = out.Syms[:m]
	out.Params = grow(out.Params, p)
	return out
}

// rewrite applies the rules once to in, writing into out's arrays when they
// are large enough. step is 0-based; label names the pass in errors; limit,
// when positive, is MaxModules.
func (st *cpuState) rewrite(ctx context.Context, in, out *String, step int, seed uint64, label string, limit int64) (*String, error) {
	r := st.r
	n := in.Len()
	nc := numChunks(n, chunkSize)
	st.outM = grow(st.outM, nc)
	st.outP = grow(st.outP, nc)
	if r.fast != nil {
		return st.fastRewrite(ctx, in, out, step, limit)
	}
	ps := &pass{r: r, in: in, key: rng.Key(seed, uint64(step)), label: label}
	if err := st.prepare(ctx, ps); err != nil {
		return nil, err
	}

	// Pass 1, count: choose the production of every module and add up the
	// output of each chunk.
	err := forChunks(ctx, n, chunkSize, st.workers, func(w, c, lo, hi int) error {
		m, p, err := ps.countChunk(&st.scr[w], lo, hi, ps.chunkP[c])
		st.outM[c], st.outP[c] = m, p
		return err
	})
	if err != nil {
		return nil, err
	}
	// Pass 2, scan.
	totalM, totalP := exclusiveScan(st.outM), exclusiveScan(st.outP)
	if limit > 0 && int64(totalM) > limit {
		return nil, &LimitError{Step: step + 1, Modules: int64(totalM), Max: limit}
	}
	out = output(out, totalM, totalP)
	// Pass 3, rewrite each chunk into its place.
	err = forChunks(ctx, n, chunkSize, st.workers, func(w, c, lo, hi int) error {
		oEnd := totalM
		if c+1 < nc {
			oEnd = st.outM[c+1]
		}
		return ps.rewriteChunk(&st.scr[w], out, lo, hi, st.outM[c], oEnd, st.outP[c], ps.chunkP[c])
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// prepare computes what the count pass needs besides the string: each
// chunk's first parameter, each module's first parameter when contexts bind
// parameters, the bracket partners when there are contexts, and room for the
// choices.
func (st *cpuState) prepare(ctx context.Context, ps *pass) error {
	r, in := st.r, ps.in
	n := in.Len()
	nc := numChunks(n, chunkSize)
	st.chunkP = grow(st.chunkP, nc)
	ps.chunkP = st.chunkP
	if r.parametric {
		err := forChunks(ctx, n, chunkSize, st.workers, func(w, c, lo, hi int) error {
			p := 0
			for _, s := range in.Syms[lo:hi] {
				p += int(r.arity[s])
			}
			st.chunkP[c] = p
			return nil
		})
		if err != nil {
			return err
		}
		exclusiveScan(st.chunkP)
	} else {
		clear(st.chunkP)
	}
	if r.ctxParams {
		st.poff = grow(st.poff, n)
		ps.poff = st.poff
		err := forChunks(ctx, n, chunkSize, st.workers, func(w, c, lo, hi int) error {
			p := st.chunkP[c]
			for i, s := range in.Syms[lo:hi] {
				st.poff[lo+i] = p
				p += int(r.arity[s])
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if r.hasCtx {
		m, err := matchBrackets(ctx, st.match, in.Syms, st.workers)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			return fmt.Errorf("lsys: %s: context matching: %w", ps.label, err)
		}
		st.match = m
		ps.cm = ctxMatcher{syms: in.Syms, match: m, ignore: &r.ignore}
	}
	if r.dynamic {
		st.choice = grow(st.choice, n)
		ps.choice = st.choice
	}
	return nil
}

// countChunk chooses the rule of modules [lo, hi) (parameters from po) and
// returns how many modules and parameters they write.
func (ps *pass) countChunk(ws *scratch, lo, hi, po int) (m, p int, err error) {
	r := ps.r
	syms := ps.in.Syms
	for i := lo; i < hi; i++ {
		s := syms[i]
		k := r.static[s]
		if k == symDynamic {
			if g := r.draws[s]; g != nil {
				k = g.pick(rng.Float64(rng.Hash64(ps.key, uint64(i))))
			} else if k, err = ps.choose(ws, i, po); err != nil {
				return 0, 0, err
			}
			ps.choice[i] = k
		}
		a := int(r.arity[s])
		if k >= 0 {
			ru := &r.list[k]
			m += len(ru.succSyms)
			p += ru.outParams
		} else {
			m++
			p += a
		}
		po += a
	}
	return m, p, nil
}

// rewriteChunk writes the successors of modules [lo, hi) (parameters from
// po) at output module o (up to oEnd, where the next chunk's output starts)
// and output parameter op.
func (ps *pass) rewriteChunk(ws *scratch, out *String, lo, hi, o, oEnd, op, po int) error {
	r := ps.r
	syms, params := ps.in.Syms, ps.in.Params
	osyms, oparams := out.Syms, out.Params
	for i := lo; i < hi; i++ {
		s := syms[i]
		k := r.static[s]
		if k == symDynamic {
			k = ps.choice[i]
		}
		if k < 0 {
			osyms[o] = s
			o++
			switch a := int(r.arity[s]); a {
			case 0:
			case 1:
				oparams[op] = params[po]
				op++
				po++
			default:
				op += copy(oparams[op:], params[po:po+a])
				po += a
			}
			continue
		}
		ru := &r.list[k]
		if n := len(ru.succSyms); n <= 64 && o+64 <= oEnd {
			// Whole words, as in fast.go; the padding lands in the next
			// modules' place, inside this chunk's output.
			d := osyms[o : o+64]
			for w, v := range ru.succWords[:(n+7)/8] {
				binary.LittleEndian.PutUint64(d[8*w:], v)
			}
			o += n
		} else {
			o += copy(osyms[o:], ru.succSyms)
		}
		if len(ru.args) > 0 {
			var slots []float64
			if ru.nSlots > ru.nPred {
				slots = ps.slotsFor(ws, ru, i, po)
			} else {
				slots = params[po : po+ru.nPred]
			}
			dst := oparams[op : op+len(ru.args)]
			for j := range ru.args {
				ag := &ru.args[j]
				var v float64
				switch ag.kind {
				case argConst:
					v = ag.val
				case argSlot:
					v = slots[ag.slot]
				case argSlotMulConst:
					if v = slots[ag.slot] * ag.val; !isFinite(v) {
						_, err := ag.expr.EvalKey(slots, RandKey(ps.key, i))
						return ps.fail(ru, i, err)
					}
				default:
					var err error
					if v, err = ag.expr.EvalKey(slots, RandKey(ps.key, i)); err != nil {
						return ps.fail(ru, i, err)
					}
				}
				dst[j] = v
			}
			op += len(ru.args)
		}
		po += ru.nPred
	}
	return nil
}
