// Package forest computes seed (or recruit) rain over a forest plot from a
// stem map: the density of seeds landing in each cell of a grid, summed over
// parent trees with a dispersal kernel, after Dale et al.'s multiresolution
// seed dispersal paper and SORTIE-ND's Weibull disperse model (the model and
// its parameters are described in ../shared/corpus/forest/README.md).
//
// Density at a point, per m^2 per year:
//
//	R = STR/eta * sum over parents k of (DBH_k/30)^beta * K(d_k)
//
// with DBH in cm, d in m, K the kernel (Weibull: exp(-D d^theta); lognormal
// as a second kernel) and eta its integral over the plane, so that a 30 cm
// tree puts STR seeds on the plane per year.
package forest

import "context"

// Tree is one stem: position in metres, species index into the species
// table, DBH in centimetres.
type Tree struct {
	X, Y    float64
	Species int
	DBH     float64
}

// KernelKind names a dispersal kernel.
type KernelKind string

const (
	// Weibull: K(d) = exp(-D d^theta) (SORTIE-ND's Weibull disperse).
	Weibull KernelKind = "weibull"
	// Lognormal: K(d) = exp(-(ln(d/X0))^2 / (2 Xb^2)) (SORTIE-ND's lognormal).
	Lognormal KernelKind = "lognormal"
	// TwoDt: Clark et al. (1999)'s 2Dt, K(d) = (1 + d^2/u)^-(p+1), whose
	// normalised form is p / (pi u (1 + d^2/u)^(p+1)) (kernels.go).
	TwoDt KernelKind = "2dt"
	// ExpPower: the exponential power kernel exp(-(d/a)^b) (Clark et al.
	// 1998's form), normalised b / (2 pi a^2 Gamma(2/b)): the Weibull
	// kernel with D = a^-b and theta = b.
	ExpPower KernelKind = "exppow"
	// Exponential and Gaussian: the exponential power kernel with b = 1
	// and b = 2, given by a alone.
	Exponential KernelKind = "exponential"
	Gaussian    KernelKind = "gaussian"
	// Mixture: W times the first component's normalised kernel plus 1 - W
	// times the second's (e.g. a local kernel with a long-distance 2Dt tail).
	Mixture KernelKind = "mixture"
)

// Species is one species' dispersal parameters.
type Species struct {
	Name   string
	Kernel KernelKind
	STR    float64 // recruits per year from a 30 cm parent
	Beta   float64 // fecundity exponent (default 2)
	// Weibull parameters.
	D, Theta float64
	// Lognormal parameters: X0 (m) and Xb.
	X0, Xb float64
	// 2Dt parameters: P (shape, > 0) and U (scale, m^2).
	P, U float64
	// Exponential power parameters: A (scale, m) and B (shape).
	A, B float64
	// Mix holds a mixture's weight and components (Kernel Mixture only).
	Mix *MixtureParams
	// Clumping is the negative binomial's k for realised counts (Realize):
	// variance mean + mean^2/k; 0 draws Poisson counts.
	Clumping float64
	// MinDBH is the minimum reproductive DBH (cm): smaller trees are not parents.
	MinDBH float64
}

// MixtureParams is a two-component mixture: W of First plus 1 - W of
// Second, each normalised. The components' own STR, Beta, MinDBH and
// Clumping are unused (the species' apply); neither may be a mixture.
type MixtureParams struct {
	W             float64
	First, Second Species
}

// Grid is a regular grid of square cells: cell (i, j) covers
// [X0+i*Cell, X0+(i+1)*Cell) x [Y0+j*Cell, Y0+(j+1)*Cell) and its density is
// evaluated at the cell centre. Cells are stored row-major: index j*NX + i.
type Grid struct {
	X0, Y0 float64
	Cell   float64
	NX, NY int
}

// Cells is the number of cells.
func (g Grid) Cells() int { return g.NX * g.NY }

// Center is the centre of cell (i, j).
func (g Grid) Center(i, j int) (x, y float64) {
	return g.X0 + (float64(i)+0.5)*g.Cell, g.Y0 + (float64(j)+0.5)*g.Cell
}

// Boundary says what happens to seeds that would land outside the grid.
type Boundary string

const (
	// Open: they are lost (and counted in Result.Lost).
	Open Boundary = "open"
	// Torus: the plot wraps around (distances are taken modulo the plot size).
	Torus Boundary = "torus"
)

// Method is how the sum over trees is computed.
type Method string

const (
	// Exact sums every parent for every cell (optionally within a cut-off radius).
	Exact Method = "exact"
	// FFT bins parents onto the grid with bilinear weights and convolves with
	// the kernel by FFT (zero padded for open plots, periodic for a torus).
	FFT Method = "fft"
	// Multires is the paper's quadtree clustering, kept for comparison.
	Multires Method = "multires"
)

// Layer is one species' density grid (per m^2 per year), row-major like Grid.
type Layer struct {
	Species int
	Density []float64
	// Total is the number of seeds landing in the grid per year (density x
	// cell area, summed); Lost is Produced - Total when positive: on an open
	// plot the kernel's mass beyond the grid, on a torus what a cut-off or
	// the cells' quadrature misses (never assumed 0).
	Total, Lost float64
	// Parents is the number of parent trees (DBH at or above MinDBH) and
	// Produced their seeds per year, sum of STR (DBH/30)^beta: on an open
	// plot Produced = Total + Lost, up to the grid's quadrature.
	Parents  int
	Produced float64
	// Accuracy is the backend's statement of this layer's error.
	Accuracy Accuracy
}

// Accuracy states how far a layer may be from the exact sum.
type Accuracy struct {
	// Method is how the layer was summed: Exact (the direct sum, also the
	// fft method's choice for few parents), FFT or Multires; a total over
	// species summed in different ways says Mixed.
	Method Method
	// MaxRel estimates the largest relative error of a cell whose density
	// is at least Floor times the layer's maximum; 0 means exact up to
	// float64 rounding, -1 that the method has no estimate (multires).
	MaxRel, Floor float64
	// MaxAbs bounds the absolute error of every cell (per m^2 per year) and
	// TailMass is the fraction of every parent's seeds beyond the exact
	// method's cut-off radius (left out, and counted in Lost), or beyond
	// ImageRadius on a torus whose kernel reaches so far that the cost cap
	// cut the periodic images short of float64 resolution (spread evenly
	// over the plot, so they land; MaxAbs bounds that) (0 without either).
	MaxAbs, TailMass float64
	// ImageRadius is that radius (m), 0 when every image that matters was summed.
	ImageRadius float64
	// QuadExcess is the share of the seeds produced by which a torus's
	// cells sum to more than was produced (their midpoint quadrature of a
	// kernel sharp for the cell size; completeTorus); 0 when they do not.
	QuadExcess float64
	// ExactCells counts the cells summed exactly: by the fft method because
	// its error estimate for them exceeded the tolerance (all of them where
	// it chose the direct sum); for a total, the cells summed exactly in
	// every species with parents. At most the grid's cells.
	ExactCells int
	// fixed lists, by row, the spans of cells the fft method summed
	// exactly (nil where it summed all or none of them).
	fixed [][]span
}

// Mixed is the Method of a total whose species were summed in different ways.
const Mixed Method = "mixed"

// Options control a dispersal run.
type Options struct {
	Method   Method
	Boundary Boundary
	// Cutoff, when positive, ignores parents farther than this many metres
	// from a cell (exact method); the result reports the bound on the error
	// it implies.
	Cutoff float64
	// Workers is the number of goroutines on the CPU; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, is called with work done and total (calls never overlap).
	Progress func(done, total int64)
	// Tolerance is the fft method's largest relative error per cell: cells
	// its error estimate exceeds it for are summed exactly (0: 1e-4).
	Tolerance float64
	// ClusterDistance is the multires method's first clustering distance
	// in metres (0: per species, where D d^theta = 8.3, as in the paper).
	ClusterDistance float64
}

// Engine is a backend: the CPU, or a CUDA device.
type Engine interface {
	// Disperse computes one layer per species in species (in that order)
	// from the trees of that species; trees must lie inside the grid unless
	// the caller has counted and dropped them.
	Disperse(ctx context.Context, g Grid, trees []Tree, species []Species, o Options) ([]Layer, error)
}
