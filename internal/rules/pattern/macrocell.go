package pattern

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Golly's Macrocell format: a "[M2]" line, '#' lines ("#R RULE" the
// rule, "#G N" the generation), then the nodes of a quadtree, numbered
// from 1 in the order given, 0 the empty square of any size. Two-state
// files have 8x8 leaves written as rows of '.' and '*' ended by '$';
// multi-state files have 2x2 leaves "1 NW NE SW SE" of states. A node
// "L NW NE SW SE" is a 2^L square of four children of level L-1; the last
// node is the root. The root's south-east child's top-left cell is at
// Golly's (0, 1), so the root's top-left cell is (-2^(L-1), 1-2^(L-1)).

// MaxMacrocellLevel bounds a tree's level: coordinates stay in int64.
const MaxMacrocellLevel = 62

type mcNode struct {
	level  int
	kids   [4]int32 // nw, ne, sw, se
	bits   uint64   // a two-state leaf: bit 8*row+col
	states [4]uint8 // a multi-state leaf
	pop    int64    // live cells, saturated at maxPop
}

const maxPop = 1 << 40

// ReadMacrocell reads a Macrocell file. Its cells keep Golly's
// coordinates (Placed, X0, Y0: the top-left of their bounding box); the
// box must fit maxW x maxH.
func ReadMacrocell(data []byte, file string, maxW, maxH int) (*Pattern, error) {
	ls := lines(data)
	if len(ls) == 0 || !strings.HasPrefix(ls[0], "[M2]") {
		return nil, errorf(file, 1, 1, "not a Macrocell file: want a first line starting with [M2]")
	}
	p := &Pattern{Placed: true}
	nodes := []mcNode{{}} // node 0: empty
	multi := -1           // unknown until the first leaf
	for i := 1; i < len(ls); i++ {
		ln, lineNo := ls[i], i+1
		switch {
		case strings.TrimSpace(ln) == "":
			continue
		case strings.HasPrefix(ln, "#"):
			if len(nodes) > 1 {
				return nil, errorf(file, lineNo, 1, "a '#' line after the first node (the header comes first)")
			}
			if strings.HasPrefix(ln, "#R") {
				p.Rule, p.RuleLine = strings.TrimSpace(ln[2:]), lineNo
			}
			continue
		}
		var n mcNode
		var err error
		if c := ln[0]; c == '.' || c == '*' || c == '$' {
			if multi == 1 {
				return nil, errorf(file, lineNo, 1, "an 8x8 two-state leaf in a multi-state file")
			}
			multi = 0
			n, err = parseLeaf8(ln, file, lineNo)
		} else {
			n, err = parseMCNode(ln, file, lineNo, nodes, &multi)
		}
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	if len(nodes) == 1 {
		return p, nil // no nodes: an empty universe
	}
	root := nodes[len(nodes)-1]
	for k, n := range nodes[1 : len(nodes)-1] {
		if n.level >= root.level {
			return nil, errorf(file, len(ls), 0, "node %d has level %d, not below the root's %d (the last node is the root)", k+1, n.level, root.level)
		}
	}
	return place(p, nodes, file, len(ls), maxW, maxH)
}

// parseLeaf8 reads a two-state 8x8 leaf.
func parseLeaf8(ln, file string, lineNo int) (mcNode, error) {
	n := mcNode{level: 3}
	row, col := 0, 0
	for i, c := range []byte(ln) {
		switch c {
		case '$':
			row, col = row+1, 0
			continue
		case '.', '*':
		default:
			return n, errorf(file, lineNo, i+1, "unexpected %q in an 8x8 leaf: want '.', '*' or '$'", c)
		}
		if row >= 8 || col >= 8 {
			return n, errorf(file, lineNo, i+1, "a leaf cell past its 8x8 square (row %d, column %d)", row+1, col+1)
		}
		if c == '*' {
			n.bits |= 1 << (8*row + col)
			n.pop++
		}
		col++
	}
	return n, nil
}

// parseMCNode reads "L NW NE SW SE" (or a multi-state leaf "1 a b c d").
func parseMCNode(ln, file string, lineNo int, nodes []mcNode, multi *int) (mcNode, error) {
	var n mcNode
	fields := strings.Fields(ln)
	if len(fields) != 5 {
		return n, errorf(file, lineNo, 1, "want a leaf of '.', '*' and '$' or five numbers \"LEVEL NW NE SW SE\", got %q", ln)
	}
	var v [5]int64
	col := 1
	for k, f := range fields {
		col = strings.Index(ln[col-1:], f) + col
		x, err := strconv.ParseInt(f, 10, 64)
		if err != nil || x < 0 {
			return n, errorf(file, lineNo, col, "%q: want a number 0 or more", f)
		}
		v[k] = x
		col += len(f)
	}
	n.level = int(v[0])
	if n.level == 1 {
		if *multi == 0 {
			return n, errorf(file, lineNo, 1, "a multi-state 2x2 leaf in a two-state file")
		}
		*multi = 1
		for k := range 4 {
			if v[k+1] > MaxState {
				return n, errorf(file, lineNo, 1, "state %d: want 0..%d", v[k+1], MaxState)
			}
			n.states[k] = uint8(v[k+1])
			if v[k+1] != 0 {
				n.pop++
			}
		}
		return n, nil
	}
	lowest := 2 // multi-state nodes above 2x2 leaves
	if *multi == 0 {
		lowest = 4
	}
	if n.level < lowest || n.level > MaxMacrocellLevel {
		return n, errorf(file, lineNo, 1, "level %d: want %d..%d", n.level, lowest, MaxMacrocellLevel)
	}
	for k := range 4 {
		id := v[k+1]
		if id >= int64(len(nodes)) {
			return n, errorf(file, lineNo, 1, "child %d is not a node defined before this line (%d so far)", id, len(nodes)-1)
		}
		if id != 0 && nodes[id].level != n.level-1 {
			return n, errorf(file, lineNo, 1, "child %d has level %d: a level %d node wants children of level %d", id, nodes[id].level, n.level, n.level-1)
		}
		n.kids[k] = int32(id)
		n.pop = min(n.pop+nodes[id].pop, maxPop)
	}
	return n, nil
}

// place collects the live cells of the tree into p, the bounding box of
// Golly's coordinates.
func place(p *Pattern, nodes []mcNode, file string, lastLine, maxW, maxH int) (*Pattern, error) {
	root := len(nodes) - 1
	if nodes[root].pop > int64(maxW)*int64(maxH) {
		return nil, errorf(file, lastLine, 0, "%d live cells: more than the board's %d x %d holds", nodes[root].pop, maxW, maxH)
	}
	type live struct {
		x, y int64
		v    uint8
	}
	var cells []live
	var walk func(id int32, x, y int64)
	walk = func(id int32, x, y int64) {
		n := &nodes[id]
		if n.pop == 0 {
			return
		}
		switch {
		case n.level == 3 && n.bits != 0:
			for b := range 64 {
				if n.bits&(1<<b) != 0 {
					cells = append(cells, live{x + int64(b%8), y + int64(b/8), 1})
				}
			}
		case n.level == 1:
			for k, v := range n.states {
				if v != 0 {
					cells = append(cells, live{x + int64(k%2), y + int64(k/2), v})
				}
			}
		default:
			h := int64(1) << (n.level - 1)
			for k, kid := range n.kids {
				walk(kid, x+h*int64(k%2), y+h*int64(k/2))
			}
		}
	}
	half := int64(1) << (nodes[root].level - 1)
	walk(int32(root), -half, 1-half)
	if len(cells) == 0 {
		return p, nil
	}
	x0, y0, x1, y1 := cells[0].x, cells[0].y, cells[0].x, cells[0].y
	for _, c := range cells {
		x0, y0, x1, y1 = min(x0, c.x), min(y0, c.y), max(x1, c.x), max(y1, c.y)
	}
	if x1-x0 >= int64(maxW) || y1-y0 >= int64(maxH) {
		return nil, errorf(file, lastLine, 0, "the live cells span %d x %d, larger than the board's %d x %d", x1-x0+1, y1-y0+1, maxW, maxH)
	}
	p.W, p.H = int(x1-x0+1), int(y1-y0+1)
	p.X0, p.Y0 = x0, y0
	p.Cells = make([]uint8, p.W*p.H)
	for _, c := range cells {
		p.Cells[int(c.y-y0)*p.W+int(c.x-x0)] = c.v
	}
	return p, nil
}

// WriteMacrocell writes a w x h grid as a Macrocell file, the grid's
// top-left at Golly's (0, 0): two-state leaves unless multi (a rule of
// more than two states, whose Golly algorithms read multi-state files
// only) or a cell above 1. rule, when not "", is written as "#R".
func WriteMacrocell(out io.Writer, cells []uint32, w, h int, rule string, multi bool) error {
	for k, v := range cells[:w*h] {
		if v > MaxState {
			return fmt.Errorf("cell %d (x %d, y %d) holds %d: Macrocell holds states 0..%d", k, k%w, k/w, int32(v), MaxState)
		}
		multi = multi || v > 1
	}
	t := mcTree{cells: cells, w: w, h: h, ids: map[string]int{}}
	level := 4
	if multi {
		level = 2
	}
	for int64(1)<<(level-1) < int64(max(w, h-1)) {
		level++
	}
	half := 1 << (level - 1)
	t.multi = multi
	var b strings.Builder
	b.WriteString("[M2] (procgen)\n")
	if rule != "" {
		fmt.Fprintf(&b, "#R %s\n", rule)
	}
	t.out = &b
	t.build(level, -half, 1-half)
	_, err := out.Write([]byte(b.String()))
	return err
}

// mcTree builds the quadtree of a grid, writing each distinct node once,
// children first.
type mcTree struct {
	cells []uint32
	w, h  int
	multi bool
	ids   map[string]int
	out   *strings.Builder
}

func (t *mcTree) at(x, y int) uint32 {
	if x < 0 || y < 0 || x >= t.w || y >= t.h {
		return 0
	}
	return t.cells[y*t.w+x]
}

// build returns the id of the 2^level square whose top-left is Golly's
// (x, y) (the grid's (x, y)), 0 when it is empty.
func (t *mcTree) build(level, x, y int) int {
	size := 1 << level
	if x >= t.w || y >= t.h || x+size <= 0 || y+size <= 0 {
		return 0
	}
	var line string
	switch {
	case t.multi && level == 1:
		v := [4]uint32{t.at(x, y), t.at(x+1, y), t.at(x, y+1), t.at(x+1, y+1)}
		if v == [4]uint32{} {
			return 0
		}
		line = fmt.Sprintf("1 %d %d %d %d", v[0], v[1], v[2], v[3])
	case !t.multi && level == 3:
		var rows []string
		for r := range 8 {
			row := make([]byte, 8)
			for c := range 8 {
				row[c] = ".*"[t.at(x+c, y+r)]
			}
			rows = append(rows, strings.TrimRight(string(row), "."))
		}
		for len(rows) > 0 && rows[len(rows)-1] == "" {
			rows = rows[:len(rows)-1]
		}
		if len(rows) == 0 {
			return 0
		}
		line = strings.Join(rows, "$") + "$"
	default:
		h := size / 2
		var k [4]int
		for i := range 4 {
			k[i] = t.build(level-1, x+h*(i%2), y+h*(i/2))
		}
		if k == [4]int{} {
			return 0
		}
		line = fmt.Sprintf("%d %d %d %d %d", level, k[0], k[1], k[2], k[3])
	}
	if id, ok := t.ids[line]; ok {
		return id
	}
	id := len(t.ids) + 1
	t.ids[line] = id
	t.out.WriteString(line)
	t.out.WriteByte('\n')
	return id
}
