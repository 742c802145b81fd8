package pga

import (
	"fmt"
	"math"
	"testing"
)

// The top face of an extruded quad faces along the quad's normal, whatever
// way the quad lies: a quad turned by Rotate, extruded and split.
func TestExtrudedTopFacesQuadNormal(t *testing.T) {
	for _, rot := range []Vec3{{0, 0, 0}, {-90, 0, 0}, {30, 40, 50}, {0, 90, 0}, {180, 0, 0}, {12, -70, 135}} {
		src := fmt.Sprintf("axiom Quad A;\nterminal Top Bot Side Q (1,0);\nA = Rotate(%g, %g, %g) Replicate() { Q | Extrude(2) CompSplit() { Top | Bot | Side } };",
			rot[0], rot[1], rot[2])
		ts := names2(run(t, src, Vec3{3, 4, 0}, 1))
		q := ts["Q"][0]
		normal := q.Transform.direction(Vec3{0, 0, 1})
		top, bot := ts["Top"][0], ts["Bot"][0]
		for k := 0; k < 3; k++ {
			env := shapeEnv{s: &top.Shape}
			if !near(env.ShapeNormal(Axis(k)), normal[k]) {
				t.Fatalf("rotate %v: top face normal %v, quad normal %v", rot, top.Transform.direction(Vec3{0, 0, 1}), normal)
			}
			// The box is centred on the quad: its top 1 m in front, its bottom 1 m behind.
			if !near(pos(top)[k], normal[k]) || !near(pos(bot)[k], -normal[k]) {
				t.Fatalf("rotate %v: top at %v, bottom at %v, normal %v", rot, pos(top), pos(bot), normal)
			}
		}
		if !near(top.Size[0], 3) || !near(top.Size[1], 4) || len(ts["Side"]) != 4 {
			t.Fatalf("rotate %v: top %v, %d sides", rot, top.Size, len(ts["Side"]))
		}
		// Side faces are perpendicular to the quad and face away from the box's axis.
		for _, s := range ts["Side"] {
			n := s.Transform.direction(Vec3{0, 0, 1})
			if !near(dot(n, normal), 0) || dot(n, pos(s)) <= 0 {
				t.Fatalf("rotate %v: side at %v faces %v", rot, pos(s), n)
			}
		}
	}
}

func names2(ts []TerminalShape) map[string][]TerminalShape {
	g := map[string][]TerminalShape{}
	for _, s := range ts {
		name := []string{"Top", "Bot", "Side", "Q", "T"}[s.Term]
		g[name] = append(g[name], s)
	}
	return g
}

// The faces of a prism's solid point away from its centre, and its CompSplit
// faces lie on those faces: caps at +-Y facing +-Y, sides upright.
func TestPrismAlongY(t *testing.T) {
	src := "axiom Box A;\nterminal Top Bot Side Q T (1,0);\nA = SetAsDynamicConvexRightPrism((0,0.5),(-0.5,-0.5),(0.5,-0.5),(0.5,0.2)) Replicate() { T | CompSplit() { Top | Bot | Side } };"
	g, err := Parse("p.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := g.Evaluate([]Shape{NewAxiom(Box, Vec3{2, 3, 4}, 1)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	by := names2(ts)
	corners, faces, normals := g.worldSolid(&by["T"][0].Shape)
	if len(faces) != 6 {
		t.Fatalf("%d faces", len(faces))
	}
	for i, f := range faces {
		var c Vec3
		for _, k := range f {
			for a := 0; a < 3; a++ {
				c[a] += corners[k][a] / float64(len(f))
			}
		}
		if dot(c, normals[i]) <= 0 {
			t.Fatalf("face %d at %v faces %v, into the solid", i, c, normals[i])
		}
		for _, k := range f {
			if math.Abs(corners[k][1]) > 1.5+1e-9 {
				t.Fatalf("corner %v outside the prism's height 3 along Y", corners[k])
			}
		}
	}
	if n := normals[0]; !near(n[1], 1) || !near(normals[1][1], -1) {
		t.Fatalf("cap normals %v %v, want +Y and -Y", normals[0], normals[1])
	}
	top, bot := by["Top"][0], by["Bot"][0]
	if !near(pos(top)[1], 1.5) || !near(top.Transform.direction(Vec3{0, 0, 1})[1], 1) ||
		!near(pos(bot)[1], -1.5) || !near(bot.Transform.direction(Vec3{0, 0, 1})[1], -1) {
		t.Fatalf("caps at %v and %v", pos(top), pos(bot))
	}
	// Each cap's polygon covers the prism's cap: the same world corners.
	for _, cp := range []TerminalShape{top, bot} {
		cc, _, _ := g.worldSolid(&cp.Shape)
		for _, p := range cc {
			found := false
			for _, q := range corners {
				if near(p[0], q[0]) && near(p[1], q[1]) && near(p[2], q[2]) {
					found = true
				}
			}
			if !found {
				t.Fatalf("cap corner %v is not a corner of the prism", p)
			}
		}
	}
	sides := by["Side"]
	if len(sides) != 4 {
		t.Fatalf("%d sides", len(sides))
	}
	for i, s := range sides {
		n := s.Transform.direction(Vec3{0, 0, 1})
		if !near(n[1], 0) || dot(n, pos(s)) <= 0 || !near(s.Size[1], 3) {
			t.Fatalf("side %d at %v faces %v, size %v", i, pos(s), n, s.Size)
		}
		if s.Index != int32(2+i) {
			t.Fatalf("side %d has index %d", i, s.Index)
		}
	}
	// Side 0 is OperatorGraph's: the edge from the last point to the first,
	// (0.5,0.2) to (0,0.5), at local (0.25·2, ., -0.35·4).
	if p := pos(sides[0]); !near(p[0], 0.5) || !near(p[2], -1.4) {
		t.Fatalf("side 0 at %v", p)
	}
}
