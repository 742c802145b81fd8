package genome

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/procgen-dev/procgen/internal/flame"
)

// Mutation is one of flam3-genome's mutation kinds.
type Mutation string

// The mutation kinds, named as flam3-genome's <edit> actions name them.
const (
	MutateRandom     Mutation = "random"     // one of the kinds below, each equally likely
	MutateVariations Mutation = "variations" // every xform gets a random genome's variations
	MutateOneCoefs   Mutation = "one-coefs"  // one xform's affine is moved
	MutateSymmetry   Mutation = "symmetry"   // a random symmetry is added
	MutatePost       Mutation = "post"       // every xform's post affine is rotated, scaled, moved
	MutatePalette    Mutation = "palette"    // a new palette, or the hue of the old one turned
	MutateDelete     Mutation = "delete"     // one xform is removed
	MutateAllCoefs   Mutation = "coefs"      // every xform's affine is moved
)

// Mutations lists the kinds MutateRandom chooses from, in a fixed order.
var Mutations = []Mutation{MutateVariations, MutateOneCoefs, MutateSymmetry, MutatePost, MutatePalette, MutateDelete, MutateAllCoefs}

// MutateOptions are what a mutation may draw on.
type MutateOptions struct {
	Vars     []flame.VarID      // variation set for MutateVariations (empty: DefaultVars)
	Palettes *flame.PaletteFile // palettes for MutatePalette (nil: random gradients)
	// Speed scales how far coefficient mutations move (0: 0.5).
	Speed float64
}

// Mutate returns a mutated copy of g and the kind applied (MutateRandom
// resolves to a kind; delete falls back to another kind on a genome of one
// animated xform).
func Mutate(r *rand.Rand, g *flame.AnimGenome, kind Mutation, o MutateOptions) (*flame.AnimGenome, Mutation, error) {
	k := Clone(g)
	anim := animated(k)
	if kind == MutateRandom {
		kind = Mutations[r.IntN(len(Mutations))]
		for kind == MutateDelete && len(anim) < 2 {
			kind = Mutations[r.IntN(len(Mutations))]
		}
	}
	speed := o.Speed
	if speed == 0 {
		speed = 0.5
	}
	if len(anim) == 0 && kind != MutateSymmetry && kind != MutatePalette {
		return nil, kind, fmt.Errorf("mutate %s: the genome has no animated xform to change", kind)
	}
	switch kind {
	case MutateVariations:
		src := Random(r, RandomOptions{Vars: o.Vars, MinXforms: len(anim), MaxXforms: len(anim), Symmetry: 1, Final: -1})
		for j, i := range anim {
			k.Xforms[i].Vars = src.Xforms[j].Vars
			k.Xforms[i].Params = src.Xforms[j].Params
		}
	case MutateOneCoefs:
		jitter(r, &k.Xforms[anim[r.IntN(len(anim))]].Coefs, speed)
	case MutateAllCoefs:
		for _, i := range anim {
			jitter(r, &k.Xforms[i].Coefs, speed)
		}
	case MutateSymmetry:
		sym := 1
		for sym == 1 || sym == 0 {
			sym = randomSymmetry(r)
		}
		AddSymmetry(k, sym)
	case MutatePost:
		for _, i := range anim {
			k.Xforms[i].Post = movePost(r, k.Xforms[i].Post)
		}
	case MutatePalette:
		k.Palette = mutatePalette(r, k.Palette, o.Palettes)
	case MutateDelete:
		if len(anim) < 2 {
			return nil, kind, fmt.Errorf("mutate delete: the genome has %d animated xform, and a genome needs one", len(anim))
		}
		DeleteXform(k, anim[r.IntN(len(anim))])
	default:
		return nil, kind, fmt.Errorf("unknown mutation %q: want random or one of %v", kind, Mutations)
	}
	return k, kind, nil
}

// animated is the indices of the xforms a mutation may change: those that
// are not symmetry xforms (animate 0).
func animated(k *flame.AnimGenome) []int {
	var out []int
	for i, x := range k.Xforms {
		if x.Animate != 0 {
			out = append(out, i)
		}
	}
	return out
}

func jitter(r *rand.Rand, a *flame.Affine, speed float64) {
	for i := range a {
		a[i] += speed * (r.Float64()*2 - 1)
	}
}

// movePost turns, scales and moves a post affine, each with probability
// one half and at least one of them.
func movePost(r *rand.Rand, p flame.Affine) flame.Affine {
	for {
		var did bool
		if r.IntN(2) == 0 {
			p = Rotate(p, r.Float64()*360)
			did = true
		}
		if r.IntN(2) == 0 {
			s := 0.5 + r.Float64()
			for i := range 4 {
				p[i] *= s
			}
			did = true
		}
		if r.IntN(2) == 0 {
			p[4] += r.Float64()*2 - 1
			p[5] += r.Float64()*2 - 1
			did = true
		}
		if did {
			return p
		}
	}
}

func mutatePalette(r *rand.Rand, p flame.Palette, pf *flame.PaletteFile) flame.Palette {
	if r.IntN(2) == 0 {
		return randomPalette(r, pf)
	}
	var ip flame.IndexedPalette
	for i, c := range p {
		for j := range 3 {
			ip.Colors[i][j] = uint8(math.Round(255 * max(0, min(1, c[j]))))
		}
	}
	return ip.Palette(0.1 + 0.8*r.Float64())
}

// DeleteXform removes xform i and its column of every xaos row.
func DeleteXform(k *flame.AnimGenome, i int) {
	k.Xforms = slices.Delete(k.Xforms, i, i+1)
	for j := range k.Xforms {
		if c := k.Xforms[j].Chaos; i < len(c) {
			k.Xforms[j].Chaos = slices.Delete(slices.Clone(c), i, i+1)
		}
	}
}

// Clone is a deep copy of g.
func Clone(g *flame.AnimGenome) *flame.AnimGenome {
	k := *g
	k.Xforms = slices.Clone(g.Xforms)
	for i := range k.Xforms {
		k.Xforms[i].Vars = slices.Clone(k.Xforms[i].Vars)
		k.Xforms[i].Chaos = slices.Clone(k.Xforms[i].Chaos)
	}
	if g.Final != nil {
		f := *g.Final
		f.Vars = slices.Clone(f.Vars)
		k.Final = &f
	}
	return &k
}

// Rotate turns the linear part of a by deg degrees (counter-clockwise: both
// columns of the 2x2 matrix turn); the translation stays.
func Rotate(a flame.Affine, deg float64) flame.Affine {
	s, c := math.Sincos(deg * math.Pi / 180)
	out := a
	out[0], out[1] = c*a[0]-s*a[1], s*a[0]+c*a[1]
	out[2], out[3] = c*a[2]-s*a[3], s*a[2]+c*a[3]
	return out
}

// RotateGenome is flam3-genome's rotate of a genome: every animated xform's
// affine turned by deg degrees, symmetry xforms and the final left alone.
func RotateGenome(g *flame.AnimGenome, deg float64) *flame.AnimGenome {
	k := Clone(g)
	for _, i := range animated(k) {
		k.Xforms[i].Coefs = Rotate(k.Xforms[i].Coefs, deg)
	}
	return k
}

// Strip is flam3-genome's strip mode: the genome that renders horizontal
// strip i (0 at the top) of n of g's image, so n renders stacked make g's
// picture. The height must divide into n strips.
func Strip(g *flame.AnimGenome, n, i int) (*flame.AnimGenome, error) {
	if n < 1 || i < 0 || i >= n {
		return nil, fmt.Errorf("strip %d of %d: want 0 <= strip < strips", i, n)
	}
	if g.Height%n != 0 {
		return nil, fmt.Errorf("strip: height %d does not divide into %d strips", g.Height, n)
	}
	k := Clone(g)
	h := g.Height / n
	ppu := g.Scale * math.Exp2(g.Zoom)
	// The strip's centre is below the image centre by this many flame units,
	// along the image's y axis, which the camera rotation turns.
	off := (float64(i*h) + float64(h)/2 - float64(g.Height)/2) / ppu
	s, c := math.Sincos(g.Rotate * math.Pi / 180)
	k.Center[0] += -s * off
	k.Center[1] += c * off
	k.Height = h
	return k, nil
}
