package lsys

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// DeriveOptions controls a derivation.
type DeriveOptions struct {
	// Steps is the number of rewriting steps; negative means sys.Steps.
	Steps int
	// Seed keys the stochastic choices (see Deriver).
	Seed uint64
	// MaxModules, when positive, bounds the length of every string: a step
	// whose output would be longer fails with a *LimitError before it
	// allocates anything.
	MaxModules int64
	// Workers is the number of goroutines; 0 means GOMAXPROCS. The derived
	// string does not depend on it.
	Workers int
	// Progress, when set, is called after each step with the steps done and
	// the steps to do, from the goroutine that called Derive.
	Progress func(done, total int64)
	// OnStep, when set, is called with w_0 (the axiom, after cut) and with
	// every w_k as step k completes, from the goroutine that called Derive;
	// s is valid only during the call. An error stops the derivation and is
	// returned. (It serves writers of every step's string: the CUDA backend
	// downloads each string for it.)
	OnStep func(k int, s *String) error
	// Env fills the query modules (query.go) of the axiom and of every
	// step's string; a system with query modules needs one.
	Env Environment
}

// StepStats is the size of the string after a step; Step 0 is the axiom.
// The JSON keys are snake_case, as every other key of procgen's reports.
type StepStats struct {
	Step    int64 `json:"step"`
	Modules int64 `json:"modules"`
	Params  int64 `json:"params"`
}

// Derivation is a derived string and how it grew.
type Derivation struct {
	String *String
	Steps  []StepStats
	// Total is |w_0| + |w_1| + ... + |w_n|, the count the paper's Table 2
	// reports as "modules" (every module written during the derivation).
	Total int64
}

// Deriver is a derivation backend. Every backend derives exactly the same
// strings, parameters included, for the same system, options and seed:
//
// Step k (k = 1..n) rewrites every module of w_{k-1} in parallel into w_k.
//
// Production selection. For a module with symbol s, the productions whose
// predecessor is s are considered in source order. A production matches when
// its left and right contexts match (context.go: branches and ignored
// symbols are skipped as in cpfg) and its condition, evaluated over the
// bound parameters, is non-zero (a missing condition is true). Parameters
// bind to slots in the order left context (source order), strict
// predecessor, right context.
//
//   - No production matches: the module is copied unchanged, parameters
//     included.
//   - The first matching production is not stochastic: it applies, and the
//     productions after it are not evaluated.
//   - The first matching production is stochastic: every stochastic
//     production from it on that matches (conditions included; the
//     non-stochastic ones after it are not candidates) is a candidate, with
//     its weight Prob. With total the sum of the candidates' weights and
//     cum_j the running sum up to candidate j, both added in float64 in
//     source order, the draw is u = rng.Float64(rng.Key(seed, k-1, i)) (the
//     0-based step and the module's index i in w_{k-1}), and the first
//     candidate with cum_j/total > u applies. The last candidate always
//     qualifies (cum/total is exactly 1 there); if total is 0 the module is
//     copied.
//
// The draw depends only on the seed, the step and the position, never on how
// the string is split among threads.
//
// Successor parameters are evaluated by Expr.Eval's rules (deterministic
// math, errors for division by zero, domain errors and non-finite results);
// an error stops the derivation, naming the step, the module and the
// production. After the rewrite, cut applies: every '%' is deleted with the
// rest of its branch, up to (not including) the ']' that closes the branch,
// or to the end of the string. Cut applies to the axiom too.
type Deriver interface {
	Derive(ctx context.Context, sys *System, o DeriveOptions) (*Derivation, error)
}

// LimitError is a step that would exceed DeriveOptions.MaxModules.
type LimitError struct {
	Step         int // 1-based: the step that produces w_Step
	Modules, Max int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("lsys: step %d would produce %s modules, over --max-modules %s",
		e.Step, commas(e.Modules), commas(e.Max))
}

// commas writes n with thousands separators.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}

// CPU derives on the CPU, in parallel over chunks of the string: each step
// counts the output of every chunk, scans the counts into offsets and
// rewrites every chunk into its place (the paper's count, scan, rewrite).
type CPU struct{}

var _ Deriver = CPU{}

// Derive runs the derivation as Deriver describes it. Steps are 1-based in
// messages and StepStats, 0-based in the stochastic key.
func (CPU) Derive(ctx context.Context, sys *System, o DeriveOptions) (*Derivation, error) {
	if sys == nil {
		return nil, errors.New("lsys: no system")
	}
	r, err := compileRules(sys, sys.Prods, "production")
	if err != nil {
		return nil, err
	}
	cur, err := axiom(sys)
	if err != nil {
		return nil, err
	}
	cutBranches(cur, &r.arity)
	dec, err := newDecomposer(sys, o)
	if err != nil {
		return nil, err
	}
	if cur, err = dec.apply(ctx, cur, 0); err != nil {
		return nil, err
	}
	if err := query(ctx, sys, &o, cur, 0); err != nil {
		return nil, err
	}
	steps := o.Steps
	if steps < 0 {
		steps = sys.Steps
	}
	d := &Derivation{Steps: make([]StepStats, 0, steps+1)}
	record := func(k int, s *String) {
		d.Steps = append(d.Steps, StepStats{Step: int64(k), Modules: int64(s.Len()), Params: int64(len(s.Params))})
		d.Total += int64(s.Len())
	}
	record(0, cur)
	if o.MaxModules > 0 && int64(cur.Len()) > o.MaxModules {
		return nil, &LimitError{Step: 0, Modules: int64(cur.Len()), Max: o.MaxModules}
	}
	if o.OnStep != nil {
		if err := o.OnStep(0, cur); err != nil {
			return nil, err
		}
	}
	st := newCPUState(r, o.Workers)
	var spare *String
	for k := 0; k < steps; k++ {
		next, err := st.rewrite(ctx, cur, spare, k, o.Seed, fmt.Sprintf("step %d", k+1), o.MaxModules)
		if err != nil {
			return nil, err
		}
		if r.hasCut {
			cutBranches(next, &r.arity)
		}
		if next, err = dec.apply(ctx, next, k+1); err != nil {
			return nil, err
		}
		if err := query(ctx, sys, &o, next, k+1); err != nil {
			return nil, err
		}
		spare, cur = cur, next
		record(k+1, cur)
		if o.OnStep != nil {
			if err := o.OnStep(k+1, cur); err != nil {
				return nil, err
			}
		}
		if o.Progress != nil {
			o.Progress(int64(k+1), int64(steps))
		}
	}
	d.String = cur
	return d, nil
}

// Axiom is sys's axiom as a module string, with cut applied. Axiom
// arguments are constants; one that fails to evaluate, or is missing, is
// stored as NaN (Derive reports these as errors instead).
func Axiom(sys *System) *String {
	s := &String{}
	for _, m := range sys.Axiom {
		s.Syms = append(s.Syms, m.Sym)
		for j := 0; j < int(sys.Arity[m.Sym]); j++ {
			v := math.NaN()
			if j < len(m.Args) && m.Args[j].Check(0) == nil {
				if x, err := m.Args[j].Eval(nil); err == nil {
					v = x
				}
			}
			s.Params = append(s.Params, v)
		}
	}
	var arity [256]int32
	for i, a := range sys.Arity {
		arity[i] = int32(a)
	}
	cutBranches(s, &arity)
	return s
}

// axiom is Axiom with errors.
func axiom(sys *System) (*String, error) {
	s := &String{}
	for i, m := range sys.Axiom {
		if len(m.Args) != int(sys.Arity[m.Sym]) {
			return nil, fmt.Errorf("lsys: axiom module %d (%q) has %d parameters, the symbol has %d",
				i, rune(m.Sym), len(m.Args), sys.Arity[m.Sym])
		}
		s.Syms = append(s.Syms, m.Sym)
		for j := range m.Args {
			e := &m.Args[j]
			err := e.Check(0)
			var v float64
			if err == nil {
				v, err = e.Eval(nil)
			}
			if err != nil {
				return nil, fmt.Errorf("lsys: axiom module %d (%q): %w", i, rune(m.Sym), err)
			}
			s.Params = append(s.Params, v)
		}
	}
	return s, nil
}

// ApplyHomomorphism rewrites s once with sys.Homo (interpretation rules: no
// recursion), with the same matching, selection and cut as a derivation
// step. Stochastic homomorphism productions draw with seed 0 and step 0.
// With no homomorphism productions it returns s itself.
func ApplyHomomorphism(ctx context.Context, sys *System, s *String, workers int) (*String, error) {
	if len(sys.Homo) == 0 {
		return s, nil
	}
	r, err := compileRules(sys, sys.Homo, "homomorphism")
	if err != nil {
		return nil, err
	}
	out, err := newCPUState(r, workers).rewrite(ctx, s, nil, 0, 0, "homomorphism", 0)
	if err != nil {
		return nil, err
	}
	if r.hasCut {
		cutBranches(out, &r.arity)
	}
	return out, nil
}

// cutBranches deletes, in place, every '%' with the rest of its branch. It
// is serial, but costs nothing beyond a memchr for strings without '%'.
func cutBranches(s *String, arity *[256]int32) {
	syms, params := s.Syms, s.Params
	n := len(syms)
	first := bytes.IndexByte(syms, SymCut)
	if first < 0 {
		return
	}
	paramsIn := func(lo, hi int) int {
		p := 0
		for _, c := range syms[lo:hi] {
			p += int(arity[c])
		}
		return p
	}
	w, wp := first, paramsIn(0, first) // write positions
	from, pfrom := first, wp           // read positions
	for from < n {
		// syms[from] is '%': skip to the ']' closing its branch.
		end, depth := from+1, 0
	scan:
		for ; end < n; end++ {
			switch syms[end] {
			case SymPush:
				depth++
			case SymPop:
				if depth == 0 {
					break scan
				}
				depth--
			}
		}
		pfrom += paramsIn(from, end)
		// Keep from the ']' up to the next '%'.
		next := n
		if k := bytes.IndexByte(syms[end:], SymCut); k >= 0 {
			next = end + k
		}
		pk := paramsIn(end, next)
		w += copy(syms[w:], syms[end:next])
		wp += copy(params[wp:], params[pfrom:pfrom+pk])
		from, pfrom = next, pfrom+pk
	}
	s.Syms, s.Params = syms[:w], params[:wp]
}
