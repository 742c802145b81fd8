package bytecode

import "github.com/procgen-dev/procgen/internal/rng"

// Random numbers inside rules: rand() and uniform(LO, HI)
// (docs/rules-language.md, "Random numbers"). A draw is a pure function of
// where it is made, never of the order in which threads draw:
//
//	bits = rng.Key(seed, step, rule, state, uint32(i), site<<32 | k)
//
// with the run's --seed, the step (1-based), the rule's number, the state's
// number in the whole run (Options.FirstState + its number here), the rule's
// index i, the call site (the rand or uniform call's number within its rule:
// the lets compiled into the precondition and again into the consequence
// keep their numbers, so both see the same values) and k, the number of
// repeat iterations the evaluation has finished (0 outside repeats). Between
// two executions of one site a repeat's back edge runs, so no two draws of
// an evaluation share (site, k). Being pure, a draw may be evaluated
// speculatively (if-conversion) without changing any other.
//
// The CUDA twins are rules_draw in cuda/rules.cu and rules/ptx (rand.go).

// Opcodes of the draws, after the arithmetic ones (whose ranges the batch
// planner reads as ALU operations: a draw is not one, it reads the index r0
// and the evaluation's context).
const (
	OpRAND   = OpCount + iota // r[a] = the draw's top 32 bits (site c; k = r[b], 0 when b == noReg)
	OpRANDF                   // r[a] = the draw as a float32 in [0, 1) (rng.Float32)
	OpURANGE                  // r[a] = r[b] scaled to [0, r[c]): hi32(r[b] * r[c]), r[c] == 0 meaning 2^32
	OpTotal                   // opcodes of the bytecode
)

// MaxDrawSites is the number of rand and uniform calls a rule may hold.
const MaxDrawSites = 256

// ruleKey is the key of rule r's draws in step t.
func RuleKey(seed uint64, t, r int) uint64 { return rng.Key(seed, uint64(t), uint64(r)) }

// stateKey narrows a rule key to one state (its number in the whole run).
func StateKey(rk uint64, state int) uint64 { return rng.Hash64(rk, uint64(state)) }

// drawBits is the draw at index i, call site site, k repeat iterations in.
func DrawBits(sk uint64, i int32, site int, k uint32) uint64 {
	return rng.Hash64(rng.Hash64(sk, uint64(uint32(i))), uint64(site)<<32|uint64(k))
}

// drawValue is what OpRAND or OpRANDF leaves in its register.
func DrawValue(op int, bits uint64) uint32 {
	if op == OpRANDF {
		return U32(rng.Float32(bits))
	}
	return uint32(bits >> 32)
}

// urange maps a uniform 32-bit u to [0, n) (n == 0: the full 2^32) by the
// high half of the product, a bias of at most n / 2^32.
func URange(u, n uint32) uint32 {
	if n == 0 {
		return u
	}
	return uint32(uint64(u) * uint64(n) >> 32)
}

// drawContext is what an evaluator's draws are keyed by besides the
// instruction: the run's seed, the state's number in the run, the step and
// (set per rule by applyRule) the state key.
type drawContext struct {
	seed  uint64
	state int
	step  int
	key   uint64 // stateKey(ruleKey(seed, step, rule), state)
}

func (d *drawContext) forRule(ri int) {
	d.key = StateKey(RuleKey(d.seed, d.step, ri), d.state)
}
