//go:build cuda

package pga

import (
	"context"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

// Grammars on lots standing on their own polygons run on the device and
// build what the CPU builds: the prism, its caps on the polygon (top and
// mirrored bottom), a wall per edge of every ring (the courtyard's
// included), floors cut along the prism's height, projections and
// materials, and the device mesh (counts, corners, cap triangles).
func TestCUDAFootprintEquivalence(t *testing.T) {
	lots := polygonLots(120, 3)
	for _, c := range footprintGrammars {
		t.Run(c.name, func(t *testing.T) {
			g, axioms := footprintCase(t, c.name, c.src, c.kind, lots)
			if _, err := compileGrammar(g); err != nil {
				t.Fatal(err)
			}
			opt := Options{LotAttrs: LotAttrValues(lots)}
			runEquivalenceOpt(t, g, axioms, opt, 0)
			sameArea(t, g, axioms, opt)
		})
	}
}

// sameArea checks the device mesh's triangles, not only its corners: their
// total area is the CPU solids' (each face fanned from its first corner, as
// the encoders write it), which a wrong corner id in a cap triangle or a
// wall would change.
func sameArea(t *testing.T, g *Grammar, axioms []Shape, opt Options) {
	t.Helper()
	if len(g.Assets) > 0 {
		return // the host draws its mesh from the terminals compared already
	}
	cpu, _, err := g.evaluateTerms(axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for i := range cpu {
		corners, faces, _ := g.worldSolid(&cpu[i].Shape)
		for _, f := range faces {
			for j := 1; j+1 < len(f); j++ {
				want += triArea(corners[f[0]], corners[f[j]], corners[f[j+1]])
			}
		}
	}
	c, err := NewCUDA(gputest.Device(t, nil), g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	opt.Mesh, opt.KeepTerminals = true, true
	r, err := c.Evaluate(context.Background(), axioms, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := 0.0
	v := func(i uint32) Vec3 {
		return Vec3{float64(r.Vertices[3*i]), float64(r.Vertices[3*i+1]), float64(r.Vertices[3*i+2])}
	}
	for k := 0; k+2 < len(r.Indices); k += 3 {
		got += triArea(v(r.Indices[k]), v(r.Indices[k+1]), v(r.Indices[k+2]))
	}
	if math.Abs(got-want) > 1e-5*want {
		t.Fatalf("device mesh area %.6f m^2, CPU solids %.6f", got, want)
	}
	t.Logf("mesh area %.3f m^2 on both", got)
}

func triArea(a, b, c Vec3) float64 {
	u, w := minus3(b, a), minus3(c, a)
	x := cross3(u, w)
	return math.Sqrt(dot(x, x)) / 2
}
