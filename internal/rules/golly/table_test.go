package golly

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/rules"
)

// wireWorld is Brian Silverman's WireWorld as a table written here (not
// Golly's file): a head (1) becomes a tail (2), a tail wire (3), a wire
// a head when one or two neighbours are heads.
const wireWorld = `@RULE WireTest
A test table.
@TABLE
n_states:4
neighborhood:Moore
symmetries:permute
var a={0,1,2,3}
var b={0,2,3}
1,a,a,a,a,a,a,a,a,2  # a is bound: this line is 1 with eight equal neighbours
1,a,b,b,b,b,b,b,b,2  # bound across the b's too
2,a,a,a,a,a,a,a,a,3
3,1,b,b,b,b,b,b,b,1
3,1,1,b,b,b,b,b,b,1
`

// randomTable is a table of random transitions over the neighbourhood
// and symmetry: states, single-state and set entries, bound variables,
// variable outputs, so that first-match order, symmetries and bindings
// all matter.
func randomTable(seed uint64, neigh, sym string, states int) string {
	rng := rand.New(rand.NewPCG(seed, 3))
	var b strings.Builder
	fmt.Fprintf(&b, "@RULE Rand%d\n@TABLE\nn_states:%d\nneighborhood:%s\nsymmetries:%s\n", seed, states, neigh, sym)
	b.WriteString("var a={0,1}\nvar b={1,2}\nvar c={0,2}\nvar d={0,1,2}\n")
	n := neighbourCount(neigh)
	// A dead cell among dead ones stays dead: bgolly 3.3 spins on
	// tables that make cells out of nothing.
	b.WriteString(strings.Repeat("0,", n+1) + "0\n")
	lines, vars := 12, 5
	switch {
	case sym == "permute": // every ordering of a line: keep them few
		lines, vars = 8, 9
	case sym == "rotate8reflect":
		lines = 4
	case sym == "rotate6reflect":
		lines = 6
	}
	for range lines {
		var in []string
		for k := range n + 1 {
			switch r := rng.IntN(10); {
			case r < vars || k == 0:
				in = append(in, strconv.Itoa(rng.IntN(states)))
			default:
				in = append(in, string("abcd"[rng.IntN(4)]))
			}
		}
		out := strconv.Itoa(rng.IntN(states))
		if v := in[1+rng.IntN(n)]; rng.IntN(3) == 0 && v[0] >= 'a' {
			out = v
		}
		b.WriteString(strings.Join(in, ",") + "," + out + "\n")
	}
	return b.String()
}

// TestTableAgainstBgolly runs tables in procgen and in bgolly's
// RuleLoader on a torus and compares the boards.
func TestTableAgainstBgolly(t *testing.T) {
	bgolly, err := exec.LookPath("bgolly")
	if err != nil {
		t.Skip("bgolly (Debian package golly) is not on PATH")
	}
	type tc struct {
		name, table string
		states      int
		gens        int
	}
	cases := []tc{{"wireworld", wireWorld, 4, 40}}
	// Seeds (of randomTable) whose tables bgolly 3.3 runs to the end (a
	// few random tables make it spin).
	for _, ns := range []struct {
		neigh, sym string
		seed       uint64
	}{
		{"Moore", "none", 1}, {"Moore", "rotate4", 2}, {"Moore", "rotate8", 3}, {"Moore", "reflect_horizontal", 4},
		{"Moore", "rotate4reflect", 5}, {"Moore", "rotate8reflect", 6},
		{"vonNeumann", "none", 8}, {"vonNeumann", "rotate4", 9}, {"vonNeumann", "reflect_horizontal", 10},
		{"vonNeumann", "permute", 12},
		{"hexagonal", "none", 13}, {"hexagonal", "rotate2", 14}, {"hexagonal", "rotate3", 15}, {"hexagonal", "rotate6", 16},
	} {
		cases = append(cases, tc{ns.neigh + " " + ns.sym, randomTable(ns.seed, ns.neigh, ns.sym, 3), 3, 12})
	}
	for _, name := range []string{"Langtons-Loops", "WireWorld", "Byl-Loop", "Banks-I", "Banks-II", "Banks-IV"} {
		// Golly's own tables where its package ships them (read, not copied).
		if data, err := os.ReadFile(filepath.Join("/usr/share/golly/Rules", name+".rule")); err == nil {
			cases = append(cases, tc{"golly " + name, string(data), 8, 30})
		}
	}
	dir := t.TempDir()
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := tableVsBgolly(t, bgolly, dir, c.table, c.states, c.gens, uint64(ci+1)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// errBgollyTimeout is bgolly running past its time (a few random tables
// make bgolly 3.3 spin).
var errBgollyTimeout = errors.New("bgolly ran past its time")

// tableVsBgolly runs table in procgen and in bgolly's RuleLoader on a
// 32x24 torus from a random board of states 0..states-1 (seeded by
// seed) for gens generations and compares the boards.
func tableVsBgolly(t *testing.T, bgolly, dir, table string, states, gens int, seed uint64) error {
	tab, err := ParseRuleFile([]byte(table), "x.rule")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, tab.Name+".rule"), []byte(table), 0o644); err != nil {
		return err
	}
	const w, h = 32, 24
	p, err := CompileTable(tab, Topology{Torus: true, W: w, H: h}, tab.Name, nil)
	if err != nil {
		return err
	}
	st := rules.Generate(p, 1, seed)
	b, _ := rules.BoardOf(p)
	f := p.Fields[b.Field]
	cells := st.State(0)[f.Off : f.Off+f.Size]
	for k := range cells {
		cells[k] %= uint32(min(states, tab.States))
	}
	in := filepath.Join(dir, tab.Name+"-in.rle")
	out := filepath.Join(dir, tab.Name+"-out.rle")
	os.Remove(out)
	var rle strings.Builder
	if err := rules.WriteRLERule(&rle, p, st.State(0), fmt.Sprintf("%s:T%d,%d", tab.Name, w, h)); err != nil {
		return err
	}
	if err := os.WriteFile(in, []byte(rle.String()), 0o644); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bgolly, "-a", "RuleLoader", "-s", dir+"/", "-m", strconv.Itoa(gens), "-o", out, in)
	if msg, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return errBgollyTimeout
		}
		return fmt.Errorf("bgolly: %v: %s", err, msg)
	}
	ours := runBoard(t, p, st, gens)
	theirs := readBgolly(t, out)
	if err := sameUpToShift(ours, theirs); err != nil {
		return fmt.Errorf("after %d generations: %v", gens, err)
	}
	return nil
}

func runBoard(t *testing.T, p *rules.Program, st *rules.States, n int) board {
	return step(t, p, st, n)
}
