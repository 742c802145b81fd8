package rules

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// A small emulator for the PTX the generator writes (and nothing else), so
// that the generated kernels' semantics are tested on machines without a
// GPU: every thread of a block runs until it reaches a barrier, a warp
// collective or the end; collectives resolve when every thread they need
// waits at them. Threads of a block run one after another between
// synchronisation points, which is one legal interleaving (the kernels'
// correctness may not depend on any other).

type emuInst struct {
	pred string // guard register, "" for none
	neg  bool
	op   string
	args []string
}

type emuKernel struct {
	name    string
	params  []string
	insts   []emuInst
	labels  map[string]int
	shared  map[string]uint64 // byte offsets
	sharedN int               // words
}

// parseEmuKernel reads the kernel called name from a generated module.
func parseEmuKernel(ptx, name string) (*emuKernel, error) {
	k := &emuKernel{name: name, labels: map[string]int{}, shared: map[string]uint64{}}
	start := strings.Index(ptx, ".entry "+name+"(")
	if start < 0 {
		return nil, fmt.Errorf("no kernel %s", name)
	}
	inBody := false
	for _, line := range strings.Split(ptx[start:], "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "//") || strings.HasPrefix(line, ".entry") || strings.HasPrefix(line, ".maxntid") ||
			line == ")" || strings.HasPrefix(line, ".reg"):
			continue
		case strings.HasPrefix(line, ".param"):
			f := strings.Fields(strings.TrimSuffix(line, ","))
			k.params = append(k.params, f[2])
			continue
		case line == "{":
			inBody = true
			continue
		case line == "}":
			return k, nil
		case strings.HasPrefix(line, ".shared"):
			f := strings.Fields(strings.TrimSuffix(line, ";"))
			decl := f[len(f)-1]
			n, per := 1, 1 // elements, words an element
			if f[len(f)-2] == ".u64" {
				per = 2
			}
			if i := strings.Index(decl, "["); i >= 0 {
				n, _ = strconv.Atoi(decl[i+1 : len(decl)-1])
				decl = decl[:i]
			}
			k.sharedN += k.sharedN % per // aligned
			k.shared[decl] = uint64(4 * k.sharedN)
			k.sharedN += n * per
			continue
		}
		if !inBody {
			continue
		}
		if strings.HasSuffix(line, ":") {
			k.labels[strings.TrimSuffix(line, ":")] = len(k.insts)
			continue
		}
		line = strings.TrimSuffix(line, ";")
		var in emuInst
		if strings.HasPrefix(line, "@") {
			sp := strings.IndexByte(line, ' ')
			in.pred, line = line[1:sp], line[sp+1:]
			if strings.HasPrefix(in.pred, "!") {
				in.neg, in.pred = true, in.pred[1:]
			}
		}
		sp := strings.IndexByte(line, ' ')
		if sp < 0 {
			in.op = line
		} else {
			in.op = line[:sp]
			in.args = splitArgs(line[sp+1:])
		}
		k.insts = append(k.insts, in)
	}
	return nil, fmt.Errorf("kernel %s does not end", name)
}

// splitArgs splits operands at commas outside braces.
func splitArgs(s string) []string {
	var out []string
	depth, from := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[from:i]))
				from = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[from:]))
}

// emuMem is global memory: buffer b's byte offset o lives at (b+1)<<40 | o.
type emuMem struct{ bufs [][]uint32 }

func (m *emuMem) word(addr uint64) *uint32 {
	b, o := int(addr>>40)-1, addr&(1<<40-1)
	if b < 0 || b >= len(m.bufs) || o%4 != 0 || o/4 >= uint64(len(m.bufs[b])) {
		panic(fmt.Sprintf("emu: global access at %#x out of bounds", addr))
	}
	return &m.bufs[b][o/4]
}

func (m *emuMem) load(addr uint64, size int) uint64 {
	v := uint64(*m.word(addr))
	if size == 8 {
		v |= uint64(*m.word(addr + 4)) << 32
	}
	return v
}

func (m *emuMem) store(addr uint64, size int, v uint64) {
	*m.word(addr) = uint32(v)
	if size == 8 {
		*m.word(addr + 4) = uint32(v >> 32)
	}
}

type emuThread struct {
	regs    map[string]uint64
	pc      int
	tid     int
	done    bool
	waiting bool // at a barrier or warp collective (insts[pc])
}

type emuBlock struct {
	k      *emuKernel
	mem    *emuMem
	params map[string]uint64
	shared []uint32
	ctaid  int
	th     []*emuThread
}

// run launches the kernel on grid blocks of threads.
func (k *emuKernel) run(mem *emuMem, grid, threads int, args []uint64) error {
	params := map[string]uint64{}
	for i, name := range k.params {
		params[name] = args[i]
	}
	for b := range grid {
		blk := &emuBlock{k: k, mem: mem, params: params, shared: make([]uint32, k.sharedN), ctaid: b}
		for t := range threads {
			blk.th = append(blk.th, &emuThread{regs: map[string]uint64{}, tid: t})
		}
		if err := blk.run(); err != nil {
			return fmt.Errorf("block %d: %w", b, err)
		}
	}
	return nil
}

func (b *emuBlock) run() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	for steps := 0; ; steps++ {
		if steps > 1<<24 {
			return fmt.Errorf("no progress")
		}
		for _, t := range b.th {
			for !t.done && !t.waiting {
				b.step(t)
			}
		}
		progressed := false
		// Warp collectives whose 32 lanes all wait at one.
		for w := 0; w < len(b.th); w += 32 {
			lanes := b.th[w:min(w+32, len(b.th))]
			ready := true
			for _, t := range lanes {
				ready = ready && t.waiting && !strings.HasPrefix(b.k.insts[t.pc].op, "bar.sync") &&
					!strings.HasPrefix(b.k.insts[t.pc].op, "bar.red") && t.pc == lanes[0].pc
			}
			if ready {
				b.warpOp(lanes)
				progressed = true
			}
		}
		if progressed {
			continue
		}
		done, atBar := 0, 0
		for _, t := range b.th {
			if t.done {
				done++
			} else if t.waiting && strings.HasPrefix(b.k.insts[t.pc].op, "bar.") && b.k.insts[t.pc].op != "bar.warp.sync" {
				atBar++
			}
		}
		switch {
		case done == len(b.th):
			return nil
		case atBar == len(b.th):
			b.barrier()
		default:
			return fmt.Errorf("deadlock: %d threads done, %d at a barrier, of %d (thread 0 at %d %v)",
				done, atBar, len(b.th), b.th[0].pc, b.k.insts[min(b.th[0].pc, len(b.k.insts)-1)])
		}
	}
}

func (b *emuBlock) barrier() {
	in := b.k.insts[b.th[0].pc]
	var or uint64
	for _, t := range b.th {
		if t.pc != b.th[0].pc {
			panic(fmt.Sprintf("threads at different barriers: %d and %d", t.pc, b.th[0].pc))
		}
		if in.op == "bar.red.or.pred" {
			or |= b.val(t, in.args[2])
		}
	}
	for _, t := range b.th {
		if in.op == "bar.red.or.pred" {
			t.regs[in.args[0]] = b2u64(or != 0)
		}
		t.waiting = false
		t.pc++
	}
}

func b2u64(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

func (b *emuBlock) warpOp(lanes []*emuThread) {
	in := b.k.insts[lanes[0].pc]
	vals := make([]uint64, len(lanes))
	for i, t := range lanes {
		if in.op != "bar.warp.sync" {
			vals[i] = b.val(t, in.args[1])
		}
	}
	for i, t := range lanes {
		switch in.op {
		case "bar.warp.sync":
		case "vote.sync.ballot.b32":
			var m uint64
			for j := range lanes {
				if vals[j] != 0 {
					m |= 1 << j
				}
			}
			t.regs[in.args[0]] = m
		case "shfl.sync.bfly.b32":
			t.regs[in.args[0]] = vals[i^int(b.val(t, in.args[2]))]
		case "shfl.sync.up.b32":
			d := strings.Split(in.args[0], "|")
			src := i - int(b.val(t, in.args[2]))
			if src >= 0 {
				t.regs[d[0]], t.regs[d[1]] = vals[src], 1
			} else {
				t.regs[d[0]], t.regs[d[1]] = vals[i], 0
			}
		default:
			panic("unknown collective " + in.op)
		}
		t.waiting = false
		t.pc++
	}
}

// val reads an operand: a register, special register, immediate or symbol.
func (b *emuBlock) val(t *emuThread, s string) uint64 {
	switch {
	case s == "%tid.x":
		return uint64(t.tid)
	case s == "%ctaid.x":
		return uint64(b.ctaid)
	case strings.HasPrefix(s, "%"):
		return t.regs[s]
	}
	if off, ok := b.k.shared[s]; ok {
		return off
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		u, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			panic("bad operand " + s)
		}
		return u
	}
	return uint64(v)
}

// addr reads a memory operand [reg], [sym] or [sym+imm].
func (b *emuBlock) addr(t *emuThread, s string) uint64 {
	s = strings.Trim(s, "[]")
	if strings.HasPrefix(s, "%") {
		return t.regs[s]
	}
	if sym, off, ok := strings.Cut(s, "+"); ok {
		n, _ := strconv.Atoi(off)
		return b.k.shared[sym] + uint64(n)
	}
	if v, ok := b.params[s]; ok {
		return v
	}
	return b.k.shared[s]
}

func (b *emuBlock) sharedWord(a uint64) *uint32 {
	if a%4 != 0 || a/4 >= uint64(len(b.shared)) {
		panic(fmt.Sprintf("emu: shared access at %d out of bounds", a))
	}
	return &b.shared[a/4]
}

func ef(v uint64) float32 { return math.Float32frombits(uint32(v)) }
func eu(f float32) uint64 { return uint64(math.Float32bits(f)) }

// step executes one instruction of t (or marks it waiting at a collective).
func (b *emuBlock) step(t *emuThread) {
	if t.pc >= len(b.k.insts) {
		panic("ran off the kernel")
	}
	in := b.k.insts[t.pc]
	if in.pred != "" && (t.regs[in.pred] != 0) == in.neg {
		t.pc++
		return
	}
	op, a := in.op, in.args
	if strings.HasPrefix(op, "bar.") || strings.HasPrefix(op, "shfl.") || strings.HasPrefix(op, "vote.") {
		t.waiting = true
		return
	}
	v := func(k int) uint64 { return b.val(t, a[k]) }
	s32 := func(k int) int32 { return int32(uint32(v(k))) }
	set := func(x uint64) { t.regs[a[0]] = x }
	set32 := func(x uint32) { t.regs[a[0]] = uint64(x) }
	t.pc++
	switch op {
	case "bra":
		t.pc = b.k.labels[a[0]]
	case "ret":
		t.done = true
	case "mov.u32", "mov.b32":
		set32(uint32(v(1)))
	case "mov.u64":
		set(v(1))
	case "mov.b64":
		if !strings.HasPrefix(a[1], "{") {
			set(v(1))
			break
		}
		parts := splitArgs(strings.Trim(a[1], "{}"))
		set(uint64(uint32(b.val(t, parts[0]))) | uint64(uint32(b.val(t, parts[1])))<<32)
	case "mul.lo.s64":
		set(v(1) * v(2))
	case "shr.u64":
		set(v(1) >> min(v(2), 64))
	case "xor.b64":
		set(v(1) ^ v(2))
	case "or.b64":
		set(v(1) | v(2))
	case "mul.hi.u32":
		set32(uint32(uint64(uint32(v(1))) * uint64(uint32(v(2))) >> 32))
	case "cvt.rn.f32.u32":
		set(eu(float32(uint32(v(1)))))
	case "ld.param.u64", "ld.param.u32":
		set(b.params[strings.Trim(a[1], "[]")])
	case "cvta.to.global.u64":
		set(v(1))
	case "cvt.u64.u32":
		set(uint64(uint32(v(1))))
	case "cvt.u32.u64":
		set32(uint32(v(1)))
	case "mul.wide.u32":
		set(uint64(uint32(v(1))) * uint64(uint32(v(2))))
	case "mad.wide.u32":
		set(uint64(uint32(v(1)))*uint64(uint32(v(2))) + v(3))
	case "mad.lo.s64":
		set(v(1)*v(2) + v(3))
	case "add.s64":
		set(v(1) + v(2))
	case "shl.b64":
		set(v(1) << v(2))
	case "mad.lo.s32":
		set32(uint32(v(1))*uint32(v(2)) + uint32(v(3)))
	case "add.s32":
		set32(uint32(v(1)) + uint32(v(2)))
	case "sub.s32":
		set32(uint32(v(1)) - uint32(v(2)))
	case "mul.lo.s32":
		set32(uint32(v(1)) * uint32(v(2)))
	case "div.s32":
		if s32(2) == 0 || (s32(2) == -1 && s32(1) == math.MinInt32) {
			set32(0xdeadbeef) // undefined in PTX; the generator selects another value
		} else {
			set32(uint32(s32(1) / s32(2)))
		}
	case "rem.s32":
		set32(uint32(s32(1) % s32(2)))
	case "and.b32":
		set32(uint32(v(1)) & uint32(v(2)))
	case "or.b32":
		set32(uint32(v(1)) | uint32(v(2)))
	case "xor.b32":
		set32(uint32(v(1)) ^ uint32(v(2)))
	case "not.b32":
		set32(^uint32(v(1)))
	case "neg.s32":
		set32(-uint32(v(1)))
	case "shl.b32":
		set32(uint32(v(1)) << min(uint32(v(2)), 32))
	case "shr.u32":
		set32(uint32(v(1)) >> min(uint32(v(2)), 32))
	case "shr.s32":
		set32(uint32(s32(1) >> min(uint32(v(2)), 31)))
	case "min.s32":
		set32(uint32(min(s32(1), s32(2))))
	case "max.s32":
		set32(uint32(max(s32(1), s32(2))))
	case "popc.b32":
		set32(uint32(bits.OnesCount32(uint32(v(1)))))
	case "and.pred":
		set(v(1) & v(2))
	case "or.pred":
		set(v(1) | v(2))
	case "selp.u32", "selp.b32":
		if v(3) != 0 {
			set32(uint32(v(1)))
		} else {
			set32(uint32(v(2)))
		}
	case "add.rn.f32":
		set(eu(ef(v(1)) + ef(v(2))))
	case "sub.rn.f32":
		set(eu(ef(v(1)) - ef(v(2))))
	case "mul.rn.f32":
		set(eu(ef(v(1)) * ef(v(2))))
	case "div.rn.f32":
		set(eu(ef(v(1)) / ef(v(2))))
	case "sqrt.rn.f32":
		set(eu(float32(math.Sqrt(float64(ef(v(1)))))))
	case "cvt.rn.f32.s32":
		set(eu(float32(s32(1))))
	case "cvt.rzi.s32.f32":
		set32(uint32(bytecode.F2I(ef(v(1)))))
	case "ld.global.u32", "ld.global.u64", "ld.volatile.global.u64":
		set(b.mem.load(b.addr(t, a[1]), emuSize(op)))
	case "st.global.u32", "st.global.u64":
		b.mem.store(b.addr(t, a[0]), emuSize(op), v(1))
	case "red.global.add.u32":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 4, uint64(uint32(b.mem.load(ad, 4))+uint32(v(1))))
	case "red.global.add.f32":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 4, eu(ef(b.mem.load(ad, 4))+ef(v(1))))
	case "red.global.add.u64":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 8, b.mem.load(ad, 8)+v(1))
	case "red.global.max.u64":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 8, max(b.mem.load(ad, 8), v(1)))
	case "red.global.min.u64":
		ad := b.addr(t, a[0])
		b.mem.store(ad, 8, min(b.mem.load(ad, 8), v(1)))
	case "ld.shared.u32":
		set32(*b.sharedWord(b.addr(t, a[1])))
	case "st.shared.u32":
		*b.sharedWord(b.addr(t, a[0])) = uint32(v(1))
	case "ld.shared.u64":
		ad := b.addr(t, a[1])
		if ad%8 != 0 {
			panic(fmt.Sprintf("emu: misaligned shared u64 at %d", ad))
		}
		set(uint64(*b.sharedWord(ad)) | uint64(*b.sharedWord(ad + 4))<<32)
	case "st.shared.u64":
		ad := b.addr(t, a[0])
		if ad%8 != 0 {
			panic(fmt.Sprintf("emu: misaligned shared u64 at %d", ad))
		}
		*b.sharedWord(ad), *b.sharedWord(ad + 4) = uint32(v(1)), uint32(v(1)>>32)
	case "atom.global.max.u64": // d, [a], b: d = old
		ad := b.addr(t, a[1])
		old := b.mem.load(ad, 8)
		b.mem.store(ad, 8, max(old, v(2)))
		set(old)
	case "atom.global.cas.b64": // d, [a], cmp, new
		ad := b.addr(t, a[1])
		old := b.mem.load(ad, 8)
		if old == v(2) {
			b.mem.store(ad, 8, v(3))
		}
		set(old)
	case "red.shared.add.u32":
		*b.sharedWord(b.addr(t, a[0])) += uint32(v(1))
	default:
		if strings.HasPrefix(op, "setp.") {
			set(b2u64(emuCompare(op, v(1), v(2))))
			return
		}
		panic("emu: unknown instruction " + op)
	}
}

func emuCompare(op string, x, y uint64) bool {
	f := strings.Split(op, ".")
	cmp, typ := f[1], f[2]
	var c int // -1, 0, 1; 2: unordered
	switch typ {
	case "u32":
		c = cmp3(uint32(x) < uint32(y), uint32(x) == uint32(y))
	case "s32":
		c = cmp3(int32(uint32(x)) < int32(uint32(y)), uint32(x) == uint32(y))
	case "u64":
		c = cmp3(x < y, x == y)
	case "s64":
		c = cmp3(int64(x) < int64(y), x == y)
	case "f32":
		a, b := ef(x), ef(y)
		if a != a || b != b {
			c = 2
		} else {
			c = cmp3(a < b, a == b)
		}
	default:
		panic("emu: compare type " + typ)
	}
	switch cmp {
	case "eq":
		return c == 0
	case "ne":
		return c == -1 || c == 1
	case "neu":
		return c != 0
	case "lt":
		return c == -1
	case "le":
		return c == -1 || c == 0
	case "gt":
		return c == 1
	case "ge":
		return c == 1 || c == 0
	}
	panic("emu: compare " + cmp)
}

func cmp3(lt, eq bool) int {
	switch {
	case lt:
		return -1
	case eq:
		return 0
	}
	return 1
}

func emuSize(op string) int {
	if strings.HasSuffix(op, "64") {
		return 8
	}
	return 4
}
