package lsys_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// fig131a is ABOP's fig. 1.31(a) (p. 35) typed as the book prints it: the
// #ignore: line, the caption line, ω, labelled productions, → arrows, ∗ for
// "any context" and − (U+2212) for the minus.
const fig131a = `#ignore: +−F
n=30,δ=22.5°
ω : F1F1F1
p1 : 0 < 0 > 0 → 0
p2 : 0 < 0 > 1 → 1[+F1F1]
p3 : 0 < 1 > 0 → 1
p4 : 0 < 1 > 1 → 1
p5 : 1 < 0 > 0 → 0
p6 : 1 < 0 > 1 → 1F1
p7 : 1 < 1 > 0 → 0
p8 : 1 < 1 > 1 → 0
p9 : ∗ < + > ∗ → −
p10 : ∗ < − > ∗ → +
`

// TestFig131aAsPrinted: the book's notation derives the book's strings, and
// S0..S29 (the n = 30 strings of the figure's caption) hold 25,226 modules.
func TestFig131aAsPrinted(t *testing.T) {
	sys, err := syntax.Parse("fig131a.l", []byte(fig131a))
	if err != nil {
		t.Fatal(err)
	}
	if sys.Steps != 30 || sys.Angle != 22.5 || len(sys.Prods) != 10 {
		t.Fatalf("steps %d angle %g productions %d", sys.Steps, sys.Angle, len(sys.Prods))
	}
	for _, s := range "+-F" {
		if !sys.Ignore[s] {
			t.Errorf("%c is not ignored", s)
		}
	}
	want := []string{"F1F1F1", "F1F0F1", "F1F1F1F1", "F1F0F0F1", "F1F0F1[+F1F1]F1", "F1F1F1F1[-F0F1]F1"}
	var got []string
	var buf bytes.Buffer
	enc := lsys.NewEncoder(&buf, sys)
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 29,
		OnStep: func(k int, s *lsys.String) error {
			if k < len(want) {
				got = append(got, string(s.Syms))
			}
			return enc.Encode(context.Background(), s)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("S0..S5 = %v, want %v", got, want)
	}
	if d.Total != 25226 {
		t.Errorf("S0..S29 hold %d modules, want 25,226", d.Total)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 30 || lines[5] != want[5] || lines[29] != string(d.String.Syms) {
		t.Errorf("encoded %d lines; S5 %q", len(lines), lines[min(5, len(lines)-1)])
	}
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	if n != 25226 {
		t.Errorf("the encoded steps hold %d modules, want 25,226", n)
	}
}

// TestContextPlantConfig: configs/lsys/context-plant.l derives S0..S29, the
// paper's "30 iterations" counted as its other rows are: 25,226 modules.
func TestContextPlantConfig(t *testing.T) {
	sys, err := syntax.ParseFile("../../configs/lsys/context-plant.l")
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Steps) != 30 || d.Total != 25226 {
		t.Errorf("%d strings, %d modules; want S0..S29, 25,226", len(d.Steps), d.Total)
	}
}
