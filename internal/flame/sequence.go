package flame

import (
	"context"
	"fmt"
	"math"
)

// Making animations as flam3-genome does for Electric Sheep: a loop turns
// one genome's animated xforms once around, an edge blends two genomes
// while both turn (sheep_loop, sheep_edge, flam3_rotate).

// rotateXforms is flam3_rotate: the linear part of every xform whose
// animate flag is non-zero turns by deg degrees (the final xform never, and
// padding xforms only under log interpolation).
func rotateXforms(xs []axform, nstd int, deg float64, it InterpType) {
	s, c := math.Sincos(deg * 2 * math.Pi / 360)
	for i := range xs {
		x := &xs[i]
		if x.Animate == 0 || i >= nstd || (x.padding && it != InterpLog) {
			continue
		}
		m := &x.Coefs
		a, b, cc, d := m[0], m[1], m[2], m[3]
		m[0], m[1] = c*a-s*b, s*a+c*b
		m[2], m[3] = c*cc-s*d, s*cc+c*d
	}
}

// LoopKey is flam3's sheep_loop: g with its animated xforms turned by
// blend·360 degrees.
func LoopKey(g *AnimGenome, blend float64) *AnimGenome {
	a := copyx(g, len(g.Xforms), g.Final != nil)
	for i := range a.xf {
		a.xf[i].padding = false
	}
	rotateXforms(a.xf, a.nstd, blend*360, g.InterpType)
	return a.genome()
}

// genome turns an aligned genome back into a keyframe (its own settings,
// the aligned xforms).
func (a *aligned) genome() *AnimGenome {
	k := cloneAnim(a.k)
	k.Xforms, k.Final = nil, nil
	for i := range a.xf {
		x := a.xf[i].Xform
		x.Vars = nil
		for v := VarID(0); v < NumVars; v++ {
			if w := a.xf[i].v[v]; w != 0 {
				x.Vars = append(x.Vars, VarTerm{ID: v, Weight: w})
			}
		}
		if i == a.nstd {
			k.Final = &x
			continue
		}
		x.Chaos = nil
		if a.chaos != nil {
			ones := true
			for _, c := range a.chaos[i] {
				ones = ones && c == 1
			}
			if !ones {
				x.Chaos = append([]float64(nil), a.chaos[i]...)
			}
		}
		k.Xforms = append(k.Xforms, x)
	}
	return k
}

// EdgeKey is flam3's sheep_edge: g0 and g1 aligned, both turned by
// blend·360 degrees, and blended at smoothstep(blend). stagger > 0 makes
// the xforms change one after another. seq keeps g0 as it is at blend 0
// (flam3's first keyframe of an edge in a sequence).
func EdgeKey(g0, g1 *AnimGenome, blend, stagger float64, seq bool) *AnimGenome {
	if seq && blend == 0 {
		return cloneAnim(g0)
	}
	spun := align([]*AnimGenome{g0, g1})
	asymmetricRefAngles(spun)
	it := g0.InterpType
	rotateXforms(spun[0].xf, spun[0].nstd, blend*360, it)
	rotateXforms(spun[1].xf, spun[1].nstd, blend*360, it)
	s := smoother(blend)
	r := interpolateN(spun, []float64{1 - s, s}, stagger)
	r.Smooth = false
	return r
}

// asymmetricRefAngles is establish_asymmetric_refangles: where an xform
// turns in one genome but not in the other, its reference angle (wind)
// makes the blend go the long way round consistently.
func asymmetricRefAngles(cp []aligned) {
	for xfi := 0; xfi < cp[0].nstd; xfi++ {
		var ang [2][2]float64
		for k := 0; k < 2; k++ {
			m := cp[k].xf[xfi].Coefs
			for col := 0; col < 2; col++ {
				ang[k][col] = math.Atan2(m[2*col+1], m[2*col])
			}
		}
		for col := 0; col < 2; col++ {
			d := ang[1][col] - ang[0][col]
			if d > math.Pi+angleEps {
				ang[1][col] -= 2 * math.Pi
			} else if d < -(math.Pi - angleEps) {
				ang[1][col] += 2 * math.Pi
			}
			sym0, sym1 := cp[0].xf[xfi].Animate == 0, cp[1].xf[xfi].Animate == 0
			if sym1 && !sym0 {
				cp[1].xf[xfi].wind[col] = ang[0][col] + 2*math.Pi
			} else if sym0 && !sym1 {
				cp[1].xf[xfi].wind[col] = ang[1][col] + 2*math.Pi
			}
		}
	}
}

// SequenceOptions shape a flam3-genome sequence.
type SequenceOptions struct {
	LoopFrames int     // keyframes of each genome's loop (0: no loops)
	EdgeFrames int     // keyframes of each edge between consecutive genomes
	Stagger    float64 // flam3's stagger for edges (0: all xforms together)
}

// Sequence is flam3-genome's sequence=: for each genome its loop (unless
// LoopFrames is 0), then the edge to the next genome, and a closing
// keyframe of the last genome unturned. Keyframe times are 0, 1, 2, ...;
// loop keyframes are linear with hsv_circular palettes as flam3 writes them.
func Sequence(gs []*AnimGenome, o SequenceOptions) ([]*AnimGenome, error) {
	var out []*AnimGenome
	err := SequenceEach(context.Background(), gs, o, func(k *AnimGenome) error {
		out = append(out, k)
		return nil
	})
	return out, err
}

// CheckSequence refuses options Sequence cannot honour for n genomes.
func CheckSequence(n int, o SequenceOptions) error {
	switch {
	case n == 0:
		return fmt.Errorf("flame: a sequence needs at least one genome")
	case o.LoopFrames < 0 || o.EdgeFrames < 0 || o.LoopFrames > 1<<20 || o.EdgeFrames > 1<<20:
		return fmt.Errorf("flame: loop and edge frames must be 0..%d", 1<<20)
	case n > 1 && o.EdgeFrames == 0:
		return fmt.Errorf("flame: %d genomes need edge frames to join them", n)
	case o.LoopFrames == 0 && n == 1:
		return fmt.Errorf("flame: one genome needs loop frames")
	case !(o.Stagger >= 0 && o.Stagger <= 1):
		return fmt.Errorf("flame: stagger %g outside 0..1", o.Stagger)
	}
	return nil
}

// SequenceEach is Sequence handing each keyframe to emit as it is made, so
// that a sequence of a million keyframes (~27 KB each) is written without
// being held: its memory is the genomes' (SequenceBytes). It stops with
// ctx's error within a keyframe of ctx ending, and with emit's error.
func SequenceEach(ctx context.Context, gs []*AnimGenome, o SequenceOptions, emit func(*AnimGenome) error) error {
	if err := CheckSequence(len(gs), o); err != nil {
		return err
	}
	n := 0
	put := func(k *AnimGenome) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		k.Time = float64(n)
		k.Name = fmt.Sprintf("%f", k.Time)
		n++
		return emit(k)
	}
	spin := func(g *AnimGenome, blend float64) error {
		k := LoopKey(g, blend)
		k.Smooth, k.PaletteInterp, k.HSVRGBBlend = false, PaletteHSVCircular, 0
		return put(k)
	}
	for i, g := range gs {
		for f := 0; f < o.LoopFrames; f++ {
			if err := spin(g, float64(f)/float64(o.LoopFrames)); err != nil {
				return err
			}
		}
		if i == len(gs)-1 {
			break
		}
		for f := 0; f < o.EdgeFrames; f++ {
			k := EdgeKey(g, gs[i+1], float64(f)/float64(o.EdgeFrames), o.Stagger, f == 0 || f == o.EdgeFrames-1)
			if err := put(k); err != nil {
				return err
			}
		}
	}
	return spin(gs[len(gs)-1], 0)
}

// SequenceLen is the number of keyframes Sequence makes of n genomes.
func SequenceLen(n int, o SequenceOptions) int64 {
	return int64(n)*int64(o.LoopFrames) + int64(max(n-1, 0))*int64(o.EdgeFrames) + 1
}

// Memory of SequenceEach, fitted to the peak RSS of 'flame sequence'
// (2^20 loop keyframes of one genome to /dev/null: 28.5 MiB; 424 corpus
// genomes' loops and edges: 43.4 MiB): the Go runtime, the writer's
// buffers and the garbage of a long stream; per genome its parsed form
// (8.6 KB and 1.2 KB an xform) with the collector's headroom; the input
// text; the aligned copies an edge keyframe is blended from.
const (
	sequenceBaseBytes   = 30 << 20
	sequenceGenomeBytes = 16 << 10
	sequenceXformBytes  = 3 << 10
	sequenceEdgeBytes   = 16 << 10 // per xform of the largest pair
)

// SequenceBytes estimates the memory of streaming a sequence of gs whose
// files held inputBytes of text: independent of the number of keyframes.
func SequenceBytes(gs []*AnimGenome, inputBytes int64) float64 {
	maxPair, xforms := 0, 0
	for i, g := range gs {
		n := len(g.Xforms)
		xforms += n
		if i+1 < len(gs) {
			n += len(gs[i+1].Xforms)
		}
		maxPair = max(maxPair, n)
	}
	return sequenceBaseBytes + float64(inputBytes) + float64(len(gs))*sequenceGenomeBytes +
		float64(xforms)*sequenceXformBytes + float64(maxPair)*sequenceEdgeBytes
}
