package turtle

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// TestColorCommands: cpfg's ; adds 1 to the colour index and , subtracts 1
// (never below 0); with a parameter either sets it. Before they were
// ignored and every segment had colour 0.
func TestColorCommands(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []uint16
	}{
		{"F;F,F;;F,,,F", []uint16{0, 1, 0, 2, 0}},
		{"F'F,F", []uint16{0, 1, 0}},
		{"F[;;F]F,;F", []uint16{0, 2, 0, 1}},
		{"F;(5)F;(2)F", []uint16{0, 5, 2}},
		{"F,(7)F,(0)F", []uint16{0, 7, 0}},
	} {
		sys := &lsys.System{Angle: 90, Step: 1, Width: 1}
		s := parseModules(t, sys, tc.src)
		g := interpret(t, sys, s, 1)
		var got []uint16
		for _, sg := range g.Segments {
			got = append(got, sg.Color)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: colours %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestColorCommandsAcrossChunks: a string of many chunks, where the chunk
// summaries compose colour updates (clamped adds), gives every segment the
// colour a sequential walk gives, for any number of workers.
func TestColorCommandsAcrossChunks(t *testing.T) {
	rng := newRand(35)
	const alphabet = ";;,,,'F[]+"
	var syms []byte
	depth := 0
	for len(syms) < 5*chunkSize {
		c := alphabet[rng.IntN(len(alphabet))]
		switch {
		case c == ']' && depth == 0:
			continue
		case c == '[':
			depth++
		case c == ']':
			depth--
		}
		syms = append(syms, c)
	}
	var want []uint16
	var stack []int32
	color := int32(0)
	for _, c := range syms {
		switch c {
		case ';', '\'':
			color = min(color+1, maxColor)
		case ',':
			color = max(color-1, 0)
		case '[':
			stack = append(stack, color)
		case ']':
			color, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case 'F':
			want = append(want, uint16(color))
		}
	}
	if slices.Max(want) < 3 {
		t.Fatalf("the string reaches colour %d only: it tests little", slices.Max(want))
	}
	sys := &lsys.System{Angle: 90, Step: 1, Width: 1}
	for _, workers := range []int{1, 3} {
		g, err := CPU{}.Interpret(context.Background(), sys, &lsys.String{Syms: syms}, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Segments) != len(want) {
			t.Fatalf("%d segments, want %d", len(g.Segments), len(want))
		}
		for i, sg := range g.Segments {
			if sg.Color != want[i] {
				t.Fatalf("workers %d: segment %d has colour %d, want %d", workers, i, sg.Color, want[i])
			}
		}
	}
}

// TestGPUInterprets: a system using , is named as one the CUDA turtle
// hands to the host, with where; one without is not.
func TestGPUInterprets(t *testing.T) {
	sys := &lsys.System{Axiom: []lsys.Module{{Sym: 'A'}}, Prods: []lsys.Production{{Pred: 'A',
		Succ: []lsys.Module{{Sym: 'F'}, {Sym: ';'}, {Sym: 'A'}, {Sym: ','}}, Pos: lsys.Pos{File: "c.l", Line: 3}}}}
	if err := GPUInterprets(sys); err == nil {
		t.Fatal("a system with , is said to run on the GPU turtle")
	} else if want := "c.l:3"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not name %s", err, want)
	}
	sys.Prods[0].Succ = sys.Prods[0].Succ[:3]
	if err := GPUInterprets(sys); err != nil {
		t.Fatalf("a system with ; only: %v", err)
	}
}
