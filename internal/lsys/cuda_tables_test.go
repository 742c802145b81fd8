package lsys

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The device tables are checked here without a GPU: the blob decodes back to
// the tables, the tables say what the compiled rules say, and the flattened
// bytecode, run by a Go copy of lsys.cu's interpreter, gives what Expr.Eval
// gives.

// blobTables decodes a blob as the kernels read it.
type blobTables struct {
	hdr    gpuHeader
	rules  []gpuRule
	args   []gpuArg
	exprs  []gpuExpr
	code   []uint32
	consts []float64
	cands  []uint32
	bytes  []byte
	bpoff  []uint32
}

func decodeBlob(t *testing.T, words []uint64) *blobTables {
	t.Helper()
	raw := make([]byte, 8*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint64(raw[8*i:], w)
	}
	b := &blobTables{}
	if err := binary.Read(bytes.NewReader(raw), binary.LittleEndian, &b.hdr); err != nil {
		t.Fatal(err)
	}
	h := &b.hdr
	read := func(off uint32, n uint32, v any) {
		if off%8 != 0 {
			t.Fatalf("section at %d is not 8-byte aligned", off)
		}
		if err := binary.Read(bytes.NewReader(raw[off:]), binary.LittleEndian, v); err != nil {
			t.Fatalf("section at %d (%d values): %v", off, n, err)
		}
	}
	b.rules = make([]gpuRule, h.NRules)
	read(h.OffRules, h.NRules, b.rules)
	b.args = make([]gpuArg, h.NArgs)
	read(h.OffArgs, h.NArgs, b.args)
	b.exprs = make([]gpuExpr, h.NExprs)
	read(h.OffExprs, h.NExprs, b.exprs)
	b.code = make([]uint32, h.NCode)
	read(h.OffCode, h.NCode, b.code)
	b.consts = make([]float64, h.NConsts)
	read(h.OffConsts, h.NConsts, b.consts)
	b.cands = make([]uint32, h.NCands)
	read(h.OffCands, h.NCands, b.cands)
	b.bytes = make([]byte, h.NBytes)
	read(h.OffBytes, h.NBytes, b.bytes)
	b.bpoff = make([]uint32, h.NBytes)
	read(h.OffBpoff, h.NBytes, b.bpoff)
	return b
}

// evalFlat is lsys.cu's eval_expr in Go: it must agree with Expr.Eval on
// success, value (bit for bit) and failure.
func (b *blobTables) evalFlat(e int32, slots []float64) (float64, bool) {
	ex := b.exprs[e]
	code := b.code[ex.CodeStart : ex.CodeStart+ex.CodeLen]
	consts := b.consts[ex.ConstStart:]
	var st [MaxStack]float64
	sp := 0
	tmp := &Expr{}
	for pc := uint32(0); pc < uint32(len(code)); pc++ {
		op, arg := Op(code[pc]&0xff), code[pc]>>8
		switch op {
		case OpConst:
			st[sp] = consts[arg]
			sp++
		case OpSlot:
			st[sp] = slots[arg]
			sp++
		case OpNeg:
			st[sp-1] = -st[sp-1]
		case OpNot:
			st[sp-1] = b2f(st[sp-1] == 0)
		case OpBool:
			st[sp-1] = b2f(st[sp-1] != 0)
		case OpAndJump:
			if st[sp-1] == 0 {
				pc = arg - 1
			} else {
				sp--
			}
		case OpOrJump:
			if st[sp-1] != 0 {
				pc = arg - 1
			} else {
				sp--
			}
		case OpCall:
			var v float64
			var err error
			if f := Func(arg); f.Args() == 2 {
				sp--
				v, err = tmp.call2(f, st[sp-1], st[sp])
			} else {
				v, err = tmp.call1(f, st[sp-1])
			}
			if err != nil {
				return 0, false
			}
			st[sp-1] = v
		default:
			sp--
			one := Expr{Code: []Instr{{Op: OpSlot, Arg: 0}, {Op: OpSlot, Arg: 1}, {Op: op}}}
			v, err := one.Eval([]float64{st[sp-1], st[sp]})
			if err != nil {
				return 0, false
			}
			st[sp-1] = v
		}
	}
	return st[0], true
}

// tableSystems are systems of every kind, built without the parser.
func tableSystems() map[string]*System {
	x, y := slot(0, "x"), slot(1, "y")
	hard := system([]Module{mod('A', num(1), num(2))}, map[byte]int{'A': 2, 'B': 1},
		prod('A', []Module{mod('A', bin(OpDiv, x, bin(OpSub, y, num(2))), call(FnSin, bin(OpPow, x, num(1.5)))),
			mod('B', logic(true, bin(OpLt, x, num(3)), logic(false, bin(OpEq, y, num(0)), neg(x))))}).
			cond(bin(OpGt, call(FnMax, x, y), num(0))),
		prod('A', []Module{mod('B', call(FnLog, call(FnAbs, x)))}),
		prod('B', []Module{mod('B', bin(OpMul, x, num(0.5))), mod('B', x), mod('B', num(7))}))
	return map[string]*System{"hilbert3D": hilbert3D(), "koch": kochIsland(), "plant2D": plant2D(),
		"rowOfTrees": rowOfTrees(), "stochastic": stochasticPlant(), "context": contextPlant(),
		"tree3D": tree3D(), "hard": hard}
}

func TestDeviceTables(t *testing.T) {
	for name, sys := range tableSystems() {
		t.Run(name, func(t *testing.T) {
			r, err := compileRules(sys, sys.Prods, "production")
			if err != nil {
				t.Fatal(err)
			}
			tab, err := flattenRules(r)
			if err != nil {
				t.Fatal(err)
			}
			b := decodeBlob(t, tab.blob())
			h := &b.hdr
			if h.Syms != tab.hdr.Syms || !slices.Equal(b.rules, tab.rules) || !slices.Equal(b.args, tab.args) ||
				!slices.Equal(b.code, tab.code) || !slices.Equal(b.cands, tab.cands) || !bytes.Equal(b.bytes, tab.bytes) || !slices.Equal(b.bpoff, tab.bpoff) {
				t.Fatal("the blob does not decode to the tables")
			}
			if tab.fast != (r.fast != nil) {
				t.Errorf("fast %v, rules.fast %v", tab.fast, r.fast != nil)
			}
			for s := range h.Syms {
				sy := h.Syms[s]
				if sy.Rule != r.static[s] || sy.Arity != uint32(r.arity[s]) || (sy.Ignore != 0) != r.ignore[s] {
					t.Fatalf("symbol %q: %+v", rune(s), sy)
				}
				var cands []int32
				for _, k := range b.cands[sy.CandStart : sy.CandStart+sy.NCand] {
					cands = append(cands, int32(k))
				}
				if !slices.Equal(cands, r.bySym[s]) {
					t.Fatalf("symbol %q: candidates %v, want %v", rune(s), cands, r.bySym[s])
				}
				var want []byte
				switch k := r.static[s]; {
				case k >= 0:
					want = r.list[k].succSyms
				case k == symCopy:
					want = []byte{byte(s)}
				}
				if got := b.bytes[sy.SuccStart : sy.SuccStart+sy.OutMods]; !bytes.Equal(got, want) {
					t.Fatalf("symbol %q writes %q, want %q", rune(s), got, want)
				}
				if r.fast != nil && int(sy.OutMods) != int(r.fast.n[s]) {
					t.Fatalf("symbol %q: %d modules, fast table %d", rune(s), sy.OutMods, r.fast.n[s])
				}
			}
			rnd := rand.New(rand.NewPCG(1, 2))
			for i, g := range b.rules {
				ru := &r.list[i]
				p := ru.p
				if !bytes.Equal(b.bytes[g.SuccStart:g.SuccStart+g.SuccLen], ru.succSyms) ||
					!bytes.Equal(b.bytes[g.LeftStart:g.LeftStart+g.LeftLen], p.Left) ||
					!bytes.Equal(b.bytes[g.RightStart:g.RightStart+g.RightLen], p.Right) ||
					g.Pred != uint32(p.Pred) || g.NArgs != uint32(len(ru.args)) || g.NLeft != uint32(ru.nLeft) ||
					g.NPred != uint32(ru.nPred) || g.NSlots != uint32(ru.nSlots) || (g.Stochastic != 0) != p.Stochastic ||
					g.Prob != p.Prob || (g.Cond >= 0) != (p.Cond != nil) {
					t.Fatalf("rule %d: %+v", i, g)
				}
				po := uint32(0)
				for c, sym := range ru.succSyms {
					if b.bpoff[g.SuccStart+uint32(c)] != po {
						t.Fatalf("rule %d: successor module %d has its parameters at %d, want %d", i, c,
							b.bpoff[g.SuccStart+uint32(c)], po)
					}
					po += uint32(r.arity[sym])
				}
				exprs := map[int32]*Expr{}
				if p.Cond != nil {
					exprs[g.Cond] = p.Cond
				}
				for j, a := range b.args[g.ArgStart : g.ArgStart+g.NArgs] {
					ag := ru.args[j]
					kinds := map[argKind]uint32{argExpr: gpuArgExpr, argConst: gpuArgConst, argSlot: gpuArgSlot,
						argSlotMulConst: gpuArgSlotMul}
					if a.Kind != kinds[ag.kind] || a.Slot != uint32(ag.slot) || a.Val != ag.val {
						t.Fatalf("rule %d argument %d: %+v", i, j, a)
					}
					if ag.kind == argExpr {
						exprs[a.Expr] = ag.expr
					}
				}
				for k, e := range exprs {
					for range 200 {
						slots := make([]float64, ru.nSlots)
						for s := range slots {
							slots[s] = []float64{0, 1, -1, 2, 3, 0.5, -7.25, 1e300, rnd.NormFloat64() * 10}[rnd.IntN(9)]
						}
						want, werr := e.Eval(slots)
						got, ok := b.evalFlat(k, slots)
						if ok != (werr == nil) || (ok && math.Float64bits(got) != math.Float64bits(want)) {
							t.Fatalf("rule %d, %q over %v: flat %v (ok %v), Eval %v (%v)", i, e.Text, slots, got, ok, want, werr)
						}
					}
				}
			}
		})
	}
}

func TestDeviceTablesLimits(t *testing.T) {
	long := make([]Module, gpuMaxSucc+1)
	for i := range long {
		long[i] = Module{Sym: 'F'}
	}
	sys := system(mods("F"), nil, prod('F', long))
	r, err := compileRules(sys, sys.Prods, "production")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := flattenRules(r); err == nil {
		t.Error("a successor of 2^18+1 modules was accepted")
	}
	var sub *ExprError
	if errors.As(err, &sub) {
		t.Errorf("unexpected expression error %v", err)
	}
}

func TestChunkOffsets(t *testing.T) {
	var arity [256]int32
	arity['A'], arity['B'] = 2, 1
	syms := []byte("AxBxxxxxAAByyyyyyyB")
	got := chunkOffsets(syms, &arity)
	want := []uint32{0, 3, 8}
	if !slices.Equal(got, want) {
		t.Errorf("chunk offsets %v, want %v", got, want)
	}
}

func TestLevelLayout(t *testing.T) {
	for _, tc := range []struct {
		n     int
		offs  []int
		total int
	}{
		{0, []int{0}, 1},
		{1, []int{0}, 2},
		{2, []int{0, 2}, 4},
		{32, []int{0, 32}, 34},
		{33, []int{0, 33, 35}, 37},
		{1 << 20, []int{0, 1 << 20, 1<<20 + 1<<15, 1<<20 + 1<<15 + 1<<10, 1<<20 + 1<<15 + 1<<10 + 32}, 1<<20 + 1<<15 + 1<<10 + 32 + 2},
	} {
		offs, total := levelLayout(tc.n)
		if !slices.Equal(offs, tc.offs) || total != tc.total {
			t.Errorf("levelLayout(%d) = %v, %d; want %v, %d", tc.n, offs, total, tc.offs, tc.total)
		}
	}
	if offs, _ := levelLayout(1<<32 - 1); len(offs) > gpuMaxLevels {
		t.Errorf("%d levels for 2^32-1 modules", len(offs))
	}
}
