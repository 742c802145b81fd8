package golly

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules"
)

// buildTree writes the @TREE of f (cells in treeOrder's order, the
// centre last), merging equal nodes bottom up as Golly's help describes;
// a node is written after its children, so the root comes last.
func buildTree(name string, states, neighbors int, f func(cells []int) int) string {
	var lines []string
	ids := map[string]int{}
	cells := make([]int, neighbors+1)
	var node func(pos int) int
	node = func(pos int) int {
		depth := neighbors + 1 - pos
		kids := make([]string, states)
		for s := range states {
			cells[pos] = s
			if depth == 1 {
				kids[s] = strconv.Itoa(f(cells))
			} else {
				kids[s] = strconv.Itoa(node(pos + 1))
			}
		}
		line := strconv.Itoa(depth) + " " + strings.Join(kids, " ")
		if id, ok := ids[line]; ok {
			return id
		}
		ids[line] = len(lines)
		lines = append(lines, line)
		return len(lines) - 1
	}
	node(0)
	return "@RULE " + name + "\n@TREE\nnum_states=" + strconv.Itoa(states) + "\nnum_neighbors=" + strconv.Itoa(neighbors) +
		"\nnum_nodes=" + strconv.Itoa(len(lines)) + "\n" + strings.Join(lines, "\n") + "\n"
}

// lifeTree is Conway's Life as a tree (8 neighbours, the centre last).
func lifeTree(cells []int) int {
	n := 0
	for _, c := range cells[:8] {
		n += c
	}
	if n == 3 || n == 2 && cells[8] == 1 {
		return 1
	}
	return 0
}

// weightedTree is a rule in which every neighbour position has its own
// weight, so a tree read in another order than Golly's gives other
// boards; the weighted sum modulo 5 keeps the tree small.
func weightedTree(seed uint64, states, neighbors int) func([]int) int {
	rng := rand.New(rand.NewPCG(seed, 4))
	weights := make([]int, neighbors)
	for i := range weights {
		weights[i] = 1 + rng.IntN(4)
	}
	out := make([][5]int, states)
	for c := range out {
		for m := range out[c] {
			out[c][m] = rng.IntN(states)
		}
	}
	// Empty space stays empty: Golly's hashing algorithms (RuleLoader's
	// included) spin on a rule that fills it.
	out[0][0] = 0
	return func(cells []int) int {
		sum := 0
		for i, w := range weights {
			sum += w * cells[i]
		}
		return out[cells[neighbors]][sum%5]
	}
}

func mustTree(t testing.TB, src string) *Tree {
	t.Helper()
	rf, err := ParseRule([]byte(src), "t.rule")
	if err != nil {
		t.Fatal(err)
	}
	if rf.Tree == nil {
		t.Fatal("ParseRule did not read a @TREE")
	}
	return rf.Tree
}

// TestTreeNext: the parsed tree gives f on every neighbourhood.
func TestTreeNext(t *testing.T) {
	for _, c := range []struct {
		states, neighbors int
		f                 func([]int) int
	}{{2, 8, lifeTree}, {3, 4, weightedTree(1, 3, 4)}, {3, 8, weightedTree(2, 3, 8)}} {
		tr := mustTree(t, buildTree("X", c.states, c.neighbors, c.f))
		cells := make([]int, c.neighbors+1)
		checked := 0
		for code := 0; ; code++ {
			rest := code
			for i := range cells {
				cells[i] = rest % c.states
				rest /= c.states
			}
			if rest != 0 {
				break
			}
			if got, want := tr.Next(cells), c.f(cells); got != want {
				t.Fatalf("%d states, %d neighbours, cells %v: next %d, want %d", c.states, c.neighbors, cells, got, want)
			}
			checked++
		}
		if checked < 81 {
			t.Fatalf("checked %d neighbourhoods", checked)
		}
	}
}

// TestTreeLifeMatchesNotation: Life as a tree runs to the same boards as
// B3/S23 (the notation's own program), on a torus and on a plane.
func TestTreeLifeMatchesNotation(t *testing.T) {
	tr := mustTree(t, buildTree("LifeTree", 2, 8, lifeTree))
	for _, torus := range []bool{true, false} {
		topo := Topology{Torus: torus, W: 40, H: 30}
		p, err := CompileTree(tr, topo, "life.rule", nil)
		if err != nil {
			t.Fatal(err)
		}
		notation := "B3/S23:P40,30"
		if torus {
			notation = "B3/S23:T40,30"
		}
		q, st := start(t, notation, 0, 0, soup(11, 30, 20), 5, 5)
		mine := rules.NewStates(p, 1)
		copy(mine.State(0), st.State(0))
		want := step(t, q, st, 60)
		got := step(t, p, mine, 60)
		if want.population() == 0 {
			t.Fatal("the soup died out: a weak comparison")
		}
		for k := range want.cells {
			if got.cells[k] != want.cells[k] {
				t.Fatalf("torus %v: cell %d is %d, B3/S23 gives %d", torus, k, got.cells[k], want.cells[k])
			}
		}
	}
}

func TestTreeErrors(t *testing.T) {
	const head = "@RULE X\n@TREE\nnum_states=2\nnum_neighbors=4\n"
	for _, c := range []struct{ in, want string }{
		{"@RULE X\n@TREE\nnum_states=300\n", "x.rule:3:1: num_states=300"},
		{"@RULE X\n@TREE\nnum_states=2\nnum_neighbors=6\n", "x.rule:4:1: num_neighbors=6"},
		{"@RULE X\n@TREE\nnum_states=2\nnum_neighbors=4\n1 0 1\n", "x.rule:5:1: want num_states"},
		{head + "num_nodes=5\n1 0 2\n", "x.rule:6:5: state 2"},
		{head + "num_nodes=5\n1 0 1\n3 0 0\n", "x.rule:7:3: node 0 has depth 1"},
		{head + "num_nodes=5\n1 0 1\n2 0 7\n", "x.rule:7:5: node 7 is not defined"},
		{head + "num_nodes=5\n1 0 1\n  9 0 0\n", "x.rule:7:3: depth 9"},
		{head + "num_nodes=5\n1 0 1 1\n", "x.rule:6:7: more than num_states"},
		{head + "num_nodes=5\n1 0\n", "x.rule:6:4: 1 children"},
		{head + "num_nodes=5\n1 0 x\n", "x.rule:6:5: \"x\": want a number"},
		{head + "num_nodes=5\n1 0 -1\n", "x.rule:6:5: \"-1\": want a number"},
		{head + "num_nodes=2\n1 0 1\n", "x.rule:6:1: 1 node lines, but num_nodes=2"},
		{head + "num_nodes=1\n1 0 1\n1 1 0\n", "x.rule:7:1: more node lines"},
		{head + "num_nodes=1\n1 0 1\n@COLORS\n", "x.rule:6:1: the last node (the root) has depth 1"},
		{head + "num_nodes=1\n1 0 1\nnum_states=3\n", "x.rule:7:1: num_states after the first node"},
		{head + "bogus=1\n", "x.rule:5:1: unknown parameter"},
		{"@RULE X\n@COLORS\n", "x.rule:3:1: no @TABLE or @TREE"},
	} {
		_, err := ParseRule([]byte(c.in), "x.rule")
		var te *TableError
		if err == nil || !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

// TestRuleFileFirstSection: Golly's RuleLoader uses whichever of @TABLE
// and @TREE comes first.
func TestRuleFileFirstSection(t *testing.T) {
	tree := buildTree("X", 2, 8, lifeTree)
	table := "@TABLE\nn_states:2\nneighborhood:Moore\nsymmetries:permute\n0,1,1,1,0,0,0,0,0,1\n"
	rf, err := ParseRule([]byte(tree+table), "x.rule")
	if err != nil || rf.Tree == nil || rf.Table != nil {
		t.Fatalf("tree first: %+v, %v", rf, err)
	}
	body := strings.TrimPrefix(tree, "@RULE X\n")
	rf, err = ParseRule([]byte("@RULE X\n"+table+body), "x.rule")
	if err != nil || rf.Table == nil || rf.Tree != nil {
		t.Fatalf("table first: %+v, %v", rf, err)
	}
}

func FuzzParseRuleTree(f *testing.F) {
	f.Add([]byte(buildTree("L", 2, 8, lifeTree)))
	f.Add([]byte(buildTree("W", 3, 4, weightedTree(1, 3, 4))))
	f.Add([]byte("@RULE X\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=5\n1 0 1\n2 0 0\n3 1 1\n4 2 2\n5 3 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := ParseRule(data, "f.rule")
		if err != nil {
			var te *TableError
			if !errors.As(err, &te) {
				t.Fatalf("not a TableError: %v", err)
			}
			return
		}
		tr := rf.Tree
		if tr == nil || len(tr.Nodes) > 64 {
			return
		}
		// Every walk stays in the tree and ends on a state.
		cells := make([]int, tr.Neighbors+1)
		for i := range cells {
			cells[i] = i % tr.States
		}
		if s := tr.Next(cells); s < 0 || s >= tr.States {
			t.Fatalf("next state %d of %d", s, tr.States)
		}
		if _, err := CompileTree(tr, Topology{W: 8, H: 8}, "f.rule", nil); err != nil && !strings.Contains(err.Error(), "code") {
			t.Fatalf("CompileTree: %v", err)
		}
	})
}
