package lsys_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

// randomSystem writes a random L-system in cpfg notation: parametric
// modules, branches, left and right contexts with parameters, an ignore
// list, conditions, stochastic productions (mixed with deterministic ones),
// cut, empty successors, and expressions over every operator and function.
// Some derive into expression errors or past a module limit, which backends
// must report alike. The CUDA tests derive these on both backends.
func randomSystem(seed uint64) string {
	g := &sysGen{r: rand.New(rand.NewPCG(seed, 0x15c1))}
	return g.system()
}

type sysGen struct {
	r     *rand.Rand
	names []string // formal parameters in scope
}

var genArity = map[byte]int{'A': 1, 'B': 2, 'C': 1, 'F': 1, 'X': 0, '+': 0, '-': 0}

func (g *sysGen) pick(s string) byte { return s[g.r.IntN(len(s))] }

func (g *sysGen) constant() string {
	return []string{"0.5", "1", "2", "0.9", "1.5", "3", "0.25", "0", "7"}[g.r.IntN(9)]
}

func (g *sysGen) leaf() string {
	if len(g.names) > 0 && g.r.IntN(3) > 0 {
		return g.names[g.r.IntN(len(g.names))]
	}
	return g.constant()
}

func (g *sysGen) expr(depth int) string {
	if depth <= 0 || g.r.IntN(3) == 0 {
		return g.leaf()
	}
	a, b := g.expr(depth-1), g.expr(depth-1)
	switch g.r.IntN(16) {
	case 0, 1:
		return "(" + a + "+" + b + ")"
	case 2:
		return "(" + a + "-" + b + ")"
	case 3, 4:
		return a + "*" + g.constant()
	case 5:
		return "(" + a + ")/(" + b + "+1.5)"
	case 6:
		return "sin(" + a + ")*" + b
	case 7:
		return "cos(" + a + "*30)"
	case 8:
		return "sqrt(abs(" + a + "))"
	case 9:
		return "floor(" + a + ")+ceil(" + b + ")"
	case 10:
		return "min(" + a + "," + b + ")"
	case 11:
		return "max(" + a + ",-" + b + ")"
	case 12:
		return "atan2(" + a + "," + b + ")"
	case 13:
		return "exp(" + a + "/20)"
	case 14:
		return "(" + a + ")^2"
	default:
		return "abs(" + a + ")^0.5+trunc(" + b + ")*sign(" + a + ")"
	}
}

func (g *sysGen) cond() string {
	a := g.expr(1)
	switch g.r.IntN(5) {
	case 0:
		return a + " < " + g.constant()
	case 1:
		return a + " >= " + g.expr(1)
	case 2:
		return a + " > 1 && " + g.expr(1) + " != 2"
	case 3:
		return "!(" + a + " <= 0.5) || " + g.expr(1) + " == 0"
	}
	return "1/(" + a + "+0.5) > 0.3" // may divide by zero
}

// module writes sym with arguments (expressions) or formal names (fresh).
func (g *sysGen) module(sym byte, formal bool) string {
	n := genArity[sym]
	if n == 0 {
		return string(sym)
	}
	args := make([]string, n)
	for i := range args {
		if formal {
			args[i] = fmt.Sprintf("p%d", len(g.names))
			g.names = append(g.names, args[i])
		} else {
			args[i] = g.expr(2)
		}
	}
	return string(sym) + "(" + strings.Join(args, ",") + ")"
}

func (g *sysGen) successor() string {
	if g.r.IntN(15) == 0 {
		return "*"
	}
	var b strings.Builder
	n := 1 + g.r.IntN(6)
	for i := 0; i < n; i++ {
		switch k := g.r.IntN(12); {
		case k == 0:
			b.WriteString("[" + g.module(g.pick("+-"), false) + g.module(g.pick("ABCFX"), false) + "]")
		case k == 1 && g.r.IntN(4) == 0:
			b.WriteString("%")
		default:
			b.WriteString(g.module(g.pick("ABCFX+-"), false))
		}
	}
	return b.String()
}

func (g *sysGen) context() []byte {
	var ctx []byte
	for i := 0; i < 1+g.r.IntN(2); i++ {
		ctx = append(ctx, g.pick("ABCFX+"))
	}
	return ctx
}

func (g *sysGen) production(pred byte, stochastic bool) string {
	g.names = g.names[:0]
	var b strings.Builder
	var left, right []byte
	if g.r.IntN(4) == 0 {
		left = g.context()
	}
	if g.r.IntN(4) == 0 {
		right = g.context()
	}
	for _, s := range left {
		b.WriteString(g.module(s, true))
	}
	if len(left) > 0 {
		b.WriteString(" < ")
	}
	b.WriteString(g.module(pred, true))
	if len(right) > 0 {
		b.WriteString(" > ")
		for _, s := range right {
			b.WriteString(g.module(s, true))
		}
	}
	if g.r.IntN(3) == 0 {
		b.WriteString(" : " + g.cond())
	}
	b.WriteString(" --> " + g.successor())
	if stochastic {
		b.WriteString(" : " + []string{"0.2", "1", "0.5", "2", "0"}[g.r.IntN(5)])
	}
	return b.String()
}

func (g *sysGen) system() string {
	var b strings.Builder
	if g.r.IntN(2) == 0 {
		b.WriteString("ignore: " + []string{"+-", "F", "+-F", "X"}[g.r.IntN(4)] + "\n")
	}
	b.WriteString("axiom: ")
	for i := 0; i < 1+g.r.IntN(4); i++ {
		g.names = g.names[:0]
		s := g.pick("ABCFX")
		if n := genArity[s]; n > 0 {
			args := make([]string, n)
			for j := range args {
				args[j] = g.constant()
			}
			b.WriteString(string(s) + "(" + strings.Join(args, ",") + ")")
		} else {
			b.WriteByte(s)
		}
		if g.r.IntN(3) == 0 {
			b.WriteString("[+A(1)]")
		}
	}
	b.WriteString("\n")
	for _, pred := range []byte("ABCFX+") {
		if pred == '+' && g.r.IntN(2) == 0 {
			continue
		}
		stochastic := g.r.IntN(3) == 0
		for i := 0; i < 1+g.r.IntN(3); i++ {
			b.WriteString(g.production(pred, stochastic && g.r.IntN(4) > 0) + "\n")
		}
	}
	return b.String()
}

// TestRandomSystems checks that the generated systems parse and derive on
// the CPU (the CUDA tests compare the two backends on them).
func TestRandomSystems(t *testing.T) {
	fails := 0
	for i := 0; i < 100; i++ {
		src := randomSystem(uint64(i))
		sys, err := syntax.Parse("random.l", []byte(src))
		if err != nil {
			t.Fatalf("system %d: %v\n%s", i, err, src)
		}
		if _, err := (lsys.CPU{}).Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 8, Seed: 1, MaxModules: 400000}); err != nil {
			fails++
		}
	}
	if fails > 60 {
		t.Errorf("%d of 100 random systems fail to derive: the generator should make mostly working systems", fails)
	}
	t.Logf("%d of 100 random systems fail (expression errors or the module limit)", fails)
}
