package pattern

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// grid is a random w x h board of states 0..states-1 (density about 1/3
// live), keyed by seed.
func grid(seed uint64, w, h, states int) []uint32 {
	rng := rand.New(rand.NewPCG(seed, 9))
	g := make([]uint32, w*h)
	for k := range g {
		if rng.IntN(3) == 0 {
			g[k] = uint32(1 + rng.IntN(states-1))
		}
	}
	return g
}

// onBoard puts a read pattern back on a w x h board the way the job
// does for a Macrocell's placed cells.
func onBoard(t *testing.T, p *Pattern, w, h int) []uint32 {
	t.Helper()
	b := make([]uint32, w*h)
	for y := range p.H {
		for x := range p.W {
			b[(y+int(p.Y0))*w+x+int(p.X0)] = uint32(p.Cells[y*p.W+x])
		}
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	for _, c := range []struct {
		format      string
		w, h, state int
	}{
		{"cells", 20, 13, 2}, {"cells", 1, 1, 2}, {"mc", 20, 13, 2}, {"mc", 70, 9, 2}, {"mc", 33, 40, 5}, {"mc", 3, 3, 256},
	} {
		for seed := range uint64(3) {
			g := grid(seed, c.w, c.h, c.state)
			g[0] = 1 // a live cell at (0, 0): the read pattern starts there
			var buf bytes.Buffer
			var err error
			if c.format == "cells" {
				err = WriteCells(&buf, g, c.w, c.h, "test")
			} else {
				err = WriteMacrocell(&buf, g, c.w, c.h, "B3/S23", false)
			}
			if err != nil {
				t.Fatal(err)
			}
			var p *Pattern
			if c.format == "cells" {
				p, err = ReadCells(buf.Bytes(), "x.cells", c.w, c.h)
			} else {
				p, err = ReadMacrocell(buf.Bytes(), "x.mc", c.w, c.h)
			}
			if err != nil {
				t.Fatalf("%s %dx%d: %v\n%s", c.format, c.w, c.h, err, buf.String())
			}
			if got := onBoard(t, p, c.w, c.h); !slices.Equal(got, g) {
				t.Fatalf("%s %dx%d states %d seed %d: the board read back differs\n%s", c.format, c.w, c.h, c.state, seed, buf.String())
			}
		}
	}
}

// TestBgollyReadsWhatWeWrite writes boards as .cells and .mc, has bgolly
// read them (0 generations) and write RLE, and compares with our RLE of
// the same board up to bgolly's bounding box.
func TestBgollyReadsWhatWeWrite(t *testing.T) {
	bgolly, err := exec.LookPath("bgolly")
	if err != nil {
		t.Skip("bgolly (Debian package golly) is not on PATH")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		format, algo, rule string
		states             int
	}{
		{"cells", "HashLife", "", 2}, {"mc", "HashLife", "B3/S23", 2}, {"mc", "Generations", "/2/5", 5},
	} {
		const w, h = 30, 20
		g := grid(7, w, h, c.states)
		var buf bytes.Buffer
		in := filepath.Join(dir, "in."+c.format)
		if c.format == "cells" {
			err = WriteCells(&buf, g, w, h, "")
		} else {
			err = WriteMacrocell(&buf, g, w, h, c.rule, c.states > 2)
		}
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(in, buf.Bytes(), 0o644)
		out := filepath.Join(dir, "out.mc")
		os.Remove(out)
		cmd := exec.Command(bgolly, "-a", c.algo, "-m", "0", "-o", out, in)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("bgolly: %v: %s", err, msg)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ReadMacrocell(data, "bgolly.mc", 1<<10, 1<<10)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		// bgolly reads a .cells pattern with its top-left at (0, 0) and
		// keeps a Macrocell's coordinates: its .mc holds our board where
		// we put it.
		want := g
		if p.X0 < 0 || p.Y0 < 0 || p.X0+int64(p.W) > w || p.Y0+int64(p.H) > h {
			t.Fatalf("%s: bgolly's cells lie at (%d, %d) %dx%d, off our %dx%d board", c.format, p.X0, p.Y0, p.W, p.H, w, h)
		}
		if got := onBoard(t, p, w, h); !slices.Equal(got, want) {
			t.Fatalf("%s: bgolly read another board\n%s", c.format, data)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ format, in, want string }{
		{"cells", "!c\n.O\n.x\n", "x.cells:3:2: unexpected 'x'"},
		{"cells", "OOOOO\n", "x.cells:1:5: the pattern is wider"},
		{"mc", "[M2]\n$$*$\n4 1 0 0 9\n", "x.mc:3:1: child 9 is not a node"},
		{"mc", "[M2]\n*********$\n", "x.mc:2:9: a leaf cell past"},
		{"mc", "x\n", "x.mc:1:1: not a Macrocell"},
		{"mcl", "#MCell 4.20\n#GAME Vote\n#L A!\n", "x.mcl:2:7: #GAME vote"},
		{"mcl", "#MCell 4.20\n#GAME Life\n#L 2A$\n#L .Z\n", "x.mcl:4:5: unexpected 'Z'"},
	} {
		var err error
		switch c.format {
		case "cells":
			_, err = ReadCells([]byte(c.in), "x.cells", 4, 4)
		case "mc":
			_, err = ReadMacrocell([]byte(c.in), "x.mc", 64, 64)
		default:
			_, err = ReadMCell([]byte(c.in), "x.mcl", 64, 64)
		}
		var pe *Error
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

func TestMCellRule(t *testing.T) {
	p, err := ReadMCell([]byte("#MCell 4.20\n#GAME Generations\n#RULE 345/2/4\n#BOARD 40x30\n#WRAP 1\n#L 2A$.B3C\n"), "x.mcl", 64, 64)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint8{1, 1, 0, 0, 0, 0, 2, 3, 3, 3}
	if p.Rule != "345/2/4:T40,30" || p.W != 5 || p.H != 2 || !slices.Equal(p.Cells, want) {
		t.Fatalf("got rule %q %dx%d %v", p.Rule, p.W, p.H, p.Cells)
	}
}

func FuzzReaders(f *testing.F) {
	f.Add([]byte("!c\n.O\nOO\n"))
	f.Add([]byte("[M2] (golly 3.3)\n#R B3/S23\n$$..*$\n4 0 1 0 0\n"))
	f.Add([]byte("[M2]\n1 0 1 2 3\n2 1 0 1 1\n"))
	f.Add([]byte("#MCell 4.20\n#GAME Life\n#RULE 23/3\n#L 3A$.A.aB\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, read := range []func([]byte, string, int, int) (*Pattern, error){ReadCells, ReadMacrocell, ReadMCell} {
			p, err := read(data, "f", 64, 48)
			if err != nil {
				continue
			}
			if p.W > 64 || p.H > 48 || len(p.Cells) != p.W*p.H {
				t.Fatalf("a %dx%d pattern of %d cells from %q", p.W, p.H, len(p.Cells), data)
			}
		}
	})
}
