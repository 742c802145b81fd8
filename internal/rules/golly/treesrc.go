package golly

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules"
)

// TreeSource writes a tree as rules-language source: a W x H board c on
// topo (a torus, else a bounded plane whose outside is state 0), one rule
// that walks the tree for each cell. The language has no constant
// arrays and no branches in a precondition, so the walk is a chain of
// lookups, one per depth: the nodes of a depth that the root reaches are
// numbered 0..m-1, and n*S+s (node n, state s of that depth's cell)
// indexes a table of the children's numbers, packed b bits a value into
// 31-bit words and picked out by a sum of (word number == i) * word. The
// code grows with the reachable nodes times the states, not with the
// S^(N+1) neighbourhoods a full table would list.
func TreeSource(t *Tree, topo Topology) string {
	var b strings.Builder
	writeBoard(&b, t.Name, "@TREE", t.States, topo)
	b.WriteString("rule tree over k in 0..W * H\n  let x = k % W\n  let y = k / W\n")
	order := treeOrder(t.Neighbors)
	last := len(order) - 1
	level := []int{len(t.Nodes) - 1} // the nodes of this depth, by number
	node := "0"                      // the expression of this depth's node
	for j, o := range order {
		vals := make([]int, len(level)*t.States)
		ids := map[int]int{}
		var below []int
		for li, n := range level {
			for s, kid := range t.Nodes[n].Kids {
				if j == last {
					vals[li*t.States+s] = kid
					continue
				}
				id, ok := ids[kid]
				if !ok {
					id = len(below)
					ids[kid] = id
					below = append(below, kid)
				}
				vals[li*t.States+s] = id
			}
		}
		key := cellRead(o, topo.Torus)
		if node != "0" {
			key = fmt.Sprintf("(%s) * %d + %s", node, t.States, key)
		}
		// Each let holds a register to the end of the rule (32 in all):
		// one per depth, the node inlined into the next depth's key.
		fmt.Fprintf(&b, "  let t%d = %s\n", j, key)
		node = lookup(fmt.Sprintf("t%d", j), vals)
		level = below
	}
	fmt.Fprintf(&b, "  let next = %s\n", node)
	b.WriteString("  when next != c[k]\n{\n  c[k] = next\n}\n")
	return b.String()
}

// lookup is the expression of vals[key]: the values packed into 31-bit
// words, and word i picked out as the sum over i' <= i of the words'
// differences (key >= first index of word i') * (word i' - word i'-1),
// one compare, multiply and add a word and no let.
func lookup(key string, vals []int) string {
	hi, same := 0, true
	for _, v := range vals {
		hi = max(hi, v)
		same = same && v == vals[0]
	}
	if same {
		return fmt.Sprint(vals[0])
	}
	width := bits.Len(uint(hi))
	per := 31 / width
	words := make([]int, (len(vals)+per-1)/per)
	for i, v := range vals {
		words[i/per] |= v << (width * (i % per))
	}
	mask := 1<<width - 1
	if len(words) == 1 {
		shift := key
		if width > 1 {
			shift = fmt.Sprintf("(%s * %d)", key, width)
		}
		return fmt.Sprintf("(%d >> %s) & %d", words[0], shift, mask)
	}
	sel := fmt.Sprint(words[0])
	for i := 1; i < len(words); i++ {
		switch d := words[i] - words[i-1]; {
		case d > 0:
			sel += fmt.Sprintf(" + (%s >= %d) * %d", key, i*per, d)
		case d < 0:
			sel += fmt.Sprintf(" - (%s >= %d) * %d", key, i*per, -d)
		}
	}
	return fmt.Sprintf("((%s) >> ((%s %% %d) * %d)) & %d", sel, key, per, width, mask)
}

// CompileTree compiles a tree's source (TreeSource) on topo; defines
// override its constants (-D W=256 -D H=256). file names the .rule file
// in messages.
func CompileTree(t *Tree, topo Topology, file string, defines map[string]string) (*rules.Program, error) {
	return rules.Compile(file+" (@TREE "+t.Name+")", []byte(TreeSource(t, topo)), defines)
}
