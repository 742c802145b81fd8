package pga

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
)

// sphereGrammar runs a Sphere axiom through the operators OperatorGraph
// keeps it a Sphere through, and turns one into a polygon and one into a
// prism with the SetAs operators.
const sphereGrammar = `axiom Sphere A;
terminal S P R Q (1,0);
A = Replicate() { Translate(1, 2, 3) Rotate(10, 20, 30) Scale(2, -1, -1) S | SubDiv(X) { 1: S | -1: Repeat(Y, 1) S } | RandomRule(ShapeSeed()) { 1: S | 1: S } | IfSizeLess(X, 10) { Collider(b) S | Q } | SetAsDynamicConvexPolygon((0,0.5),(-0.5,-0.5),(0.5,-0.5)) P | SetAsDynamicConcaveRightPrism((0,0),(1,0),(0.5,0.2),(0.5,1)) Extrude(2) CompSplit() { R | R | R } };
`

func TestSphere(t *testing.T) {
	g, ts := evalSrc(t, sphereGrammar, []Shape{NewAxiom(Sphere, Vec3{4, 4, 4}, 1)}, Options{})
	c := count(g, ts)
	// SubDiv: 1 + a 3 m piece tiled by 4 along Y; the prism: 2 caps + 4 sides.
	if c["S"] != 1+1+4+1+1 || c["P"] != 1 || c["R"] != 6 || c["Q"] != 0 {
		t.Fatalf("terminals %v", c)
	}
	for i := range ts {
		s := &ts[i]
		name := g.TermName(s)
		switch {
		case name == "S" && s.Kind != Sphere, name == "P" && (s.Kind != Quad || s.Profile == 0), name == "R" && s.Kind != Quad:
			t.Fatalf("%s is a %v (profile %d)", name, s.Kind, s.Profile)
		}
		if s.Kind != Sphere {
			continue
		}
		// OperatorGraph's mesh: radius size X around the position, world
		// axes (corner 0 is the -Y pole, corner 30·14+15 on the equator).
		corners, faces, normals := g.worldSolid(&s.Shape)
		nc, nt := g.counts(&s.Shape)
		if len(corners) != 900 || nc != 900 || len(faces) != 1682 || nt != 1682 || g.faceCount(&s.Shape) != 1682 {
			t.Fatalf("%d corners (counts %d), %d faces (counts %d)", len(corners), nc, len(faces), nt)
		}
		p, r := pos(*s), s.Size[0]
		for k, q := range corners {
			d := Vec3{q[0] - p[0], q[1] - p[1], q[2] - p[2]}
			if math.Abs(math.Sqrt(dot(d, d))-r) > 1e-9 {
				t.Fatalf("corner %d at %v, %v from the centre %v, want radius %v", k, q, math.Sqrt(dot(d, d)), p, r)
			}
			if k == 0 && !(math.Abs(d[0]) < 1e-9 && near(d[1], -r)) {
				t.Fatalf("corner 0 at %v from the centre, want the -Y pole", d)
			}
		}
		outward := 0
		for f, n := range normals {
			a, b, c := corners[faces[f][0]], corners[faces[f][1]], corners[faces[f][2]]
			if dist(a, b) < 1e-9 || dist(b, c) < 1e-9 || dist(c, a) < 1e-9 {
				continue // the triangles of no area at the poles
			}
			outward++
			if (a[0]-p[0])*n[0]+(a[1]-p[1])*n[1]+(a[2]-p[2])*n[2] <= 0 {
				t.Fatalf("face %d normal %v points inward", f, n)
			}
		}
		if outward != 1682-2*29 {
			t.Fatalf("%d faces with an area, want all but the 58 at the poles", outward)
		}
	}
	// OBJ and the statistics count the sphere's grid.
	var buf bytes.Buffer
	if err := writeOBJ(context.Background(), &buf, g, ts, "", nil); err != nil {
		t.Fatal(err)
	}
	st := g.Stats(ts)
	if v := int64(strings.Count(buf.String(), "\nv ")); v != st.Vertices || st.Vertices < 8*900 {
		t.Errorf("%d v lines, stats say %d", v, st.Vertices)
	}
	if err := writeGLB(context.Background(), &bytes.Buffer{}, g, ts, nil); err != nil {
		t.Fatal(err)
	}
}

// OperatorGraph's compiler refuses CompSplit and Extrude of a Sphere;
// procgen's face operators need a Quad or a Box too.
func TestSphereRefuses(t *testing.T) {
	for _, op := range []string{"CompSplit() { S | S | S }", "Extrude(1) S", "Roof(GABLE, 30) S", "Setback(1) { S | S }", "Offset(1) { S | S }"} {
		g, err := Parse("s.pga", []byte("axiom Sphere A;\nterminal S (1,0);\nA = Translate(1, 0, 0) "+op+";"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = g.Evaluate([]Shape{NewAxiom(Sphere, Vec3{2, 2, 2}, 1)}, Options{})
		if err == nil || !strings.Contains(err.Error(), `rule "A" at s.pga:3:24: `) || !strings.Contains(err.Error(), "of a Sphere") {
			t.Errorf("%s: error %v", op, err)
		}
	}
}

func dist(a, b Vec3) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}
