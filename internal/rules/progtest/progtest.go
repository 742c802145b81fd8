// Package progtest writes random rule files for tests: int and float fields
// of several sizes, rules with lets, preconditions, if/else, repeat, = and +=
// writes, every operator and function, optionally draws, and indices that
// sometimes fall outside their array. Tests run them through two
// implementations (the CPU paths, the generated PTX, the emulator) and
// compare. CompileConfig and CompileSrc compile the shipped rule files and
// inline sources for the tests of rules and its sub-packages.
//
// It exists for tests only: nothing in the program imports it. It knows the
// rule language's syntax (and compiles through rules/lang) but nothing of
// engines, states or devices.
package progtest

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/lang"
)

// Gen writes random rule files: int and float fields of several sizes,
// rules with lets, preconditions, if/else, repeat, = and += writes (in place,
// scattered and accumulated), every operator and function, and indices that
// sometimes fall outside their array (faults are part of what must agree).
// Its output is a function of its random source alone, so a test that
// seeds it sees the same programs on every run.
type Gen struct {
	r      *rand.Rand
	fields []genField
	ints   []string // int names in scope (index variable, locals)
	floats []string
	ops    map[string]string // this rule's write operator per field
	sb     strings.Builder
	big    bool // arrays and ranges over several 256-index batches
	draws  bool // expressions may call rand() and uniform(LO, HI)
}

type genField struct {
	name  string
	float bool
	size  int // 0: scalar
}

// New returns a generator drawing from r; with draws, expressions may call
// rand() and uniform(LO, HI).
func New(r *rand.Rand, draws bool) *Gen { return &Gen{r: r, draws: draws} }

// Pick draws from the generator's source an int in [0, n): tests that pick
// a run's options with it keep one reproducible stream.
func (g *Gen) Pick(n int) int { return g.r.IntN(n) }

func (g *Gen) pick(n int) int { return g.r.IntN(n) }

// Program returns the source of the next random rule file.
func (g *Gen) Program() string {
	g.sb.Reset()
	g.fields = nil
	g.big = g.pick(4) == 0
	g.sb.WriteString("state {\n")
	for k := range 2 + g.pick(4) {
		f := genField{name: fmt.Sprintf("f%d", k), float: g.pick(3) == 0}
		if g.pick(4) != 0 {
			f.size = 1 + g.pick(40)
			if g.big {
				f.size = 1 + g.pick(900)
			}
		}
		typ := "int"
		if f.float {
			typ = "float"
		}
		fmt.Fprintf(&g.sb, "  %s %s", typ, f.name)
		if f.size > 0 {
			fmt.Fprintf(&g.sb, "[%d]", f.size)
		}
		switch {
		case f.float:
			g.sb.WriteString(" ~ uniform(-4.0, 4.0)")
		default:
			fmt.Fprintf(&g.sb, " ~ uniform(%d, %d)", -g.pick(5), g.pick(9))
		}
		g.sb.WriteString("\n")
		g.fields = append(g.fields, f)
	}
	g.sb.WriteString("}\n")
	for r := range 1 + g.pick(3) {
		g.ints, g.floats, g.ops = []string{"i"}, nil, map[string]string{}
		lo := g.pick(5)
		n := 1 + g.pick(45)
		if g.big {
			n = 1 + g.pick(1000)
		}
		fmt.Fprintf(&g.sb, "rule r%d over i in %d..%d\n", r, lo, lo+n)
		for range g.pick(3) {
			g.let("  ")
		}
		if g.pick(3) != 0 {
			fmt.Fprintf(&g.sb, "  when %s\n", g.intExpr(3))
		}
		g.sb.WriteString("{\n")
		g.block("  ", 3+g.pick(4), 2)
		g.sb.WriteString("}\n")
	}
	return g.sb.String()
}

func (g *Gen) let(indent string) {
	name := fmt.Sprintf("v%d", len(g.ints)+len(g.floats))
	if g.pick(3) == 0 {
		fmt.Fprintf(&g.sb, "%slet %s = %s\n", indent, name, g.floatExpr(3))
		g.floats = append(g.floats, name)
		return
	}
	fmt.Fprintf(&g.sb, "%slet %s = %s\n", indent, name, g.intExpr(3))
	g.ints = append(g.ints, name)
}

func (g *Gen) block(indent string, n, depth int) {
	ni, nf := len(g.ints), len(g.floats)
	for range n {
		switch k := g.pick(10); {
		case k < 2:
			g.let(indent)
		case k < 3 && depth > 0:
			fmt.Fprintf(&g.sb, "%sif %s {\n", indent, g.intExpr(2))
			g.block(indent+"  ", 1+g.pick(3), depth-1)
			if g.pick(2) == 0 {
				fmt.Fprintf(&g.sb, "%s} else {\n", indent)
				g.block(indent+"  ", 1+g.pick(3), depth-1)
			}
			fmt.Fprintf(&g.sb, "%s}\n", indent)
		case k < 4 && depth > 0:
			fmt.Fprintf(&g.sb, "%srepeat %d {\n", indent, g.pick(4))
			g.block(indent+"  ", 1+g.pick(3), depth-1)
			fmt.Fprintf(&g.sb, "%s}\n", indent)
		case k < 5 && len(g.ints) > 1:
			v := g.ints[1+g.pick(len(g.ints)-1)]
			fmt.Fprintf(&g.sb, "%s%s %s %s\n", indent, v, []string{"=", "+="}[g.pick(2)], g.intExpr(2))
		default:
			f := g.fields[g.pick(len(g.fields))]
			op, ok := g.ops[f.name]
			if !ok {
				op = []string{"=", "+="}[g.pick(2)]
				g.ops[f.name] = op
			}
			lhs := f.name
			if f.size > 0 {
				lhs += "[" + g.index(f.size, 2) + "]"
			}
			val := g.intExpr(2)
			if f.float {
				val = g.floatExpr(2)
			}
			fmt.Fprintf(&g.sb, "%s%s %s %s\n", indent, lhs, op, val)
		}
	}
	g.ints, g.floats = g.ints[:ni], g.floats[:nf]
}

// index is an index into an array of n: mostly in range, sometimes not.
func (g *Gen) index(n, depth int) string {
	switch g.pick(150) {
	case 0:
		return g.intExpr(min(depth, 1))
	case 1:
		return "i"
	case 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20:
		if n > 4 && g.pick(2) == 0 {
			// Stencil shapes: a sum of registers, or register plus constant.
			if g.pick(2) == 0 {
				k := 1 + g.pick(3)
				return fmt.Sprintf("((%s) %% %d) + %d", g.intExpr(min(depth, 1)), n-k, k)
			}
			a := n / 2
			return fmt.Sprintf("(i %% %d) + ((%s) %% %d)", a, g.intExpr(min(depth, 1)), n-a+1)
		}
		return fmt.Sprintf("(i + %d) %% %d", g.pick(3), n)
	}
	return fmt.Sprintf("(%s) %% %d", g.intExpr(depth), n)
}

func (g *Gen) read(float bool, depth int) string {
	var cands []genField
	for _, f := range g.fields {
		if f.float == float {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		if float {
			return "0.5"
		}
		return "i"
	}
	f := cands[g.pick(len(cands))]
	if f.size == 0 {
		return f.name
	}
	return f.name + "[" + g.index(f.size, max(depth-1, 0)) + "]"
}

func (g *Gen) intExpr(depth int) string {
	if g.draws && g.pick(10) == 0 {
		if g.pick(4) != 0 {
			lo := g.pick(8)
			return fmt.Sprintf("uniform(%d, %d)", lo, lo+g.pick(9))
		}
		// Computed bounds: HI below LO faults.
		return fmt.Sprintf("uniform(%s, %s)", g.intExpr(max(depth-1, 0)), g.intExpr(max(depth-1, 0)))
	}
	if depth == 0 || g.pick(4) == 0 {
		switch g.pick(4) {
		case 0:
			return fmt.Sprint(g.pick(20) - 4)
		case 1:
			return g.ints[g.pick(len(g.ints))]
		}
		return g.read(false, depth)
	}
	x, y := g.intExpr(depth-1), g.intExpr(depth-1)
	switch k := g.pick(12); {
	case k < 6:
		ops := []string{"+", "-", "*", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}
		return "(" + x + " " + ops[g.pick(len(ops))] + " " + y + ")"
	case k < 7:
		div := fmt.Sprint([]int{1, 2, 3, 4, 7, 8, 16, -1, -4, 5}[g.pick(10)])
		if g.pick(10) == 0 {
			div = y
		}
		return "(" + x + " " + []string{"/", "%"}[g.pick(2)] + " " + div + ")"
	case k < 8:
		return []string{"-", "!", "~"}[g.pick(3)] + "(" + x + ")"
	case k < 9:
		return fmt.Sprintf("%s(%s, %s)", []string{"min", "max"}[g.pick(2)], x, y)
	case k < 10:
		return "abs(" + x + ")"
	case k < 11:
		return "int(" + g.floatExpr(depth-1) + ")"
	}
	a, b := g.floatExpr(depth-1), g.floatExpr(depth-1)
	return "(" + a + " " + []string{"==", "!=", "<", "<=", ">", ">="}[g.pick(6)] + " " + b + ")"
}

func (g *Gen) floatExpr(depth int) string {
	if g.draws && g.pick(10) == 0 {
		if g.pick(2) == 0 {
			return "rand()"
		}
		return fmt.Sprintf("uniform(%s, %s)", g.floatExpr(max(depth-1, 0)), g.floatExpr(max(depth-1, 0)))
	}
	if depth == 0 || g.pick(4) == 0 {
		switch g.pick(4) {
		case 0:
			return fmt.Sprintf("%.2f", g.r.Float64()*8-4)
		case 1:
			if len(g.floats) > 0 {
				return g.floats[g.pick(len(g.floats))]
			}
		}
		return g.read(true, depth)
	}
	x, y := g.floatExpr(depth-1), g.floatExpr(depth-1)
	switch k := g.pick(8); {
	case k < 4:
		return "(" + x + " " + []string{"+", "-", "*", "/"}[g.pick(4)] + " " + y + ")"
	case k < 5:
		return fmt.Sprintf("%s(%s, %s)", []string{"min", "max"}[g.pick(2)], x, y)
	case k < 6:
		return []string{"abs", "sqrt", "-"}[g.pick(3)] + "(" + x + ")"
	}
	return "float(" + g.intExpr(depth-1) + ")"
}

// Compiled returns up to n programs that compile and that keep (if not nil)
// keeps, with their sources, generating at most tries sources: the loop
// every random-program test runs, compiled as "gen.rules".
func Compiled(g *Gen, n, tries int, keep func(*bytecode.Program) bool) ([]*bytecode.Program, []string) {
	var ps []*bytecode.Program
	var srcs []string
	for k := 0; len(ps) < n && k < tries; k++ {
		src := g.Program()
		p, err := lang.Compile("gen.rules", []byte(src), nil)
		if err != nil || keep != nil && !keep(p) {
			continue
		}
		ps, srcs = append(ps, p), append(srcs, src)
	}
	return ps, srcs
}
