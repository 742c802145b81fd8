package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
)

func TestEncodeLsysText(t *testing.T) {
	sys, err := syntax.Parse("t.l", []byte("axiom: A(1)\nA(x) -> A(x+1)[-B(x/2)]\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 2})
	if err != nil {
		t.Fatal(err)
	}
	txt := lsysText{sys: sys, final: d.String, deriver: lsys.CPU{}, opts: lsys.DeriveOptions{Steps: 2}}
	var buf bytes.Buffer
	if err := encodeLsysText(context.Background(), &buf, &txt); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "A(3)[-B(1)][-B(0.5)]\n"; got != want {
		t.Errorf("final step: got %q, want %q", got, want)
	}
	txt.allSteps = true
	buf.Reset()
	if err := encodeLsysText(context.Background(), &buf, &txt); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "A(1)\nA(2)[-B(0.5)]\nA(3)[-B(1)][-B(0.5)]\n"; got != want {
		t.Errorf("all steps: got %q, want %q", got, want)
	}
}

func TestEncodeLsysGLB(t *testing.T) {
	sys, err := syntax.Parse("t.l", []byte("axiom: F{-f+f+f-|-f+f+f}\n"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := turtle.CPU{}.Interpret(context.Background(), sys, lsys.Axiom(sys), turtle.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := encodeLsysGLB(context.Background(), &buf, g, lsysOptions{LineWidth: "auto"}, false); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if len(b) < 20 || string(b[:4]) != "glTF" || !bytes.Contains(b, []byte(`"color0"`)) {
		t.Fatalf("not a GLB with a material: %q", b[:min(len(b), 64)])
	}
	// Pixel widths mean nothing in 3D: the tube is relative to the segment.
	if s := lsysTubeScale("auto", g, false); s != 0.01 {
		t.Errorf("tube scale %g, want 0.01", s)
	}
}
