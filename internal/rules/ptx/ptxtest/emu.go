package ptxtest

import (
	"fmt"
	"strconv"
	"strings"
)

// Memory is global memory: buffer b's byte offset o lives at
// BufferAddr(b) + o. An access outside a buffer fails the run.
type Memory struct{ Bufs [][]uint32 }

// BufferAddr is the address of buffer b of a Memory, what a kernel
// parameter pointing at it holds.
func BufferAddr(b int) uint64 { return uint64(b+1) << 40 }

func (m *Memory) word(addr uint64) *uint32 {
	b, o := int(addr>>40)-1, addr&(1<<40-1)
	if b < 0 || b >= len(m.Bufs) || o%4 != 0 || o/4 >= uint64(len(m.Bufs[b])) {
		panic(fmt.Sprintf("emu: global access at %#x out of bounds", addr))
	}
	return &m.Bufs[b][o/4]
}

func (m *Memory) load(addr uint64, size int) uint64 {
	v := uint64(*m.word(addr))
	if size == 8 {
		v |= uint64(*m.word(addr + 4)) << 32
	}
	return v
}

func (m *Memory) store(addr uint64, size int, v uint64) {
	*m.word(addr) = uint32(v)
	if size == 8 {
		*m.word(addr + 4) = uint32(v >> 32)
	}
}

type thread struct {
	regs    map[string]uint64
	pc      int
	tid     int
	done    bool
	waiting bool // at a barrier or warp collective (insts[pc])
}

type block struct {
	k      *Kernel
	mem    *Memory
	params map[string]uint64
	shared []uint32
	ctaid  int
	// ctaidY and nctaidX: a two-dimensional grid's (RunGrid).
	ctaidY, nctaidX int
	th              []*thread
}

// Run launches the kernel on grid blocks of threads in mem; args are the
// kernel's parameters in order (pointers as BufferAddr). A fault, a
// deadlock or an instruction the emulator does not know is an error.
func (k *Kernel) Run(mem *Memory, grid, threads int, args []uint64) error {
	return k.RunGrid(mem, grid, 1, threads, args)
}

// RunGrid is Run on a grid of gx by gy blocks (%ctaid.y, %nctaid.x), the
// blocks one after another, x fastest.
func (k *Kernel) RunGrid(mem *Memory, gx, gy, threads int, args []uint64) error {
	params := map[string]uint64{}
	for i, name := range k.params {
		params[name] = args[i]
	}
	for y := range gy {
		for b := range gx {
			blk := &block{k: k, mem: mem, params: params, shared: make([]uint32, k.sharedN), ctaid: b, ctaidY: y, nctaidX: gx}
			for t := range threads {
				blk.th = append(blk.th, &thread{regs: map[string]uint64{}, tid: t})
			}
			if err := blk.run(); err != nil {
				return fmt.Errorf("block (%d, %d): %w", b, y, err)
			}
		}
	}
	return nil
}

func (b *block) run() (err error) {
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

func (b *block) barrier() {
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

func (b *block) warpOp(lanes []*thread) {
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
func (b *block) val(t *thread, s string) uint64 {
	switch {
	case s == "%tid.x":
		return uint64(t.tid)
	case s == "%ctaid.x":
		return uint64(b.ctaid)
	case s == "%ctaid.y":
		return uint64(b.ctaidY)
	case s == "%nctaid.x":
		return uint64(b.nctaidX)
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
func (b *block) addr(t *thread, s string) uint64 {
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

func (b *block) sharedWord(a uint64) *uint32 {
	if a%4 != 0 || a/4 >= uint64(len(b.shared)) {
		panic(fmt.Sprintf("emu: shared access at %d out of bounds", a))
	}
	return &b.shared[a/4]
}
