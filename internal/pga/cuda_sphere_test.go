//go:build cuda

package pga

import (
	"context"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu/gputest"
)

// Sphere axioms on the device: the operators that keep a Sphere, the SetAs
// operators that make a polygon or a convex prism of it (the device has no
// concave profiles), and the sphere mesh against the CPU's corners.
func TestCUDAEquivalenceSphere(t *testing.T) {
	g, axioms := convexSpheres(t, 200)
	runEquivalence(t, g, axioms, 0)
}

// convexSpheres is sphereGrammar with a convex prism (the device has no
// concave profiles) and n Sphere axioms of assorted sizes, turned.
func convexSpheres(t *testing.T, n int) (*Grammar, []Shape) {
	t.Helper()
	src := strings.Replace(sphereGrammar, "SetAsDynamicConcaveRightPrism((0,0),(1,0),(0.5,0.2),(0.5,1))",
		"SetAsDynamicConvexRightPrism((0,0),(1,0),(0.5,1))", 1)
	g, err := Parse("sphere.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var axioms []Shape
	for i := 0; i < n; i++ {
		a := NewAxiom(Sphere, Vec3{1 + float64(i%9), 2 + float64(i%5), 1 + float64(i%3)}, uint64(i))
		a.Transform = Translation(Vec3{float64(i) * 20, float64(i % 7), 0}).Mul(Rotation(float64(i), 2*float64(i), 0))
		axioms = append(axioms, a)
	}
	return g, axioms
}

// The device refuses what the CPU refuses of a Sphere, with the same words.
func TestCUDASphereRefuses(t *testing.T) {
	dev := gputest.Device(t, nil)
	for _, op := range []string{"CompSplit() { S | S | S }", "Extrude(1) S", "Roof(GABLE, 30) S", "Setback(1) { S | S }", "Offset(1) { S | S }"} {
		g, err := Parse("s.pga", []byte("axiom Sphere A;\nterminal S (1,0);\nA = Translate(1, 0, 0) "+op+";"))
		if err != nil {
			t.Fatal(err)
		}
		ax := []Shape{NewAxiom(Sphere, Vec3{2, 2, 2}, 1)}
		_, cpuErr := g.Evaluate(ax, Options{})
		c, err := NewCUDA(dev, g)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cudaModes {
			_, err := c.Evaluate(context.Background(), ax, m.opt)
			want := `rule "A" at s.pga:3:24: ` + strings.Fields(op)[0]
			if i := strings.Index(want, "("); i > 0 {
				want = want[:i]
			}
			if err == nil || cpuErr == nil || !strings.Contains(err.Error(), want+" of a Sphere") ||
				!strings.HasSuffix(cpuErr.Error(), strings.TrimPrefix(err.Error(), "pga: ")) {
				t.Errorf("%s %s: device %v, CPU %v", op, m.name, err, cpuErr)
			}
		}
		c.Close()
	}
}
