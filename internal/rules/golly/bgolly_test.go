package golly

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// soup is a w x h RLE of random live cells (density 1/2), keyed by seed.
func soup(seed uint64, w, h int) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	fmt.Fprintf(&b, "x = %d, y = %d\n", w, h)
	for y := range h {
		for range w {
			b.WriteByte("bo"[rng.IntN(2)])
		}
		if y < h-1 {
			b.WriteString("$\n")
		}
	}
	b.WriteString("!\n")
	return b.String()
}

// randomHensel is a rule of random Hensel letters: every letter of every
// count 1..7 is in B or S with probability 1/2 each, so a few rules
// touch every letter of the table.
func randomHensel(seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 2))
	var r Rule
	r.Kind, r.Neigh, r.States = Totalistic, Moore, 2
	for n := 1; n <= 7; n++ {
		r.Birth[n] = uint16(rng.IntN(1 << len(henselLetters[n])))
		r.Survive[n] = uint16(rng.IntN(1 << len(henselLetters[n])))
	}
	r.Survive[8] = uint16(rng.IntN(2))
	return r.String()
}

var rleSize = regexp.MustCompile(`x\s*=\s*(\d+)\s*,\s*y\s*=\s*(\d+)`)

// TestAgainstBgolly runs patterns N generations in procgen and in
// Golly's bgolly and compares the live cells up to a translation (bgolly
// writes a pattern's bounding box, not where it lies). An unbounded
// Golly grid is compared with a procgen plane wide enough that nothing
// reaches its edge.
func TestAgainstBgolly(t *testing.T) {
	bgolly, err := exec.LookPath("bgolly")
	if err != nil {
		t.Skip("bgolly (Debian package golly) is not on PATH")
	}
	type tc struct {
		name, rule, algo, pattern string
		w, h, ox, oy, gens        int
	}
	cases := []tc{
		{"gosper gun", "B3/S23", "QuickLife", gosperRLE, 140, 120, 2, 2, 150},
		{"pulsar", "B3/S23", "QuickLife", pulsarRLE, 40, 40, 10, 10, 31},
		{"lwss", "B3/S23", "QuickLife", lwssRLE, 60, 20, 50, 8, 41},
		{"highlife replicator", "B36/S23", "QuickLife", replicatorRLE, 120, 120, 58, 58, 60},
		{"highlife soup", "B36/S23:T48,40", "QuickLife", soup(1, 20, 20), 0, 0, 0, 0, 80},
		{"brian's brain", "/2/3:T40,40", "Generations", soup(2, 16, 16), 0, 0, 0, 0, 60},
		{"brian's brain B/S/C", "B2/S/C3:T40,40", "Generations", soup(2, 16, 16), 0, 0, 0, 0, 60},
		{"star wars", "345/2/4:T40,40", "Generations", soup(3, 16, 16), 0, 0, 0, 0, 40},
		{"generations V", "23/2/5V:T30,30", "Generations", soup(4, 12, 12), 0, 0, 0, 0, 30},
		{"just friends", "B2-a/S12:T40,40", "QuickLife", soup(5, 20, 20), 0, 0, 0, 0, 50},
		{"hexagonal", "B245/S3H:T40,40", "QuickLife", soup(6, 16, 16), 0, 0, 0, 0, 40},
		{"von neumann", "B13/S012V:T40,40", "QuickLife", soup(7, 8, 8), 0, 0, 0, 0, 30},
		{"ltl moore", "R2,C0,M1,S6..9,B7..8,NM:T48,48", "Larger than Life", soup(8, 24, 24), 0, 0, 0, 0, 30},
		{"ltl von neumann", "R3,C0,M0,S3..6,B4..5,NN:T40,40", "Larger than Life", soup(9, 20, 20), 0, 0, 0, 0, 20},
		{"ltl circular decay", "R2,C4,M1,S5..8,B5..6,NC:T40,40", "Larger than Life", soup(10, 20, 20), 0, 0, 0, 0, 20},
	}
	for seed := uint64(1); seed <= 6; seed++ {
		cases = append(cases, tc{"random hensel " + strconv.Itoa(int(seed)), randomHensel(seed) + ":T32,32", "QuickLife", soup(100+seed, 16, 16), 0, 0, 0, 0, 25})
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := filepath.Join(dir, "in.rle")
			out := filepath.Join(dir, "out.rle")
			os.Remove(out)
			body := c.pattern[strings.IndexByte(c.pattern, '\n')+1:]
			m := rleSize.FindStringSubmatch(c.pattern)
			r, err := Parse(c.rule)
			if err != nil {
				t.Fatal(err)
			}
			// Golly 3.3 reads the canonical forms (not B2/S/C3).
			if err := os.WriteFile(in, []byte(fmt.Sprintf("x = %s, y = %s, rule = %s\n%s", m[1], m[2], r, body)), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bgolly, "-a", c.algo, "-m", strconv.Itoa(c.gens), "-o", out, in)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("bgolly: %v: %s", err, msg)
			}
			p, st := start(t, c.rule, c.w, c.h, c.pattern, c.ox, c.oy)
			ours := step(t, p, st, c.gens)
			theirs := readBgolly(t, out)
			if err := sameUpToShift(ours, theirs); err != nil {
				t.Fatalf("%s after %d generations: %v", c.rule, c.gens, err)
			}
			if ours.population() == 0 {
				t.Fatalf("%s: the pattern died out: a weak comparison, choose another", c.rule)
			}
		})
	}
}

// readBgolly reads bgolly's output pattern as a list of live cells.
func readBgolly(t *testing.T, path string) []cell {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := rleSize.FindStringSubmatch(string(data))
	if m == nil {
		t.Fatalf("bgolly's output has no header: %q", data)
	}
	w, _ := strconv.Atoi(m[1])
	h, _ := strconv.Atoi(m[2])
	p, st := start(t, "/2/256", max(w, 1), max(h, 1), string(data), 0, 0)
	var cells []cell
	for k, v := range boardOf(p, st).cells {
		if v != 0 {
			cells = append(cells, cell{k % max(w, 1), k / max(w, 1), v})
		}
	}
	return cells
}

type cell struct {
	x, y int
	v    uint32
}

// sameUpToShift reports whether some shift (modulo the board) moves
// theirs onto the non-zero cells of ours exactly.
func sameUpToShift(ours board, theirs []cell) error {
	n := 0
	for _, v := range ours.cells {
		if v != 0 {
			n++
		}
	}
	if n != len(theirs) {
		return fmt.Errorf("procgen has %d non-zero cells, bgolly %d", n, len(theirs))
	}
	if n == 0 {
		return nil
	}
	for k, v := range ours.cells {
		if v != theirs[0].v {
			continue
		}
		dx, dy := k%ours.w-theirs[0].x, k/ours.w-theirs[0].y
		ok := true
		for _, c := range theirs {
			x, y := ((c.x+dx)%ours.w+ours.w)%ours.w, ((c.y+dy)%ours.h+ours.h)%ours.h
			if ours.cells[y*ours.w+x] != c.v {
				ok = false
				break
			}
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("the %d cells differ (no shift matches)", n)
}
