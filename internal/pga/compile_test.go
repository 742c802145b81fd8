package pga

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// compileSources are the grammars the encoding test compiles: the corpus
// (when present) and the example configs.
func compileSources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "*.pga"))
	more, _ := filepath.Glob("../../configs/pga/*.pga")
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	out["inline.pga"] = []byte(`axiom Box A;
terminal T (1,2);
A = Translate(1, -2, Exp(ShapeSize(X) * 0.5)) Rotate(0, 30, 0) SubDiv(Y) { 1: T | -1: If(ShapeNormal(Y) == -1) { B | Generate() } };
B = Repeat(X, -0.25) RandomRule(ShapeSeed()) { 0.5 : T | ShapeCustomAttribute() + 1 : C };
C = SetAsDynamicConvexRightPrism((0,0.5),(-0.5,-0.5),(0.5,-0.5)) Scale(-1, LotAttr(height, 3) * ShapeIndex() / ShapeSiblings(), -1) CompSplit() { T | Discard() | D };
D = Setback(2) { T | Offset(1) { Roof(HIP, 30) T | T } };
`)
	// OperatorGraph's constructs (parse_og_test.go) with a convex polygon:
	// the device has no concave profiles.
	out["og.pga"] = []byte(strings.Replace(ogGrammar, "SetAsDynamicConcavePolygon((-0.5,-0.5),(0.5,-0.5),(0.5,0.5),(0,0),(-0.5,0.5))",
		"SetAsDynamicConvexPolygon((-0.5,-0.5),(0.5,-0.5),(0.5,0.5),(-0.5,0.3))", 1))
	out["ogcolliders.pga"] = []byte(ogColliders)
	return out
}

// walkExprs calls fn for every expression of g and where the program put it.
func walkExprs(p *program, g *Grammar, fn func(x Expr, off int32)) {
	var chain func(ch *Chain, gc gpuChain)
	chain = func(ch *Chain, gc gpuChain) {
		for i, op := range ch.Ops {
			o := p.ops[int(gc.Op0)+i]
			n := 0
			for k, a := range op.Args {
				if opSpecs[op.Kind].args[min(k, len(opSpecs[op.Kind].args)-1)] == argExpr {
					fn(a.Expr, o.Expr[n])
					n++
				}
			}
			for k, b := range op.Branches {
				gb := p.branches[int(o.Branch0)+k]
				if b.Weight != nil {
					fn(b.Weight, gb.Weight)
				}
				chain(b.Body, p.chains[gb.Chain])
			}
		}
	}
	for i, n := range p.rules {
		chain(g.Rules[n].Body, p.chains[p.ruleMain[i]])
	}
}

func TestCompileEncoding(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for name, src := range compileSources(t) {
		t.Run(name, func(t *testing.T) {
			g, err := Parse(name, src)
			if err != nil {
				t.Fatal(err)
			}
			p, err := compileGrammar(g)
			var ue *UnsupportedError
			if errors.As(err, &ue) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			var hdr gpuHeader
			if err := gpu.Decode(p.words[:hdrWords], &hdr); err != nil || hdr != p.hdr {
				t.Fatalf("header %+v, decoded %+v (%v)", p.hdr, hdr, err)
			}
			if int(hdr.NWords) != len(p.words) || int(hdr.NRules) != len(g.Rules) || int(hdr.NTerms) != len(g.TermNames) {
				t.Fatalf("header %+v for %d words, %d rules, %d terminals", hdr, len(p.words), len(g.Rules), len(g.Terminals))
			}
			// Each table decodes back from the words at its offset.
			ops := make([]gpuOp, hdr.NOps)
			if err := gpu.Decode(p.words[hdr.OffOps:], &ops); err != nil {
				t.Fatal(err)
			}
			for i := range ops {
				if ops[i] != p.ops[i] {
					t.Fatalf("op %d: %+v decoded as %+v", i, p.ops[i], ops[i])
				}
			}
			consts := make([]float64, hdr.NConsts)
			if err := gpu.Decode(p.words[hdr.OffConsts:], &consts); err != nil {
				t.Fatal(err)
			}
			for i := range consts {
				if math.Float64bits(consts[i]) != math.Float64bits(p.consts[i]) {
					t.Fatalf("const %d", i)
				}
			}
			for _, off := range []int32{hdr.OffCode, hdr.OffConsts, hdr.OffOps, hdr.OffBranches, hdr.OffChains, hdr.OffRuleChain, hdr.OffProfiles, hdr.OffPoints} {
				if off%2 != 0 || off < hdrWords || off > hdr.NWords {
					t.Fatalf("table offset %d", off)
				}
			}
			// Successors and chains point where the grammar says.
			for i, n := range p.rules {
				ch := p.chains[p.ruleMain[i]]
				r := g.Rules[n]
				if int(ch.NOps) != len(r.Body.Ops) {
					t.Fatalf("rule %s: %d ops, want %d", n, ch.NOps, len(r.Body.Ops))
				}
				switch ch.SuccKind {
				case succRule:
					if p.rules[ch.Succ] != r.Body.Succ {
						t.Fatalf("rule %s: successor %s, want %s", n, p.rules[ch.Succ], r.Body.Succ)
					}
				case succTerminal:
					if ops := r.Body.Ops; len(ops) > 0 && ops[len(ops)-1].Kind == OpInsert {
						// I(): the asset's own kind, ended as Generate() is.
						if g.AssetOf(ch.Succ) == nil || p.ops[int(ch.Op0)+len(ops)-1].Kind != int32(OpGenerate) {
							t.Fatalf("rule %s: terminal %s is not an asset kind ended as Generate()", n, p.terms[ch.Succ].Name)
						}
					} else if p.terms[ch.Succ].Name != r.Body.Succ && p.terms[ch.Succ].Name != n {
						t.Fatalf("rule %s: terminal %s, want %s", n, p.terms[ch.Succ].Name, r.Body.Succ)
					}
				case succNone:
					if r.Body.Succ != "" {
						t.Fatalf("rule %s: no successor, want %s", n, r.Body.Succ)
					}
				}
			}
			// Profiles hold the grammar's points.
			for k := 1; k < len(g.Profiles); k++ {
				pr := p.profiles[k]
				for i, q := range g.Profiles[k] {
					if p.points[2*(int(pr.Start)+i)] != q[0] || p.points[2*(int(pr.Start)+i)+1] != q[1] {
						t.Fatalf("profile %d point %d", k, i)
					}
				}
			}
			// Every compiled expression evaluates as the tree does.
			nx := 0
			ev := &evaluator{g: g, attrs: make([]float64, len(g.LotAttrs))}
			walkExprs(p, g, func(x Expr, off int32) {
				nx++
				for k := 0; k < 20; k++ {
					s := NewAxiom(Box, Vec3{rnd.Float64() * 20, rnd.Float64() * 20, rnd.Float64() * 20}, rnd.Uint64())
					s.Transform = Translation(Vec3{rnd.NormFloat64(), rnd.NormFloat64(), rnd.NormFloat64()}).Mul(
						Rotation(rnd.Float64()*360, float64(90*rnd.IntN(4)), rnd.Float64()*360))
					s.Index, s.Siblings = int32(rnd.IntN(5)), int32(5+rnd.IntN(5))
					for i := range ev.attrs {
						ev.attrs[i] = math.NaN()
						if k%2 == 1 {
							ev.attrs[i] = rnd.Float64()
						}
					}
					env := shapeEnv{&s, ev}
					want, got := x.Eval(env), p.evalCode(off, env)
					if math.Float64bits(want) != math.Float64bits(got) && !(math.IsNaN(want) && math.IsNaN(got)) {
						t.Fatalf("%s: compiled %v, tree %v", x, got, want)
					}
				}
			})
			t.Logf("%d rules, %d chains, %d ops, %d expressions in %d instructions, %d words",
				hdr.NRules, hdr.NChains, hdr.NOps, nx, hdr.NCode, hdr.NWords)
		})
	}
}

func TestCompileRejectsDeepExpressions(t *testing.T) {
	var x Expr = Num(1)
	for i := 0; i < 20; i++ {
		x = Binary{"+", Num(1), x}
	}
	g := &Grammar{Rules: map[string]*Rule{"A": {Name: "A", Body: &Chain{Ops: []*Op{{Kind: OpExtrude, Args: []Arg{{Expr: x}}}}, Succ: "T"}}},
		RuleOrder: []string{"A"}, Terminals: map[string]Terminal{"T": {Name: "T"}}}
	_, err := compileGrammar(g)
	var ue *UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("got %v, want an UnsupportedError", err)
	}
}
