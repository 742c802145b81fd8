package lsysjob

import (
	"bytes"
	"context"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
)

func TestEncodeText(t *testing.T) {
	sys, err := syntax.Parse("t.l", []byte("axiom: A(1)\nA(x) -> A(x+1)[-B(x/2)]\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 2})
	if err != nil {
		t.Fatal(err)
	}
	txt := text{sys: sys, final: d.String, deriver: lsys.CPU{}, opts: lsys.DeriveOptions{Steps: 2}}
	var buf bytes.Buffer
	if err := encodeText(context.Background(), &buf, &txt); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "A(3)[-B(1)][-B(0.5)]\n"; got != want {
		t.Errorf("final step: got %q, want %q", got, want)
	}
	txt.allSteps = true
	buf.Reset()
	if err := encodeText(context.Background(), &buf, &txt); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "A(1)\nA(2)[-B(0.5)]\nA(3)[-B(1)][-B(0.5)]\n"; got != want {
		t.Errorf("all steps: got %q, want %q", got, want)
	}
}

func TestEncodeGLB(t *testing.T) {
	sys, err := syntax.Parse("t.l", []byte("axiom: F{-f+f+f-|-f+f+f}\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := turtle.CPU{}.Interpret(context.Background(), sys, lsys.Axiom(sys), turtle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := encodeMesh(context.Background(), &buf, ".glb", g, &Options{LineWidth: "auto", Stems: "auto"}, false, nil, ""); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if len(b) < 20 || string(b[:4]) != "glTF" || !bytes.Contains(b, []byte(`"color0"`)) {
		t.Fatalf("not a GLB with a material: %q", b[:min(len(b), 64)])
	}
	// Pixel widths mean nothing in 3D: the tube is relative to the segment.
	if s := tubeScale("auto", g, false); s != 0.01 {
		t.Errorf("tube scale %g, want 0.01", s)
	}
}

// TestStems: --stems auto fits the mesh to the input: tubes only where the
// geometry leaves its plane or --cylinders asks; a planar system's GLB and
// PLY are lines, or ribbons where it sets widths; OBJ stays lines.
func TestStems(t *testing.T) {
	geom := func(src string) *turtle.Geometry {
		sys, err := syntax.Parse("t.l", []byte("axiom: "+src+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := turtle.CPU{}.Interpret(context.Background(), sys, lsys.Axiom(sys), turtle.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	flat, solid := geom("F+F-F|F"), geom("F&F+F")
	if !flat.Planar() || solid.Planar() {
		t.Fatalf("planar: %v and %v", flat.Planar(), solid.Planar())
	}
	for _, tc := range []struct {
		format    string
		g         *turtle.Geometry
		stems     string
		cylinders int
		widths    bool
		want      string
	}{
		{".glb", flat, "auto", 0, false, "line"},
		{".ply", flat, "auto", 0, true, "ribbon"},
		{".glb", solid, "auto", 0, false, "tube"},
		{".obj", solid, "auto", 0, false, "line"},
		{".glb", flat, "auto", 6, false, "tube"},
		{".obj", flat, "ribbon", 0, false, "ribbon"},
		{".glb", solid, "line", 0, true, "line"},
	} {
		o := &Options{Stems: tc.stems, Cylinders: tc.cylinders, LineWidth: "auto"}
		if got := stems(tc.format, tc.g, o, tc.widths); got != tc.want {
			t.Errorf("%s %s --cylinders %d widths %v: %s, want %s", tc.format, tc.stems, tc.cylinders, tc.widths, got, tc.want)
		}
		mo := meshOptions(tc.format, tc.g, o, tc.widths, nil)
		if (mo.Sides > 2) != (tc.want == "tube") || mo.Ribbons != (tc.want == "ribbon") {
			t.Errorf("%s %s: mesh options %+v for %s", tc.format, tc.stems, mo, tc.want)
		}
	}
}
