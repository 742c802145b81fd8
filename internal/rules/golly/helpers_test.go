package golly

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules"
)

// Patterns (public facts: the standard forms in LifeWiki and Golly's
// pattern collection).
const (
	gliderRLE = "x = 3, y = 3\nbo$2bo$3o!\n"
	lwssRLE   = "x = 5, y = 4\nbo2bo$o4b$o3bo$4o!\n"
	pulsarRLE = "x = 13, y = 13\n2b3o3b3o2b2$o4bobo4bo$o4bobo4bo$o4bobo4bo$2b3o3b3o2b2$2b3o3b3o2b$o4bobo4bo$o4bobo4bo$o4bobo4bo2$2b3o3b3o!\n"
	gosperRLE = "x = 36, y = 9\n24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o!\n"
	// HighLife's replicator (B36/S23).
	replicatorRLE = "x = 5, y = 5\n2b3o$bo2bo$o3bo$o2bo$3o!\n"
)

// board is one state's cells, w x h.
type board struct {
	w, h  int
	cells []uint32
}

func (b board) population() int {
	n := 0
	for _, v := range b.cells {
		if v == 1 {
			n++
		}
	}
	return n
}

// start compiles notation on a w x h board (ignored when the notation
// gives its size) and puts the RLE pattern with its top-left corner at
// (ox, oy).
func start(t testing.TB, notation string, w, h int, rle string, ox, oy int) (*rules.Program, *rules.States) {
	t.Helper()
	r, err := Parse(notation)
	if err != nil {
		t.Fatal(err)
	}
	defs := map[string]string{"W": strconv.Itoa(w), "H": strconv.Itoa(h)}
	if r.Topo.W != 0 {
		defs = nil
	}
	p, err := Compile(r, defs)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.ReadStatesRLE(strings.NewReader(rle), "pattern.rle", p)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rules.BoardOf(p)
	f := p.Fields[b.Field]
	cells := st.State(0)[f.Off : f.Off+f.Size]
	moved := make([]uint32, len(cells))
	for k, v := range cells {
		if v != 0 {
			x, y := k%b.W+ox, k/b.W+oy
			if x >= b.W || y >= b.H {
				t.Fatalf("the pattern does not fit at (%d, %d) on %dx%d", ox, oy, b.W, b.H)
			}
			moved[y*b.W+x] = v
		}
	}
	copy(cells, moved)
	return p, st
}

// step runs n steps on the CPU and returns the first state's board.
func step(t testing.TB, p *rules.Program, st *rules.States, n int) board {
	t.Helper()
	if _, err := (rules.CPU{}).Run(context.Background(), p, st, rules.Options{Steps: n, NoFiredPerStep: true}); err != nil {
		t.Fatal(err)
	}
	return boardOf(p, st)
}

func boardOf(p *rules.Program, st *rules.States) board {
	b, _ := rules.BoardOf(p)
	f := p.Fields[b.Field]
	return board{b.W, b.H, append([]uint32(nil), st.State(0)[f.Off:f.Off+f.Size]...)}
}
