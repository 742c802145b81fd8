// Package flame renders fractal flames: flam3 genomes in, images out, with
// the flam3 algorithm (Draves & Reckase) on a multi-core CPU backend and a
// CUDA backend. It also holds flam3's animation model, because interpolation
// and the renderers work on it directly: keyframes (keyframes.go, read and
// written as flam3 XML), interpolation (interp*.go), flam3-genome's sequences
// (sequence.go), and motion-blurred frames (frame_*.go; on the GPU
// cuda_frame*.go). Two sub-packages build on it and are not imported by it:
// flame/cuburn reads cuburn's flock format into genomes and frames, and
// flame/anim runs an animation's frames through the renderers to files.
// This file holds the model every part shares: genomes, xforms, variations
// and their parameters.
package flame

// Affine is a 2-D affine map in flam3's coefficient order, as written in the
// XML `coefs="a b c d e f"`: x' = a·x + c·y + e, y' = b·x + d·y + f.
// (flam3 stores it as c[3][2] = {{a,b},{c,d},{e,f}}.)
type Affine [6]float64

// Identity is the affine map that changes nothing.
var Identity = Affine{1, 0, 0, 1, 0, 0}

// Apply maps (x, y).
func (m *Affine) Apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

// IsIdentity reports whether m is exactly the identity (flam3 skips such posts).
func (m *Affine) IsIdentity() bool { return *m == Identity }

// VarTerm is one active variation of an xform and its weight.
type VarTerm struct {
	ID     VarID
	Weight float64
}

// Xform is one function of the iterated function system.
type Xform struct {
	Weight     float64 // relative probability of being chosen (flam3 "weight"/density)
	Color      float64 // palette coordinate 0..1 this xform pulls points towards
	ColorSpeed float64 // how strongly: c' = c·(1-speed) + Color·speed
	Opacity    float64 // 0 invisible .. 1 visible: scales what the point deposits
	Animate    float64 // sheep rotation flag; kept for round trips, unused in stills
	Coefs      Affine  // applied before the variations
	Post       Affine  // applied after the variations
	Vars       []VarTerm
	// Stages are Fractorium's pre_ and post_ variations, in document order
	// (variations_stage.go); nil for flam3's genomes.
	Stages []StageTerm
	// Params holds every variation parameter, indexed by ParamID, followed
	// by the precalculated values (PrecalcFirst..NumParams) that Precalc
	// derives from them.
	Params Params
	// Chaos is this xform's xaos row: the relative weight of each xform
	// being chosen next after this one (nil means all ones).
	Chaos []float64
}

// Params is the flat parameter vector of an xform. Flat so the GPU receives
// it as one array, and so parsing is a table lookup.
type Params [NumParams]float64

// Genome is one <flame>: the function system, palette and camera, and the
// render settings that come with it.
type Genome struct {
	Name   string
	Xforms []Xform
	Final  *Xform // nil when there is no final xform

	Palette Palette

	// Camera and image.
	Width, Height int
	Center        [2]float64 // camera centre in flame coordinates
	Scale         float64    // pixels per unit at zoom 0 (flam3 pixels_per_unit)
	Zoom          float64    // scale·2^zoom, and quality compensated (flam3)
	Rotate        float64    // degrees
	Camera        Camera3D   // Fractorium's and JWildfire's 3D camera (camera3d.go)
	// Rendering.
	Quality         float64 // samples per output pixel (flam3 sample_density)
	Supersample     int     // spatial oversample factor
	Passes          int     // flam3 nbatches
	TemporalSamples int
	Brightness      float64
	Contrast        float64
	Gamma           float64
	GammaThreshold  float64 // flam3 gam_lin_thresh
	Vibrancy        float64
	HighlightPower  float64 // <0: off (legacy behaviour)
	Background      [3]float64
	FilterRadius    float64 // spatial filter radius in output pixels
	FilterShape     FilterShape
	// JWildfire's spatial filter (filters_jwf.go), named as its Flame names
	// them. SpatialFilterKernel is KernelNone in every other program's
	// genome, which FilterShape filters.
	SpatialFilterKernel     FilterKernelType
	SpatialFilteringType    FilteringType
	SpatialFilterSharpness  float64 // the adaptive kernel's edge threshold
	SpatialFilterLowDensity float64 // the adaptive kernel's density threshold
	SpatialFilterIndicator  bool    // the adaptive filter's false-colour view
	EstimatorRadius         float64 // density estimation: max radius
	EstimatorMinimum        float64
	EstimatorCurve          float64
	HueRotation             float64
	PaletteMode             PaletteMode
	Interpolation           string // kept for round trips
	// Transparent renders the background with alpha 0 (flam3 transparency).
	Transparent bool
	// Fuse is the number of iterations discarded from each start point.
	Fuse int
	// Symmetry is the legacy genome-level symmetry value (already expanded
	// into xforms by the parser; kept for round trips).
	Symmetry int
}

// Palette is 256 RGBA colours with components in 0..1.
type Palette [256][4]float64

// PaletteMode says how a colour coordinate picks from the palette.
type PaletteMode int

const (
	PaletteStep   PaletteMode = iota // nearest entry (flam3 default)
	PaletteLinear                    // interpolate neighbouring entries
)

// FilterShape is the spatial filter kernel (flam3's filter_shape names).
type FilterShape int

const (
	FilterGaussian FilterShape = iota
	FilterHermite
	FilterBox
	FilterTriangle
	FilterBell
	FilterBSpline
	FilterLanczos3
	FilterLanczos2
	FilterMitchell
	FilterBlackman
	FilterCatrom
	FilterHamming
	FilterHanning
	FilterQuadratic
)

// FilterShapeNames maps flam3's filter_shape attribute values to shapes.
var FilterShapeNames = map[string]FilterShape{
	"gaussian": FilterGaussian, "hermite": FilterHermite, "box": FilterBox, "triangle": FilterTriangle,
	"bell": FilterBell, "bspline": FilterBSpline, "lanczos3": FilterLanczos3, "lanczos2": FilterLanczos2,
	"mitchell": FilterMitchell, "blackman": FilterBlackman, "catrom": FilterCatrom, "hamming": FilterHamming,
	"hanning": FilterHanning, "quadratic": FilterQuadratic,
}
