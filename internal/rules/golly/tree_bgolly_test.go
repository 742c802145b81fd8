package golly

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/procgen-dev/procgen/internal/rules"
)

// shippedTrees are rules of Golly's Rules folder with a @TREE section
// that procgen's kernels hold (Evoloop, SDSR-Loop,
// Sand-square4cyclic_emulated and TMGasMargolus_emulated compile to more
// than 8192 code words), of 4 and 8 neighbours and 2 to 64 states.
var shippedTrees = []string{
	"Life", "BriansBrain", "StarWars", "Caterpillars", "LifeOnTheEdge", "LifeOnTheSlope",
	"Langtons-Ant", "LangtonsAnt_LLRR", "Turmite_121181121020", "TriTurmite_120010",
	"AbsoluteTurmite_0N21S10E00S01W11N2", "Ed-rep", "BBM-Margolus-emulated", "DLA-Margolus-emulated",
	"Byl-Loop", "Langtons-Loops", "Chou-Reggia-2",
}

// treeSection is a rule file of data's @TREE section alone, named name:
// the files with a @TABLE first (Byl-Loop, Langtons-Loops) then run
// their tree in bgolly too.
func treeSection(data, name string) string {
	i := strings.Index(data, "\n@TREE")
	if i < 0 {
		return ""
	}
	return "@RULE " + name + data[i:]
}

// TestTreeAgainstBgolly runs trees in procgen and in bgolly's RuleLoader
// on a torus, from a random board, and compares the boards: trees of
// position-weighted rules (another reading order than Golly's gives other
// boards) and Golly's own trees where its package ships them (read at
// test time, not copied).
func TestTreeAgainstBgolly(t *testing.T) {
	bgolly, err := exec.LookPath("bgolly")
	if err != nil {
		t.Skip("bgolly (Debian package golly) is not on PATH")
	}
	type tc struct{ name, file string }
	var cases []tc
	for i, sn := range [][2]int{{3, 4}, {4, 4}, {3, 8}, {2, 8}} {
		name := fmt.Sprintf("Weighted%d", i)
		cases = append(cases, tc{name, buildTree(name, sn[0], sn[1], weightedTree(uint64(10+i), sn[0], sn[1]))})
	}
	cases = append(cases, tc{"LifeTree", buildTree("LifeTree", 2, 8, lifeTree)})
	shipped := 0
	for _, name := range shippedTrees {
		data, err := os.ReadFile(filepath.Join("/usr/share/golly/Rules", name+".rule"))
		if err != nil {
			continue
		}
		shipped++
		cases = append(cases, tc{"golly " + name, treeSection(string(data), "T-"+name)})
	}
	if _, err := os.Stat("/usr/share/golly/Rules"); err == nil && shipped != len(shippedTrees) {
		t.Errorf("Golly's Rules folder has %d of the %d trees", shipped, len(shippedTrees))
	}
	dir := t.TempDir()
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rf, err := ParseRule([]byte(c.file), c.name+".rule")
			if err != nil {
				t.Fatal(err)
			}
			tr := rf.Tree
			if err := os.WriteFile(filepath.Join(dir, rf.Name+".rule"), []byte(c.file), 0o644); err != nil {
				t.Fatal(err)
			}
			const w, h, gens = 32, 24, 30
			p, err := rf.Compile(Topology{Torus: true, W: w, H: h}, c.name, nil)
			if err != nil {
				t.Fatal(err)
			}
			st := rules.Generate(p, 1, uint64(ci+1))
			in := filepath.Join(dir, "in.rle")
			out := filepath.Join(dir, "out.rle")
			os.Remove(out)
			var rle strings.Builder
			if err := rules.WriteRLERule(&rle, p, st.State(0), fmt.Sprintf("%s:T%d,%d", rf.Name, w, h)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(in, []byte(rle.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bgolly, "-a", "RuleLoader", "-s", dir+"/", "-m", strconv.Itoa(gens), "-o", out, in)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("bgolly: %v: %s", err, msg)
			}
			before := boardOf(p, st)
			ours := step(t, p, st, gens)
			theirs := readBgolly(t, out)
			if err := sameUpToShift(ours, theirs); err != nil {
				t.Fatalf("%d states, %d neighbours, after %d generations: %v", tr.States, tr.Neighbors, gens, err)
			}
			if slicesEqual(before.cells, ours.cells) {
				t.Fatal("the board did not change: a weak comparison")
			}
		})
	}
}

func slicesEqual(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
