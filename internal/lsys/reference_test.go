package lsys

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// refDerive is the semantics of Derive written as plainly as possible:
// serial, no chunks, no bracket table, no fast paths. The parallel backend
// must produce exactly its strings.
func refDerive(sys *System, steps int, seed uint64) (*String, error) {
	cur, err := axiom(sys)
	if err != nil {
		return nil, err
	}
	refCut(cur, sys)
	for k := 0; k < steps; k++ {
		next := &String{}
		poff := make([]int, cur.Len()+1)
		for i, s := range cur.Syms {
			poff[i+1] = poff[i] + int(sys.Arity[s])
		}
		params := func(j int) []float64 { return cur.Params[poff[j]:poff[j+1]] }
		for i, s := range cur.Syms {
			var matched []int
			var slots [][]float64
			for pi := range sys.Prods {
				p := &sys.Prods[pi]
				if p.Pred != s {
					continue
				}
				lp, ok1 := refLeft(cur.Syms, i, p.Left, &sys.Ignore)
				rp, ok2 := refRight(cur.Syms, i, p.Right, &sys.Ignore)
				if !ok1 || !ok2 {
					continue
				}
				var sl []float64
				for _, j := range lp {
					sl = append(sl, params(j)...)
				}
				sl = append(sl, params(i)...)
				for _, j := range rp {
					sl = append(sl, params(j)...)
				}
				if p.Cond != nil {
					v, err := p.Cond.Eval(sl)
					if err != nil {
						return nil, err
					}
					if v == 0 {
						continue
					}
				}
				matched = append(matched, pi)
				slots = append(slots, sl)
			}
			chosen := -1
			if len(matched) > 0 {
				if !sys.Prods[matched[0]].Stochastic {
					chosen = 0
				} else {
					var cands []int
					total := 0.0
					for n, pi := range matched {
						if sys.Prods[pi].Stochastic {
							cands = append(cands, n)
							total += sys.Prods[pi].Prob
						}
					}
					u := rng.Float64(rng.Key(seed, uint64(k), uint64(i)))
					cum := 0.0
					for _, n := range cands {
						cum += sys.Prods[matched[n]].Prob
						if total > 0 && cum/total > u {
							chosen = n
							break
						}
					}
				}
			}
			if chosen < 0 {
				next.Syms = append(next.Syms, s)
				next.Params = append(next.Params, params(i)...)
				continue
			}
			for _, m := range sys.Prods[matched[chosen]].Succ {
				next.Syms = append(next.Syms, m.Sym)
				for a := range m.Args {
					v, err := m.Args[a].Eval(slots[chosen])
					if err != nil {
						return nil, err
					}
					next.Params = append(next.Params, v)
				}
			}
		}
		refCut(next, sys)
		cur = next
	}
	return cur, nil
}

// refLeft and refRight find contexts by walking with a depth counter, with
// branches in the pattern (see ctxMatcher): refFwd matches a pattern range
// forwards, recursing into pattern branches.
func refLeft(syms []Symbol, i int, want []Symbol, ignore *[256]bool) ([]int, bool) {
	pos := make([]int, len(want))
	j := i - 1
	for k := len(want) - 1; k >= 0; {
		if want[k] == ']' {
			for j >= 0 && syms[j] != ']' && ignore[syms[j]] {
				j--
			}
			if j < 0 || syms[j] != ']' {
				return nil, false
			}
			o, ko := refPartner(syms, j, -1), refPartner(want, k, -1)
			pos[k], pos[ko] = j, o
			if !refFwd(syms, o+1, want, ko+1, k, pos, ignore) {
				return nil, false
			}
			j, k = o-1, ko-1
			continue
		}
		if j < 0 {
			return nil, false
		}
		switch s := syms[j]; {
		case s == want[k]:
			pos[k] = j
			k--
			j--
		case s == ']':
			j = refPartner(syms, j, -1) - 1
		case s == '[' || ignore[s]:
			j--
		default:
			return nil, false
		}
	}
	return pos, true
}

func refRight(syms []Symbol, i int, want []Symbol, ignore *[256]bool) ([]int, bool) {
	pos := make([]int, len(want))
	return pos, refFwd(syms, i+1, want, 0, len(want), pos, ignore)
}

func refFwd(syms []Symbol, j int, want []Symbol, lo, hi int, pos []int, ignore *[256]bool) bool {
	for k := lo; k < hi; {
		if want[k] == '[' {
			for j < len(syms) && syms[j] != '[' && ignore[syms[j]] {
				j++
			}
			if j >= len(syms) || syms[j] != '[' {
				return false
			}
			e, ke := refPartner(syms, j, 1), refPartner(want, k, 1)
			pos[k], pos[ke] = j, e
			if !refFwd(syms, j+1, want, k+1, ke, pos, ignore) {
				return false
			}
			j, k = e+1, ke+1
			continue
		}
		if j >= len(syms) {
			return false
		}
		switch s := syms[j]; {
		case s == want[k]:
			pos[k] = j
			k++
			j++
		case s == '[':
			j = refPartner(syms, j, 1) + 1
		case s == ']':
			return false
		case ignore[s]:
			j++
		default:
			return false
		}
	}
	return true
}

// refPartner finds the bracket matching the one at j by counting, walking
// forwards (dir 1, from a '[') or backwards (dir -1, from a ']').
func refPartner(syms []Symbol, j, dir int) int {
	for d := 0; ; j += dir {
		switch syms[j] {
		case '[':
			d += dir
		case ']':
			d -= dir
		}
		if d == 0 {
			return j
		}
	}
}

func refCut(s *String, sys *System) {
	out := &String{}
	p := 0
	for i := 0; i < len(s.Syms); {
		c := s.Syms[i]
		if c != '%' {
			a := int(sys.Arity[c])
			out.Syms = append(out.Syms, c)
			out.Params = append(out.Params, s.Params[p:p+a]...)
			p += a
			i++
			continue
		}
		for d := 0; i < len(s.Syms) && !(d == 0 && s.Syms[i] == ']'); i++ {
			if s.Syms[i] == '[' {
				d++
			} else if s.Syms[i] == ']' {
				d--
			}
			p += int(sys.Arity[s.Syms[i]])
		}
	}
	*s = *out
}

// randomSystem builds a system with everything the backend distinguishes:
// parameters, contexts binding parameters, conditions, stochastic groups,
// ignored symbols, branches and cuts. Parameters stay bounded.
func randomSystem(r *rand.Rand) *System {
	return randomSystemWith(r, []string{"", "", "A", "B", "C", "CA", "BA"})
}

// randomSystemWith is randomSystem with contexts drawn from ctxs.
func randomSystemWith(r *rand.Rand, ctxs []string) *System {
	arity := map[byte]int{'A': 1, 'B': 2, 'C': 0, 'F': 0, '+': 0, '-': 0}
	x := func(i int) ex { return slot(i, fmt.Sprintf("s%d", i)) }
	param := func(n int) ex { // a bounded expression of the slots
		if n == 0 {
			return num(float64(r.IntN(5)))
		}
		s := x(r.IntN(n))
		switch r.IntN(5) {
		case 0:
			return bin(OpAdd, bin(OpMul, s, num(0.5)), num(1))
		case 1:
			return call(FnSin, bin(OpMul, s, num(37)))
		case 2:
			return bin(OpMul, s, num(0.75))
		case 3:
			return call(FnSqrt, bin(OpAdd, bin(OpMul, s, s), num(1)))
		}
		return call(FnMin, s, num(3))
	}
	module := func(n int) []Module {
		switch c := "ABCF+-"[r.IntN(6)]; c {
		case 'A':
			return []Module{mod('A', param(n))}
		case 'B':
			return []Module{mod('B', param(n), param(n))}
		default:
			return mods(string(c))
		}
	}
	succ := func(n int) []Module {
		var m []Module
		for k := 1 + r.IntN(6); k >= 0; k-- {
			switch r.IntN(8) {
			case 0:
				m = append(m, mods("[")...)
				m = append(m, module(n)...)
				if r.IntN(6) == 0 {
					m = append(m, mods("%")...)
				}
				m = append(m, module(n)...)
				m = append(m, mods("]")...)
			default:
				m = append(m, module(n)...)
			}
		}
		return m
	}
	ctx := func() string { return ctxs[r.IntN(len(ctxs))] }
	sys := system(seq(mods("F"), []Module{mod('A', num(1))}, mods("[C"), []Module{mod('B', num(2), num(3))}, mods("]C")), arity)
	for _, pred := range []byte("ABC") {
		for k := 1 + r.IntN(4); k > 0; k-- {
			l, rt := ctx(), ctx()
			n := int(arity[pred])
			for _, s := range []byte(l + rt) {
				n += arity[s]
			}
			p := prod(pred, succ(n)).ctx(l, rt)
			if n > 0 && r.IntN(2) == 0 {
				p.cond(bin(OpLt, x(r.IntN(n)), num(r.Float64()*3)))
			}
			if r.IntN(2) == 0 {
				p.prob(r.Float64())
			}
			sys.Prods = append(sys.Prods, p.Production)
		}
	}
	sys.Prods = append(sys.Prods, prod('F', mods("FC")).prob(1).Production, prod('F', mods("F")).prob(2).Production)
	sys.ignoring([]string{"", "+-", "+-F"}[r.IntN(3)])
	return sys
}

func TestDeriveMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(2024, 5))
	systems := 60
	if testing.Short() {
		systems = 15
	}
	multiChunk := 0
	for n := 0; n < systems; n++ {
		sys := randomSystem(r)
		seed := r.Uint64()
		// As many steps as keep the string below 400K modules (at most 30).
		steps := 30
		_, err := CPU{}.Derive(context.Background(), sys, DeriveOptions{Steps: steps, Seed: seed, MaxModules: 400_000})
		var le *LimitError
		if errors.As(err, &le) {
			steps = le.Step - 1
		}
		want, wantErr := refDerive(sys, steps, seed)
		for _, w := range []int{1, 3, 8} {
			d, err := CPU{}.Derive(context.Background(), sys, DeriveOptions{Steps: steps, Seed: seed, Workers: w})
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("system %d, workers %d: err %v, reference err %v", n, w, err, wantErr)
			}
			if err != nil {
				continue
			}
			if !bytes.Equal(d.String.Syms, want.Syms) || !slices.Equal(d.String.Params, want.Params) {
				t.Fatalf("system %d, %d steps, workers %d: string differs from the reference (%d modules, want %d)",
					n, steps, w, d.String.Len(), want.Len())
			}
			if w == 1 && d.String.Len() > 2*chunkSize {
				multiChunk++
			}
		}
	}
	if multiChunk < systems/6 {
		t.Errorf("only %d systems grew past two chunks", multiChunk)
	}
}
