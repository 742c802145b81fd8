package pga

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"strconv"

	"github.com/procgen-dev/procgen/internal/parallel"
)

// faces calls fn with the world corners and normal of each face of t.
func (g *Grammar) faces(t *TerminalShape, fn func(c []Vec3, n Vec3)) {
	corners, fs, normals := g.worldSolid(&t.Shape)
	buf := make([]Vec3, 0, 8)
	for i, f := range fs {
		buf = buf[:0]
		for _, k := range f {
			buf = append(buf, corners[k])
		}
		fn(buf, normals[i])
	}
}

// direction maps a direction by the rotation part of a rigid transform.
func (m Mat4) direction(v Vec3) Vec3 {
	var r Vec3
	for i := 0; i < 3; i++ {
		r[i] = m[i*4]*v[0] + m[i*4+1]*v[1] + m[i*4+2]*v[2]
	}
	return r
}

// MeshStats counts what the encoders write: Vertices are distinct corner
// positions (8 a box, 4 a quad, n a polygon, 2n a prism), Triangles those
// of the faces' fans.
type MeshStats struct {
	Terminals int            `json:"terminals"`
	ByName    map[string]int `json:"terminals_by_name"`
	Vertices  int64          `json:"vertices"`
	Triangles int64          `json:"triangles"`
	ByPhase   []PhaseStats   `json:"phases"`
}

// PhaseStats counts the terminals a phase emitted and their geometry.
type PhaseStats struct {
	Phase     int   `json:"phase"`
	Terminals int   `json:"terminals"`
	Vertices  int64 `json:"vertices"`
	Triangles int64 `json:"triangles"`
}

// Stats counts ts as the encoders draw them, in all and per phase.
func (g *Grammar) Stats(ts []TerminalShape) MeshStats {
	s := MeshStats{Terminals: len(ts), ByName: map[string]int{}}
	at := map[int32]int{}
	for _, p := range g.Phases {
		at[int32(p)] = len(s.ByPhase)
		s.ByPhase = append(s.ByPhase, PhaseStats{Phase: p})
	}
	for i := range ts {
		s.ByName[g.TermNames[ts[i].Term]]++
		v, t := g.counts(&ts[i].Shape)
		s.Vertices += int64(v)
		s.Triangles += int64(t)
		ph := &s.ByPhase[at[ts[i].Phase]]
		ph.Terminals++
		ph.Vertices += int64(v)
		ph.Triangles += int64(t)
	}
	return s
}

// byName groups terminal indices by name, names in order of first
// appearance, so each material is switched to once.
func (g *Grammar) byName(ts []TerminalShape) (names []string, groups map[string][]int) {
	groups = map[string][]int{}
	for i := range ts {
		n := g.TermNames[ts[i].Term]
		if _, ok := groups[n]; !ok {
			names = append(names, n)
		}
		groups[n] = append(groups[n], i)
	}
	return names, groups
}

// MaterialColor is the colour of a terminal kind, linear RGB in 0..1. The
// grammar's n kinds (TermNames: the declared terminals in order, then the
// Generate() rules) get n hues evenly spaced round the colour wheel, taken
// with a stride so kinds declared together are far apart, and alternate
// between a light and a dark shade: every kind of a grammar has its own
// colour (hashing names gave near-identical greens to Wall, WindowSill and
// BalconyWall). A name the grammar does not know gets a hue from its hash.
func (g *Grammar) MaterialColor(name string) [3]float64 {
	n := len(g.TermNames)
	for i, t := range g.TermNames {
		if t == name {
			stride := max(1, n*3/8)
			for gcd(stride, n) != 1 {
				stride++
			}
			return hueColor(float64(i*stride%n)/float64(n), i%2)
		}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return hueColor(float64(h.Sum32()%360)/360, 0)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// hueColor is a saturated colour of hue h (0..1, red at 0), light (shade
// 0) or dark (shade 1).
func hueColor(h float64, shade int) [3]float64 {
	hue := math.Mod(h, 1) * 6
	x := 1 - math.Abs(math.Mod(hue, 2)-1)
	var r, g, b float64
	switch int(hue) {
	case 0:
		r, g = 1, x
	case 1:
		r, g = x, 1
	case 2:
		g, b = 1, x
	case 3:
		g, b = x, 1
	case 4:
		r, b = x, 1
	default:
		r, b = 1, x
	}
	lo, span := 0.25, 0.65
	if shade == 1 {
		lo, span = 0.08, 0.45
	}
	return [3]float64{lo + span*r, lo + span*g, lo + span*b}
}

// EncodeOBJ writes ts as Wavefront OBJ: per terminal name a group with a
// material of that name (from mtlName, when not empty), per terminal its
// corner positions once, its face normals and quad faces. It stops with
// ctx's error between groups and chunks of terminals.
func (g *Grammar) EncodeOBJ(ctx context.Context, w io.Writer, ts []TerminalShape, mtlName string) error {
	return g.EncodeOBJProgress(ctx, w, ts, mtlName, nil)
}

// EncodeOBJProgress is EncodeOBJ telling progress, when not nil, how many
// terminals are formatted (of len(ts)); calls are serialized.
func (g *Grammar) EncodeOBJProgress(ctx context.Context, w io.Writer, ts []TerminalShape, mtlName string, progress func(done, total int64)) error {
	tk := newTicker(len(ts), progress)
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "# procgen pga: %d terminals\n", len(ts))
	if mtlName != "" {
		fmt.Fprintf(bw, "mtllib %s\n", mtlName)
	}
	names, groups := g.byName(ts)
	var nv, nn int
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(bw, "g %s\n", name)
		if mtlName != "" {
			fmt.Fprintf(bw, "usemtl %s\n", name)
		}
		// Ranges of terminals are formatted on all cores, each numbering
		// its corners and normals from the counts of the ranges before it.
		at := groups[name]
		bounds := parallel.Chunks(len(at), objGrain)
		starts := make([][2]int, len(bounds))
		starts[0] = [2]int{nv, nn}
		for c := 0; c+1 < len(bounds); c++ {
			v, n := starts[c][0], starts[c][1]
			for k, i := range at[bounds[c]:bounds[c+1]] {
				if k%cancelEvery == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				cv, _ := g.counts(&ts[i].Shape)
				v += cv
				n += g.faceCount(&ts[i].Shape)
			}
			starts[c+1] = [2]int{v, n}
		}
		texts := make([][]byte, len(bounds)-1)
		parallel.For(len(at), objGrain, func(c, lo, hi int) {
			texts[c] = g.objText(ctx, ts, at[lo:hi], starts[c][0], starts[c][1])
			tk.add(hi - lo)
		})
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, t := range texts {
			bw.Write(t)
		}
		nv, nn = starts[len(bounds)-1][0], starts[len(bounds)-1][1]
	}
	return bw.Flush()
}

// objGrain is the fewest terminals worth a worker.
const objGrain = 2048

// cancelEvery is how many terminals the writers handle between looks at the
// context: a core's share of a mesh is a parallel.For range, up to half of
// a city on 2 cores, seconds of formatting; 1024 boxes are about a
// millisecond.
const cancelEvery = 1024

// objText formats terminals ts[at[...]] as OBJ lines, their corners and
// normals numbered after nv and nn. It returns early, incomplete, once ctx
// is done; the caller checks ctx before using the text.
func (g *Grammar) objText(ctx context.Context, ts []TerminalShape, at []int, nv, nn int) []byte {
	out := make([]byte, 0, 256*len(at))
	num := func(v float64) {
		out = append(out, ' ')
		out = strconv.AppendFloat(out, v, 'g', 9, 64)
	}
	for k, i := range at {
		if k%cancelEvery == 0 && ctx.Err() != nil {
			return out
		}
		corners, fs, normals := g.worldSolid(&ts[i].Shape)
		for _, p := range corners {
			out = append(out, 'v')
			num(p[0])
			num(p[1])
			num(p[2])
			out = append(out, '\n')
		}
		for _, n := range normals {
			out = append(out, "vn"...)
			num(n[0])
			num(n[1])
			num(n[2])
			out = append(out, '\n')
		}
		for j, f := range fs {
			out = append(out, 'f')
			for _, k := range f {
				out = append(out, ' ')
				out = strconv.AppendInt(out, int64(nv+k+1), 10)
				out = append(out, "//"...)
				out = strconv.AppendInt(out, int64(nn+j+1), 10)
			}
			out = append(out, '\n')
		}
		nv += len(corners)
		nn += len(fs)
	}
	return out
}

// EncodeMTL writes one material per terminal name in ts.
func (g *Grammar) EncodeMTL(w io.Writer, ts []TerminalShape) error {
	bw := bufio.NewWriter(w)
	names, _ := g.byName(ts)
	for _, n := range names {
		c := g.MaterialColor(n)
		fmt.Fprintf(bw, "newmtl %s\nKd %.4f %.4f %.4f\nd 1\nillum 1\n\n", n, c[0], c[1], c[2])
	}
	return bw.Flush()
}
