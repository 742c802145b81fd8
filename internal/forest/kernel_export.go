package forest

import "math"

// Kernel is one species' dispersal kernel, for code outside this package
// that evaluates the dispersal model at points other than grid cells
// (internal/forest/fit fits it to seed-trap counts). It is the same kernel
// the engines sum, so a fit and a dispersal run use one model.
type Kernel struct{ k kern }

// NewKernel prepares s's kernel (the species is validated first).
func NewKernel(s Species) (Kernel, error) {
	k, err := newKern(s)
	if err != nil {
		return Kernel{}, err
	}
	return Kernel{k: k}, nil
}

// At is the unnormalised kernel K at squared distance d2 (m^2): 1 at the
// Weibull's centre, 1 at the lognormal's median distance.
func (k Kernel) At(d2 float64) float64 { return k.k.at(d2) }

// Eta is the kernel's integral over the plane (m^2).
func (k Kernel) Eta() float64 { return k.k.eta }

// Density is K(d2)/eta: the fraction of a parent's seeds landing per m^2 at
// squared distance d2 (it integrates to 1 over the plane).
func (k Kernel) Density(d2 float64) float64 { return k.k.at(d2) / k.k.eta }

// AtLog is At(d2) for callers that hold lnd2 = ln(d2) beside d2 (the fit
// evaluates every candidate at the same trap-parent distances): the
// Weibull's power and the lognormal's logarithm come from lnd2 instead of
// math.Pow and math.Log, and the exponential from fastExp. It agrees with At
// to a few parts in 1e15 of the exponent -ln K (TestAtLogMatchesAt); the
// fit spent half its time in math.Pow.
func (k Kernel) AtLog(d2, lnd2 float64) float64 {
	e := k.k.expoLog(d2, lnd2)
	if !(e <= underflowExponent) {
		if e > 746 { // exp(-e) is 0 in float64 (+Inf included)
			return 0
		}
		return math.Exp(-e) // the subnormal tail, and NaN, as At
	}
	return fastExp(-e)
}
