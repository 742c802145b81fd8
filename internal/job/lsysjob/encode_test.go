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
	if err := encodeGLB(context.Background(), &buf, g, &Options{LineWidth: "auto"}, false); err != nil {
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
