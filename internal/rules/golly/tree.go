package golly

import (
	"fmt"
	"strconv"
	"strings"
)

// A @TREE section (Golly's rule-tree format, its help "File formats"):
// num_states, num_neighbors (4 or 8) and num_nodes, then node lines
// "DEPTH K0 K1 ...", one child per state. A node of depth 1 lists next
// states; a deeper node lists earlier nodes of one depth less. The last
// node, of depth num_neighbors+1, is the root. A cell's next state is
// found by walking from the root, choosing at each depth the child of
// one cell's state, in the order treeOrder gives.

// MaxTreeNodes bounds a tree's node lines (Golly allows 10^8; procgen's
// compiled tree must also fit the kernels' code, which far smaller
// trees already exceed).
const MaxTreeNodes = 1 << 20

// Tree is a parsed @TREE section.
type Tree struct {
	Name      string // @RULE's
	States    int
	Neighbors int        // 4 or 8
	Nodes     []TreeNode // in file order, the root last
}

// TreeNode is one node line: its depth (1 .. Neighbors+1) and its
// children, one per state: next states at depth 1, else node numbers.
type TreeNode struct {
	Depth int
	Kids  []int
}

// treeOrder is the cells a tree reads, root first (dx, dy; y grows
// downwards): N, W, E, S, C for 4 neighbours and NW, NE, SW, SE, N, W,
// E, S, C for 8 (Golly's documented order; the centre is read last).
func treeOrder(neighbors int) [][2]int {
	if neighbors == 4 {
		return [][2]int{{0, -1}, {-1, 0}, {1, 0}, {0, 1}, {0, 0}}
	}
	return [][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}, {0, -1}, {-1, 0}, {1, 0}, {0, 1}, {0, 0}}
}

// Next walks the tree: cells are the states of treeOrder's cells.
func (t *Tree) Next(cells []int) int {
	n := len(t.Nodes) - 1
	for _, s := range cells {
		n = t.Nodes[n].Kids[s]
	}
	return n
}

// parseTree reads the @TREE section that starts at ls[start] (the line
// after "@TREE") and ends at the next line starting with '@'.
func parseTree(ls []string, start int, name, file string) (*Tree, error) {
	t := &Tree{Name: name}
	errorf := func(line, col int, msg string, a ...any) error {
		return &TableError{File: file, Line: line, Col: col, Msg: fmt.Sprintf(msg, a...)}
	}
	nodes, last := -1, start
	for i := start; i < len(ls) && !strings.HasPrefix(ls[i], "@"); i++ {
		ln := strings.TrimRight(ls[i], " \t\r")
		s := strings.TrimLeft(ln, " \t")
		col := len(ln) - len(s) + 1
		if s == "" || s[0] == '#' {
			continue
		}
		last = i
		if key, val, ok := strings.Cut(s, "="); ok {
			if len(t.Nodes) > 0 {
				return nil, errorf(i+1, col, "%s after the first node: the parameters come first", strings.TrimSpace(key))
			}
			n, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				return nil, errorf(i+1, col, "%s=%s: want an integer", strings.TrimSpace(key), strings.TrimSpace(val))
			}
			switch strings.TrimSpace(key) {
			case "num_states":
				if n < 2 || n > MaxStates {
					return nil, errorf(i+1, col, "num_states=%d: want 2..%d", n, MaxStates)
				}
				t.States = n
			case "num_neighbors":
				if n != 4 && n != 8 {
					return nil, errorf(i+1, col, "num_neighbors=%d: want 4 or 8", n)
				}
				t.Neighbors = n
			case "num_nodes":
				if n < 1 || n > MaxTreeNodes {
					return nil, errorf(i+1, col, "num_nodes=%d: want 1..%d", n, MaxTreeNodes)
				}
				nodes = n
			default:
				return nil, errorf(i+1, col, "unknown parameter %q: want num_states, num_neighbors or num_nodes", strings.TrimSpace(key))
			}
			continue
		}
		if t.States == 0 || t.Neighbors == 0 || nodes < 0 {
			return nil, errorf(i+1, col, "want num_states, num_neighbors and num_nodes before the first node")
		}
		if len(t.Nodes) == nodes {
			return nil, errorf(i+1, col, "more node lines than num_nodes=%d", nodes)
		}
		nd, err := t.node(s, func(k int, msg string, a ...any) error { return errorf(i+1, col+k, msg, a...) })
		if err != nil {
			return nil, err
		}
		t.Nodes = append(t.Nodes, nd)
	}
	switch {
	case t.States == 0 || t.Neighbors == 0 || nodes < 0:
		return nil, errorf(last+1, 1, "@TREE wants num_states, num_neighbors and num_nodes")
	case len(t.Nodes) != nodes:
		return nil, errorf(last+1, 1, "%d node lines, but num_nodes=%d", len(t.Nodes), nodes)
	case t.Nodes[nodes-1].Depth != t.Neighbors+1:
		return nil, errorf(last+1, 1, "the last node (the root) has depth %d: want %d", t.Nodes[nodes-1].Depth, t.Neighbors+1)
	}
	return t, nil
}

// node reads one node line; errorf takes the byte offset in s.
func (t *Tree) node(s string, errorf func(int, string, ...any) error) (TreeNode, error) {
	var nd TreeNode
	for k := 0; k < len(s); {
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k == len(s) {
			break
		}
		end := k
		for end < len(s) && s[end] != ' ' && s[end] != '\t' {
			end++
		}
		f := s[k:end]
		v, err := strconv.Atoi(f)
		if err != nil || f[0] < '0' || f[0] > '9' {
			return nd, errorf(k, "%q: want a number", f)
		}
		switch {
		case nd.Depth == 0:
			if v < 1 || v > t.Neighbors+1 {
				return nd, errorf(k, "depth %d: want 1..%d", v, t.Neighbors+1)
			}
			nd.Depth = v
		case len(nd.Kids) == t.States:
			return nd, errorf(k, "more than num_states=%d children", t.States)
		case nd.Depth == 1 && v >= t.States:
			return nd, errorf(k, "state %d: want 0..%d (num_states=%d)", v, t.States-1, t.States)
		case nd.Depth > 1 && v >= len(t.Nodes):
			return nd, errorf(k, "node %d is not defined above (nodes are numbered from 0 in file order)", v)
		case nd.Depth > 1 && t.Nodes[v].Depth != nd.Depth-1:
			return nd, errorf(k, "node %d has depth %d: a node of depth %d points one depth down", v, t.Nodes[v].Depth, nd.Depth)
		default:
			nd.Kids = append(nd.Kids, v)
		}
		k = end
	}
	if len(nd.Kids) != t.States {
		return nd, errorf(len(s), "%d children: want num_states=%d", len(nd.Kids), t.States)
	}
	return nd, nil
}
