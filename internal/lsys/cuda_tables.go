package lsys

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// deviceTables is a compiled rule set flattened for the CUDA backend: the
// arrays of cuda/lsys_types.cuh, which travel to the device as one blob
// (blob). Pure Go, so its tests run without a GPU.
type deviceTables struct {
	hdr    gpuHeader
	rules  []gpuRule
	args   []gpuArg
	exprs  []gpuExpr
	code   []uint32 // Op | Arg<<8
	consts []float64
	cands  []uint32
	bytes  []byte   // successors and contexts; bytes[s] == s for every s
	bpoff  []uint32 // per byte of a successor: its first parameter within the successor's
	// fast: the system takes the fast path (rules.fast, with successors
	// small enough for the kernel's shared memory).
	fast bool
}

// Limits of the device tables: per-tile counts are 32-bit, and a tile of
// gpuGenTile modules must not write 2^32 modules or parameters.
const (
	gpuMaxSucc = 1 << 18
	gpuMaxArgs = 1 << 20
)

// flattenRules lays r out for the device.
func flattenRules(r *rules) (*deviceTables, error) {
	t := &deviceTables{}
	for s := 0; s < 256; s++ {
		t.bytes = append(t.bytes, byte(s)) // the successor of a module that is copied
	}
	for i := range r.list {
		ru := &r.list[i]
		p := ru.p
		if len(ru.succSyms) > gpuMaxSucc || len(ru.args) > gpuMaxArgs {
			return nil, fmt.Errorf("lsys: %s %s: a successor of %d modules and %d parameters is too long for the CUDA backend (at most %d and %d)",
				ru.kind, describe(p, r.sysArity), len(ru.succSyms), len(ru.args), gpuMaxSucc, gpuMaxArgs)
		}
		g := gpuRule{
			Pred:      uint32(p.Pred),
			SuccStart: uint32(len(t.bytes)), SuccLen: uint32(len(ru.succSyms)),
			ArgStart: uint32(len(t.args)), NArgs: uint32(len(ru.args)),
			Cond:  -1,
			NLeft: uint32(ru.nLeft), NPred: uint32(ru.nPred), NSlots: uint32(ru.nSlots),
			Prob: p.Prob,
		}
		t.bytes = append(t.bytes, ru.succSyms...)
		for len(t.bpoff) < len(t.bytes)-len(ru.succSyms) {
			t.bpoff = append(t.bpoff, 0)
		}
		po := uint32(0)
		for _, c := range ru.succSyms {
			t.bpoff = append(t.bpoff, po)
			po += uint32(r.arity[c])
		}
		g.LeftStart, g.LeftLen = uint32(len(t.bytes)), uint32(len(p.Left))
		t.bytes = append(t.bytes, p.Left...)
		g.RightStart, g.RightLen = uint32(len(t.bytes)), uint32(len(p.Right))
		t.bytes = append(t.bytes, p.Right...)
		if p.Cond != nil {
			g.Cond = t.addExpr(p.Cond)
		}
		if p.Stochastic {
			g.Stochastic = 1
		}
		for _, ag := range ru.args {
			a := gpuArg{Slot: uint32(ag.slot), Val: ag.val, Expr: -1}
			switch ag.kind {
			case argConst:
				a.Kind = gpuArgConst
			case argSlot:
				a.Kind = gpuArgSlot
			case argSlotMulConst:
				a.Kind = gpuArgSlotMul
			default:
				a.Kind, a.Expr = gpuArgExpr, t.addExpr(ag.expr)
			}
			t.args = append(t.args, a)
		}
		t.rules = append(t.rules, g)
		t.hdr.MaxSucc = max(t.hdr.MaxSucc, g.SuccLen)
	}
	h := &t.hdr
	for s := range h.Syms {
		sy := &h.Syms[s]
		sy.Rule = r.static[s]
		sy.CandStart, sy.NCand = uint32(len(t.cands)), uint32(len(r.bySym[s]))
		for _, k := range r.bySym[s] {
			t.cands = append(t.cands, uint32(k))
		}
		sy.Arity = uint32(r.arity[s])
		if r.ignore[s] {
			sy.Ignore = 1
		}
		switch k := r.static[s]; {
		case k >= 0:
			sy.OutMods, sy.OutParams, sy.SuccStart = t.rules[k].SuccLen, t.rules[k].NArgs, t.rules[k].SuccStart
		case k == symCopy:
			sy.OutMods, sy.OutParams, sy.SuccStart = 1, sy.Arity, uint32(s)
		}
	}
	for _, f := range []struct {
		on  bool
		bit uint32
	}{{r.parametric, gpuParametric}, {r.hasCtx, gpuHasCtx}, {r.ctxParams, gpuCtxParams},
		{r.dynamic, gpuDynamicRules}, {r.hasCut, gpuHasCut}} {
		if f.on {
			h.Flags |= f.bit
		}
	}
	for len(t.bpoff) < len(t.bytes) {
		t.bpoff = append(t.bpoff, 0)
	}
	h.NRules, h.NArgs, h.NExprs = uint32(len(t.rules)), uint32(len(t.args)), uint32(len(t.exprs))
	h.NCode, h.NConsts, h.NCands, h.NBytes = uint32(len(t.code)), uint32(len(t.consts)), uint32(len(t.cands)), uint32(len(t.bytes))
	t.fast = r.fast != nil && len(t.bytes) <= gpuFastBytes
	return t, nil
}

// addExpr appends e's code and constants and returns its index.
func (t *deviceTables) addExpr(e *Expr) int32 {
	t.exprs = append(t.exprs, gpuExpr{CodeStart: uint32(len(t.code)), CodeLen: uint32(len(e.Code)),
		ConstStart: uint32(len(t.consts)), NConsts: uint32(len(e.Consts))})
	for _, in := range e.Code {
		t.code = append(t.code, uint32(in.Op)|uint32(in.Arg)<<8)
	}
	t.consts = append(t.consts, e.Consts...)
	return int32(len(t.exprs) - 1)
}

// blob encodes the tables as the device reads them: the header, then each
// array at an 8-byte aligned offset the header records.
func (t *deviceTables) blob() []uint64 {
	var body bytes.Buffer
	hdrSize := binary.Size(t.hdr)
	h := t.hdr
	section := func(v any) uint32 {
		for (hdrSize+body.Len())%8 != 0 {
			body.WriteByte(0)
		}
		off := uint32(hdrSize + body.Len())
		mustWrite(&body, v)
		return off
	}
	h.OffRules = section(t.rules)
	h.OffArgs = section(t.args)
	h.OffExprs = section(t.exprs)
	h.OffConsts = section(t.consts)
	h.OffCode = section(t.code)
	h.OffCands = section(t.cands)
	h.OffBytes = section(t.bytes)
	h.OffBpoff = section(t.bpoff)
	var all bytes.Buffer
	mustWrite(&all, h)
	all.Write(body.Bytes())
	for all.Len()%8 != 0 {
		all.WriteByte(0)
	}
	b := all.Bytes()
	out := make([]uint64, len(b)/8)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out
}

func mustWrite(w *bytes.Buffer, v any) {
	if err := binary.Write(w, binary.LittleEndian, v); err != nil {
		panic(err) // only fixed-size values are written: a programming error
	}
}

// levelLayout is the offset of each level of bracket-depth minima for a
// string of n modules and the values they hold together (lsys.cu's
// levels_of computes the same), plus room for the level-1 entry that
// lsys_depth_fill writes even when the string has a single level.
func levelLayout(n int) (offs []int, total int) {
	o, l := 0, n
	for {
		offs = append(offs, o)
		if l <= 1 || len(offs) == gpuMaxLevels {
			break
		}
		o += l
		l = (l + gpuFanout - 1) / gpuFanout
	}
	return offs, o + l + 1
}

// chunkOffsets is the index of the first parameter of every group of gpuK
// modules of syms, as the device keeps it beside a parametric string.
func chunkOffsets(syms []Symbol, arity *[256]int32) []uint32 {
	out := make([]uint32, (len(syms)+gpuK-1)/gpuK)
	p := uint32(0)
	for i, s := range syms {
		if i%gpuK == 0 {
			out[i/gpuK] = p
		}
		p += uint32(arity[s])
	}
	return out
}
