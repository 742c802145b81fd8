package pga

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

// degenerateSrc makes pieces of no extent, which the grammar keeps and
// counts: walls of no width (a 50 m bay on a narrower facade leaves the
// relative walls nothing) and a slab of no height (a 100 m slab in a 6 m
// box), as footprints.pga's bays do on the short edges of real buildings.
const degenerateSrc = `axiom Quad Lot;
terminal Wall (1, 0);
terminal Bay (2, 1);
terminal Slab (3, 2);
Lot = Extrude(6) Translate(0, ShapeSize(Y) / 2, 0) Block;
Block = Replicate() { SubDiv(Y) { 100: Slab | -1: Slab } | CompSplit() { Discard() | Discard() | Facade } };
Facade = SubDiv(X) { -1: Wall | 50: Bay | -1: Wall };
`

// degenerateCase is degenerateSrc on 20 lots of a grid, its axioms and the
// lots.
func degenerateCase(t *testing.T) (*Grammar, []Shape, []Lot) {
	t.Helper()
	g, err := Parse("degenerate.pga", []byte(degenerateSrc))
	if err != nil {
		t.Fatal(err)
	}
	lots, err := Grid{Cols: 5, Rows: 4, Seed: 3, LotWidth: 20, LotDepth: 25, Street: 10}.Lots()
	if err != nil {
		t.Fatal(err)
	}
	return g, LotAxioms(g.Axioms[0].Kind, lots, 1, 20), lots
}

// Faces of no area get the normal of their scope's face, never a zero
// vector: every normal of the mesh is a unit vector, and the GLB passes
// the Khronos validator (which rejects zero normals) where it is installed.
func TestDegenerateFacesHaveUnitNormals(t *testing.T) {
	g, axioms, _ := degenerateCase(t)
	ts, projs, err := g.evaluateTerms(axioms, Options{})
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	for i := range ts {
		if ts[i].Size[0] == 0 || ts[i].Size[1] == 0 {
			zero++
		}
	}
	if zero == 0 {
		t.Fatal("no piece of no extent: the test tests nothing")
	}
	for i := range ts {
		_, _, normals := g.worldSolid(&ts[i].Shape)
		for _, n := range normals {
			if l := math.Sqrt(dot(n, n)); math.Abs(l-1) > 1e-9 {
				t.Fatalf("%s of size %v: normal %v of length %g", g.TermName(&ts[i]), ts[i].Size, n, l)
			}
		}
	}
	var buf bytes.Buffer
	if err := mesh.EncodeGLB(context.Background(), &buf, g.Mesh(ts, projs), mesh.Options{}); err != nil {
		t.Fatal(err)
	}
	meshtest.ValidateGLB(t, buf.Bytes(), true)
}
