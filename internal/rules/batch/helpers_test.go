package batch

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/progtest"
)

// compileConfig compiles configs/rules/NAME with defines (progtest).
func compileConfig(t testing.TB, name string, defines map[string]string) *bytecode.Program {
	t.Helper()
	return progtest.CompileConfig(t, name, defines)
}

func compileSrc(t testing.TB, src string) *bytecode.Program {
	t.Helper()
	return progtest.CompileSrc(t, src)
}

// genState fills a state's generated fields (~ uniform(LO, HI)) from r;
// the engine's own generator is rules.Generate, any draw in range serves
// here.
func genState(p *bytecode.Program, r *rand.Rand) []uint32 {
	w := make([]uint32, p.Words)
	for _, f := range p.Fields {
		if !f.HasGen {
			continue
		}
		for k := range f.Size {
			if f.Type == bytecode.Int {
				w[f.Off+k] = uint32(int32(int64(f.GenLo) + r.Int64N(int64(f.GenHi)-int64(f.GenLo)+1)))
			} else {
				w[f.Off+k] = math.Float32bits(float32(f.GenLo + (f.GenHi-f.GenLo)*r.Float64()))
			}
		}
	}
	return w
}

// evaluator is what the engine drives rule by rule: bytecode.VM, Eval
// and Split all have it.
type evaluator interface {
	SetState(w []uint32)
	DrawAt(seed uint64, state, step int)
	ApplyRule(ri int) (int64, int, *bytecode.Fault)
}

// agrees runs p for steps steps on states states generated from seed
// through bytecode.VM and through the batch evaluator (parts 0) or a
// Split of parts parts splitting every range, comparing after every rule
// the number fired, the fault and every word. It reports "fault" when
// both stop at the same fault.
func agrees(parts int, p *bytecode.Program, states int, seed uint64, steps int) (bool, string) {
	if !Fits(p) {
		return false, "does not fit the batch evaluator"
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for s := range states {
		ref := genState(p, r)
		got := append([]uint32(nil), ref...)
		var want, have evaluator = bytecode.NewVM(p, nil), NewEval(p, nil)
		if parts > 0 {
			have = NewSplit(p, nil, parts, 1)
		}
		want.SetState(ref)
		have.SetState(got)
		for t := 1; t <= steps; t++ {
			if p.Draws {
				want.DrawAt(seed, s, t)
				have.DrawAt(seed, s, t)
			}
			for ri := range p.Rules {
				wn, wi, wf := want.ApplyRule(ri)
				gn, gi, gf := have.ApplyRule(ri)
				if (wf == nil) != (gf == nil) || wf != nil && (*wf != *gf || wi != gi) {
					return false, fmt.Sprintf("state %d, step %d, rule %d: fault %v at %d, want %v at %d", s, t, ri, gf, gi, wf, wi)
				}
				if wf != nil {
					return true, "fault"
				}
				if wn != gn {
					return false, fmt.Sprintf("state %d, step %d, rule %d: %d fired, want %d", s, t, ri, gn, wn)
				}
				if k := differ(p, ref, got); k >= 0 {
					return false, fmt.Sprintf("state %d, step %d, rule %d, word %d: %#x, want %#x", s, t, ri, k, got[k], ref[k])
				}
			}
		}
	}
	return true, ""
}

// differ returns the first word where got and want differ (NaNs of float
// fields alike), or -1.
func differ(p *bytecode.Program, want, got []uint32) int {
	for _, f := range p.Fields {
		for k := f.Off; k < f.Off+f.Size; k++ {
			if want[k] == got[k] {
				continue
			}
			if f.Type == bytecode.Float && math.IsNaN(float64(math.Float32frombits(want[k]))) && math.IsNaN(float64(math.Float32frombits(got[k]))) {
				continue
			}
			return k
		}
	}
	return -1
}
