package lsys

import (
	"math"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Random functions in expressions. A draw depends only on the seed, the
// derivation step, the module's index in the string being rewritten and
// the call site, never on the thread that evaluates it, so the CPU and the
// GPU (cuda/lsys_eval.cuh's lsys_random, the twin of this file) draw the
// same numbers and derive the same string:
//
//	key  = RandKey(rng.Key(seed, step), i)
//	bits = rng.Hash64(rng.Hash64(key, site), c)   c = 0, 1 for the draws of one call
//
// The site is a constant the parser pushes as the call's last operand: the
// byte offset of the call in the source plus one, so two calls in one
// production (or one expression) draw independently, and the same call
// evaluated for the same module at the same step draws the same number.

// RandKey is the random key of module i in a step whose stochastic key is
// stepKey (rng.Key(seed, step)). It is the bits the stochastic production
// choice draws from, hashed once more by every random call.
func RandKey(stepKey uint64, i int) uint64 { return rng.Hash64(stepKey, uint64(i)) }

// randUnit is draw c of call site site under key, uniform in [0, 1).
func randUnit(key uint64, site float64, c uint64) float64 {
	return rng.Float64(rng.Hash64(rng.Hash64(key, uint64(site)), c))
}

// random evaluates a random function over its operands a (and b) and its
// call site.
// Sums and products are written with explicit conversions so that no
// compiler fuses them into an FMA, which the GPU does not do either.
func (e *Expr) random(f Func, a, b, site float64, key uint64) (float64, error) {
	u := randUnit(key, site, 0)
	var v float64
	switch f {
	case FnRan:
		v = a * u
	case FnUniform:
		v = a + float64(float64(b-a)*u)
	case FnNran:
		// Box-Muller over the deterministic Log and CosDeg (mathfn.go),
		// with u1 in (0, 1] so that the logarithm is finite.
		u1 := 1 - u
		u2 := randUnit(key, site, 1)
		r := math.Sqrt(float64(-2 * Log(u1)))
		z := float64(r * CosDeg(float64(360*u2)))
		v = a + float64(b*z)
	default:
		return 0, e.fail(ErrBadCode, "function %d is not random", f)
	}
	if !isFinite(v) {
		if f == FnRan {
			return 0, e.fail(ErrNonFinite, "%s(%v)", f, a)
		}
		return 0, e.fail(ErrNonFinite, "%s(%v, %v)", f, a, b)
	}
	return v, nil
}
