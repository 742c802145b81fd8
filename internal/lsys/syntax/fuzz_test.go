package syntax

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input may panic or hang the parser; what it accepts keeps
// the System's invariants, and what it rejects is an *Error with a position.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(configDir, "*.l"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	for _, s := range []string{
		"axiom: A\nA -> B\n",
		"axiom: F\nF -(0.5)-> F[+F]\nF --(0.5)--> F\n",
		"#define a 2\naxiom: A(a)\nA(x) : x > 1 && x < 10 --> A(x*2)B : 0.5\n",
		"axiom: B(1)C(2,3)A(4)\nB(a) C(b,c) < A(d) > D(e) : a+b > c --> X(a,b,c,d,e)\n",
		"ignore: +-F\naxiom: F1F1F1\n0<0>1 -> 1[+F1F1]\n* < + > * -> -\n",
		"consider: AB\naxiom: A\nhomomorphism\nA -> F[+F]\nendlsystem\n",
		"n = 7, δ = 22.5°\nω: F\np1: F → F[+F]F\n",
		"#ignore: +−F\nn=30,δ=22.5°\nω : F1F1F1\np2 : 0 < 0 > 1 → 1[+F1F1]\np10 : ∗ < − > ∗ → +\n",
		"#consider: AB\nω: A(1)\np1: A(x) : x ≥ 1 && x ≠ 2 −(0.5)→ A(x×2)B(x·3)∧(−x)\np2: A(x) –(.5)→ ε\n",
		"#ignore\n#ignore:\nω: F\u00a0F−\n∗ < ∗ > ∗ → ∗\nn = 2, δ = 90˚, n = 3\n",
		"tropism: 0 -1 0 0.2\nangle factor: 16\nwidth: 2\nstep: .5\naxiom: !(1)F(2)/(45)A\n",
		"axiom: A\nA -> B// rolls\nB -> A // comment\n/* block\ncomment */",
		"axiom: F(-2^2, 2^-1, sin(90), atan2(1,1), !0 || 1/0)\n",
		"-(x) -> +(x)\naxiom: -(1)\n",
		"axiom: [F]%F$~.{}'\";,@#&^\\/|*=?\n",
		"axiom: F(((((1)))))\nF(x) -> F(x-(x-(x-(x))))\n",
		"decomposition\n",
		"axiom: A(2)\nA(x) -> A(x+1)B\nmaximum depth: 3\ndecomposition\nA(x) : x > 1 -> [A(x/2)]A(x/2)\nX < B -> %\nhomomorphism\nA(x) < B > * -> F(x)\n",
		"decomposition\nhomomorphism\ndecomposition\n",
		"axiom: ABC[DE][SG[HI[JK]L]MNO]\nBC < S > G[H]M --> X\nA(a)[B(b)]C < D(d) : a+b > d --> E\nX > [ --> Y\n",
		"axiom: F\xff\x00",
		"axiom: FA?P(0,0)\nA > ?P(x,y) : x*x+y*y < 4 --> [+FA?P(0,0)]FA\n?P(x,y) --> *\n",
		"axiom: ?H(0,0,0)?U(1,2)?L(?P)?P(1)?X?\n",
		"axiom: A(1)\nA(x) : ran(1) < 0.5 --> A(x+nran(0,1))B(uniform(x,2*x))\n",
		"axiom: A(ran(1))\n#define R ran(2)\nA -(ran(1))-> B\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sys, err := Parse("f.l", src)
		if err != nil {
			if sys != nil {
				t.Fatalf("Parse returned a system and an error: %v", err)
			}
			asError(t, err)
			return
		}
		checkSystem(t, sys)
		if len(sys.Axiom) == 0 {
			t.Fatalf("accepted without an axiom")
		}
	})
}
