// Package genome makes flam3 genomes as flam3-genome does: random genomes
// from a variation set, mutations, crossovers, clones, rotations and strips.
// Every operation takes its randomness from the *rand.Rand it is given, so a
// seed fixes the result. The distributions of the random mode follow what
// flam3-genome 3.1.1 (tries=1) produces, measured by genome_flam3_test.go;
// the code is this project's own.
package genome

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"
)

// RandomOptions shape a random genome.
type RandomOptions struct {
	// Vars is the variation set each xform draws from; empty means
	// DefaultVars.
	Vars []flame.VarID
	// MinXforms..MaxXforms bound the number of xforms (symmetry and final
	// xforms not counted). Both 0: flam3's distribution over 2..6.
	MinXforms, MaxXforms int
	// Symmetry: 0 random as flam3 does (about one genome in five), 1 none,
	// k >= 2 rotational order k, k <= -1 a mirror and rotations of order -k.
	Symmetry int
	// Final: 0 random (flam3: 15 %), 1 always, -1 never.
	Final int
	// Palettes, when set, supplies the palette (a random entry, its hue
	// rotated one time in eight, as flam3 picks); nil makes a random gradient.
	Palettes *flame.PaletteFile
	Width    int // image size written into the genome (0: 100)
	Height   int
}

// excluded are the variations flam3-genome leaves out of random genomes
// when no variation set is given: blurs and noise that only fog a picture,
// and the ones that cut the plane into pieces.
var excluded = []flame.VarID{flame.VarNoise, flame.VarBlur, flame.VarGaussianBlur, flame.VarRadialBlur,
	flame.VarRays, flame.VarTwintrian, flame.VarCross, flame.VarPreBlur, flame.VarSeparation, flame.VarSplit, flame.VarSplits}

// DefaultVars is flam3-genome's default variation set for random genomes:
// all of flam3's variations but the excluded ones.
func DefaultVars() []flame.VarID {
	var vs []flame.VarID
	for v := flame.VarID(0); v < flame.NumVars; v++ {
		if !slices.Contains(excluded, v) && ownName(v) {
			vs = append(vs, v)
		}
	}
	return vs
}

// ownName reports whether v is the variation its name reads back as. The
// extensions of flam3's elliptic, splits, waves2 and log (flame's
// ids_jwf12.go) share flam3's names and are chosen by their parameters
// when a file is read, so they are not picked on their own.
func ownName(v flame.VarID) bool {
	u, _ := varByName(flame.VarNames[v])
	return u == v
}

// ParseVars reads a comma-separated variation set: flam3 names or flam3's
// variation numbers, a leading "-" on the whole list meaning "all but".
func ParseVars(s string) ([]flame.VarID, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultVars(), nil
	}
	not := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var picked []flame.VarID
	for i, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v, ok := varByName(f)
		if !ok {
			return nil, fmt.Errorf("variation %d of the list, %q: not one of flam3's variations (names such as linear, julia, or numbers 0..%d)",
				i+1, f, flame.NumVars-1)
		}
		picked = append(picked, v)
	}
	if !not {
		return picked, nil
	}
	var vs []flame.VarID
	for v := flame.VarID(0); v < flame.NumVars; v++ {
		if !slices.Contains(picked, v) && ownName(v) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("the list excludes every variation")
	}
	return vs, nil
}

func varByName(s string) (flame.VarID, bool) {
	for v, n := range flame.VarNames {
		if n == s {
			return flame.VarID(v), true
		}
	}
	var n int
	if _, err := fmt.Sscanf(s, "%d", &n); err == nil && fmt.Sprint(n) == s && n >= 0 && n < int(flame.NumVars) {
		return flame.VarID(n), true
	}
	return 0, false
}

// xformCounts is flam3-genome's distribution of the number of xforms of a
// random genome: 2 and 3 each 4/14, 4 3/14, 5 2/14, 6 1/14.
var xformCounts = []int{2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6}

// MaxXforms bounds --xforms: every xform costs the renderer per sample.
const MaxXforms = 64

// Check reports options no genome can be made from.
func (o RandomOptions) Check() error {
	if o.MinXforms < 0 || o.MaxXforms < 0 || o.MinXforms > o.MaxXforms || o.MaxXforms > MaxXforms ||
		(o.MaxXforms > 0 && o.MinXforms == 0) {
		return fmt.Errorf("xform count range %d..%d: want 1 <= min <= max <= %d", o.MinXforms, o.MaxXforms, MaxXforms)
	}
	if o.Symmetry < -MaxSymmetry || o.Symmetry > MaxSymmetry {
		return fmt.Errorf("symmetry %d: want -%d..%d", o.Symmetry, MaxSymmetry, MaxSymmetry)
	}
	if o.Final < -1 || o.Final > 1 {
		return fmt.Errorf("final %d: want -1, 0 or 1", o.Final)
	}
	if o.Width < 0 || o.Height < 0 || o.Width > 1<<16 || o.Height > 1<<16 {
		return fmt.Errorf("size %dx%d: want 1..65536", o.Width, o.Height)
	}
	return nil
}

// Random makes a random genome as flam3-genome's random mode does (with
// tries=1: no trial renders that reject dark or washed-out genomes).
func Random(r *rand.Rand, o RandomOptions) *flame.AnimGenome {
	vars := o.Vars
	if len(vars) == 0 {
		vars = DefaultVars()
	}
	k := newGenome(o.Width, o.Height)
	k.Palette = randomPalette(r, o.Palettes)
	n := xformCounts[r.IntN(len(xformCounts))]
	if o.MaxXforms > 0 {
		n = o.MinXforms + r.IntN(o.MaxXforms-o.MinXforms+1)
	}
	final := o.Final == 1 || (o.Final == 0 && r.Float64() < 0.15)
	same := r.IntN(2) == 0 // every xform shares the first one's variations
	var post *flame.Affine
	if r.IntN(2) == 0 { // half of flam3's random genomes have one post affine on every xform
		p := randomAffine(r)
		post = &p
	}
	for i := range n {
		x := newXform(i)
		x.Weight = 1 / float64(n)
		x.Coefs = randomAffine(r)
		if post != nil {
			x.Post = *post
		}
		if same && i > 0 {
			x.Vars = slices.Clone(k.Xforms[0].Vars)
		} else {
			// At least two draws, one more with probability 1/2 each time:
			// a draw that repeats a variation only changes its weight.
			draws := 2
			for r.IntN(2) == 0 && draws < 16 {
				draws++
			}
			x.Vars = drawVars(r, vars, draws)
		}
		randomParams(r, &x)
		k.Xforms = append(k.Xforms, x)
	}
	if final {
		// flam3's random final xform: linear plus one drawn variation.
		x := newXform(n)
		x.Coefs = randomAffine(r)
		x.Vars = merge([]flame.VarTerm{{ID: flame.VarLinear, Weight: r.Float64()},
			{ID: vars[r.IntN(len(vars))], Weight: r.Float64()}})
		normalise(x.Vars)
		randomParams(r, &x)
		k.Final = &x
	}
	sym := o.Symmetry
	if sym == 0 {
		sym = 1
		if !final && r.IntN(4) == 0 {
			sym = randomSymmetry(r)
		}
	}
	AddSymmetry(k, sym)
	return k
}

// drawVars draws n variations from vars with uniform weights, normalised to
// a sum of 1; a variation drawn twice keeps its last weight.
func drawVars(r *rand.Rand, vars []flame.VarID, n int) []flame.VarTerm {
	var ts []flame.VarTerm
	for range n {
		v, w := vars[r.IntN(len(vars))], r.Float64()
		if j := slices.IndexFunc(ts, func(t flame.VarTerm) bool { return t.ID == v }); j >= 0 {
			ts[j].Weight = w
			continue
		}
		ts = append(ts, flame.VarTerm{ID: v, Weight: w})
	}
	normalise(ts)
	slices.SortFunc(ts, func(a, b flame.VarTerm) int { return int(a.ID) - int(b.ID) })
	return ts
}

func merge(ts []flame.VarTerm) []flame.VarTerm {
	slices.SortFunc(ts, func(a, b flame.VarTerm) int { return int(a.ID) - int(b.ID) })
	out := ts[:0]
	for _, t := range ts {
		if len(out) > 0 && out[len(out)-1].ID == t.ID {
			out[len(out)-1].Weight += t.Weight
			continue
		}
		out = append(out, t)
	}
	return out
}

func normalise(ts []flame.VarTerm) {
	sum := 0.0
	for _, t := range ts {
		sum += t.Weight
	}
	if sum == 0 {
		for i := range ts {
			ts[i].Weight = 1 / float64(len(ts))
		}
		return
	}
	for i := range ts {
		ts[i].Weight /= sum
	}
}

// randomAffine has every coefficient uniform in [-1, 1], as flam3's.
func randomAffine(r *rand.Rand) flame.Affine {
	var a flame.Affine
	for i := range a {
		a[i] = r.Float64()*2 - 1
	}
	return a
}

// newGenome is a genome with flam3-genome's render defaults, the camera
// framing [-2, 2] on the short side.
func newGenome(w, h int) *flame.AnimGenome {
	if w == 0 {
		w = 100
	}
	if h == 0 {
		h = 100
	}
	k := &flame.AnimGenome{Genome: flame.DefaultGenome(), TemporalFilterWidth: 1}
	k.Width, k.Height = w, h
	k.Scale = float64(min(w, h)) / 4
	return k
}

// newXform is an xform as flam3 adds it: colour alternating 0, 1 with its
// position, colour speed 0.5, visible, animated, identity affines.
func newXform(i int) flame.Xform {
	return flame.Xform{Color: float64(i & 1), ColorSpeed: 0.5, Opacity: 1, Animate: 1,
		Coefs: flame.Identity, Post: flame.Identity, Params: flame.DefaultParams()}
}

// randomPalette picks a library palette (hue rotated one time in eight)
// or, with no library, a random gradient through a few random colours.
func randomPalette(r *rand.Rand, pf *flame.PaletteFile) flame.Palette {
	if pf != nil && len(pf.Palettes) > 0 {
		p := &pf.Palettes[r.IntN(len(pf.Palettes))]
		hue := 0.0
		if r.IntN(8) == 0 {
			hue = r.Float64()
		}
		return p.Palette(hue)
	}
	stops := 2 + r.IntN(6)
	cols := make([][3]float64, stops+1)
	for i := range stops {
		cols[i] = [3]float64{r.Float64(), r.Float64(), r.Float64()}
	}
	cols[stops] = cols[0] // a closed loop, so colour 0 and 255 meet smoothly
	var p flame.Palette
	for i := range p {
		t := float64(i) / 256 * float64(stops)
		j := int(t)
		f := t - float64(j)
		for c := range 3 {
			p[i][c] = math.Round(255*(cols[j][c]*(1-f)+cols[j+1][c]*f)) / 255
		}
		p[i][3] = 1
	}
	return p
}
