package syntax

import (
	"strings"
	"testing"
)

func TestErrors(t *testing.T) {
	deep := "axiom: F(" + strings.Repeat("-", 200) + "1)"
	var names []string
	for i := 0; i < 25; i++ {
		names = append(names, "x"+string(rune('a'+i)))
	}
	tooMany := "axiom: Z\nA(" + strings.Join(names[:8], ",") + ") B(" + strings.Join(names[8:16], ",") +
		") < C(" + strings.Join(names[16:24], ",") + ") > D(" + names[24] + ") -> E"
	tests := []struct {
		name, src string
		pos       string // file:line:col
		msg       string // a substring of the message
	}{
		{"missing axiom", "F -> FF\n", "t.l:1:1", "missing axiom"},
		{"~ at the end of the axiom", "axiom: F~", "t.l:1:9", "expected a surface name after '~'"},
		{"~ before a bracket", "axiom: F\nF -> F[~]", "t.l:2:9", "expected a surface name (a letter or digit) after '~', found ']'"},
		{"~ with parameters", "axiom: F\nhomomorphism\nF -> ~(2)L", "t.l:3:6", "'~' takes no parameters"},
		{"empty file", "", "t.l:1:1", "missing axiom"},
		{"no arrow", "axiom: F\nF FF\n", "t.l:2:1", "production without a successor arrow"},
		{"arrow missing after condition", "axiom: F\nF(x) : x > 1 FF -> G", "t.l:2:1",
			"wrong parameter count"},
		{"junk after condition", "axiom: F(1)\nF(x) : x > 1 FF -> G", "t.l:2:14", `expected an arrow (-> or -->), found "FF"`},
		{"unclosed bracket in axiom", "axiom: F[F", "t.l:1:9", "unbalanced brackets: expected a ']'"},
		{"unopened bracket", "axiom: F\nF -> F]F", "t.l:2:7", "unbalanced brackets: expected a '['"},
		{"unclosed bracket in homomorphism", "axiom: F\nhomomorphism\nF -> [F", "t.l:3:6", "unbalanced brackets"},
		{"arity axiom vs predecessor", "axiom: A(1)\nA -> B", "t.l:2:1",
			"wrong parameter count: A has 1 parameter at t.l:1:8 but 0 here"},
		{"arity in successor", "axiom: A(1)\nA(x) -> A(x,x)", "t.l:2:9",
			"wrong parameter count: A has 1 parameter at t.l:1:8 but 2 here"},
		{"arity in context", "axiom: Z\nB(x) < A -> B", "t.l:2:13",
			"wrong parameter count: B has 1 parameter at t.l:2:1 but 0 here"},
		{"arity in homomorphism", "axiom: F(1)\nhomomorphism\nF -> G", "t.l:3:1",
			"wrong parameter count: F has 1 parameter at t.l:1:8 but 0 here"},
		{"arity plural", "axiom: A(1,2)\nA(x) -> B", "t.l:2:1", "A has 2 parameters at t.l:1:8 but 1 here"},
		{"undefined name", "axiom: A(1)\nA(x) -> B(y)", "t.l:2:11", `undefined name "y" (not a parameter`},
		{"undefined in axiom", "axiom: F(x)", "t.l:1:10", `undefined name "x" (axiom arguments must be constants)`},
		{"undefined in define", "#define a b+1", "t.l:1:11", `undefined name "b"`},
		{"define used before definition", "#define a b\n#define b 1\naxiom: F", "t.l:1:11", `undefined name "b"`},
		{"parameter in probability", "axiom: Z\nA(x) -(x)-> B", "t.l:2:8", "a probability must be a constant"},
		{"function without parentheses", "axiom: F(sin)", "t.l:1:10", "function sin needs its arguments"},
		{"bad UTF-8", "axiom: F\xff", "t.l:1:9", "invalid UTF-8"},
		{"bad UTF-8 in comment", "/* \xc3 */ axiom: F", "t.l:1:4", "invalid UTF-8"},
		{"control character", "axiom: F\x01", "t.l:1:9", "control character U+0001"},
		{"NUL", "axiom: F\n\x00", "t.l:2:1", "control character U+0000"},
		{"C1 control", "axiom: F\u0085", "t.l:1:9", "control character U+0085"},
		{"non-ASCII module", "axiom: Fé", "t.l:1:9", "expected a module, found 'é' (U+00E9)"},
		{"unterminated comment", "axiom: F /* x", "t.l:1:10", "unterminated comment"},
		{"decomposition twice", "axiom: F\ndecomposition\nF -> G\ndecomposition", "t.l:4:1", "duplicate decomposition section"},
		{"decomposition words", "axiom: F\ndecomposition: now", "t.l:2:16", "expected end of line or warnings after decomposition"},
		{"second homomorphism", "axiom: F\nhomomorphism\nhomomorphism", "t.l:3:1", "duplicate homomorphism"},
		{"duplicate axiom", "axiom: F\naxiom: G", "t.l:2:1", "duplicate axiom: first given at t.l:1:1"},
		{"duplicate angle", "angle: 3\ndelta: 4\naxiom: F", "t.l:2:1", "duplicate angle"},
		{"duplicate steps", "derivation length: 3\nn = 4\naxiom: F", "t.l:2:1", "duplicate derivation length"},
		{"second Lsystem", "Lsystem: a\nLsystem: b\naxiom: F", "t.l:2:1", "expected one L-system per file"},
		{"include", "#include \"x.h\"\naxiom: F", "t.l:1:1", "#include is not supported"},
		{"define macro", "#define f(x) x\naxiom: F", "t.l:1:10", "#define with parameters is not supported"},
		{"define without value", "#define a\naxiom: F", "t.l:1:10", "expected a value"},
		{"define twice", "#define a 1\n#define a 2\naxiom: F", "t.l:2:9", "a redefined: first defined at t.l:1:9"},
		{"define function name", "#define sin 1\naxiom: F", "t.l:1:9", "sin is a built-in function"},
		{"define division by zero", "#define a 1/0\naxiom: F", "t.l:1:11", "division by zero"},
		{"define domain", "#define a sqrt(-1)\naxiom: F", "t.l:1:11", "domain"},
		{"define overflow", "#define a 1e300*1e300\naxiom: F", "t.l:1:11", "not finite"},
		{"too deep", "axiom: A(1)\nA(x) -> B(" + strings.Repeat("x-(", 16) + "x" + strings.Repeat(")", 16) + ")",
			"t.l:2:11", "expression too complex: it needs a stack of 17 values, at most 16 values"},
		{"nested too deeply", deep, "t.l:1:", "nested too deeply"},
		{"function arity", "axiom: F(min(1))", "t.l:1:10", "min takes 2 arguments, found 1"},
		{"function arity 1", "axiom: F(sqrt(1, 2))", "t.l:1:10", "sqrt takes 1 argument, found 2"},
		{"unknown function", "axiom: F(foo(1))", "t.l:1:10", `unknown function "foo"`},
		{"bracket parameters", "axiom: [(1)F]", "t.l:1:8", "'[' takes no parameters"},
		{"cut parameters", "axiom: F\nF -> %(1)", "t.l:2:6", "'%' takes no parameters"},
		{"too many parameters", "axiom: F(1,2,3,4,5,6,7,8,9)", "t.l:1:8", "too many parameters: F has more than 8"},
		{"too many slots", tooMany, "t.l:2:", "too many parameters in one production: expected at most 24"},
		{"duplicate parameter", "axiom: Z\nA(x) < B(x) -> C", "t.l:2:10", `duplicate parameter "x": also at t.l:2:3`},
		{"parameter hides define", "#define x 1\naxiom: Z\nA(x) -> B", "t.l:3:3", `parameter "x" hides the #define at t.l:1:9`},
		{"two predecessors", "axiom: Z\nA B -> C", "t.l:2:3", "expected an arrow after the predecessor A, found 'B' (a left context needs '<')"},
		{"missing predecessor", "axiom: Z\n-> C", "t.l:2:1", `expected a predecessor module, found arrow "->"`},
		{"missing left context", "axiom: Z\n< A -> C", "t.l:2:1", "expected a left context before '<'"},
		{"missing right context", "axiom: Z\nA > -> C", "t.l:2:5", `expected a right context after '>', found arrow "->"`},
		{"bracket in right context", "axiom: Z\nA > [B C -> D", "t.l:2:5", "unbalanced brackets: expected a ']' to close this '['"},
		{"bracket in left context", "axiom: Z\nB] < A -> D", "t.l:2:2", "unbalanced brackets: expected a '[' before this ']'"},
		{"bracket predecessor", "axiom: Z\n[ -> C", "t.l:2:1", "brackets are never rewritten"},
		{"number as parameter name", "axiom: Z\nA(1) -> B", "t.l:2:3", "expected a parameter name in A(...), found '1'"},
		{"unknown directive", "seed: 1\naxiom: F", "t.l:1:1", `unknown directive "seed"`},
		{"missing colon", "axiom F", "t.l:1:1", `expected ':' after "axiom"`},
		{"after endlsystem", "axiom: F\nendlsystem\nF -> G", "t.l:3:1", "expected nothing after endlsystem"},
		{"single =", "axiom: Z\nA(x) : x = 1 -> B", "t.l:2:10", "expected '==' to compare, found '='"},
		{"single &", "axiom: Z\nA(x) : x & 1 -> B", "t.l:2:10", "expected '&&', found '&'"},
		{"single |", "axiom: Z\nA(x) : x | 1 -> B", "t.l:2:10", "expected '||', found '|'"},
		{"probability twice", "axiom: Z\nA -(0.5)-> B : 0.5", "t.l:2:16", "probability given twice"},
		{"negative probability", "axiom: Z\nA --> B : -1", "t.l:2:11", "expected a probability of at least 0, found -1"},
		{"junk after probability", "axiom: Z\nA --> B : 1 C", "t.l:2:13", "expected end of line after the probability, found 'C'"},
		{"ignore and consider", "ignore: F\nconsider: G\naxiom: F", "t.l:2:11", "cannot be combined with ignore"},
		{"ignore bracket", "ignore: [\naxiom: F", "t.l:1:9", "brackets delimit branches"},
		{"empty axiom", "axiom:", "t.l:1:7", "expected the axiom's modules"},
		{"axiom with colon", "axiom: F : 1", "t.l:1:10", "expected a module, found ':'"},
		{"negative steps", "derivation length: -1\naxiom: F", "t.l:1:20", "derivation length: expected a whole number"},
		{"fractional steps", "derivation length: 1.5\naxiom: F", "t.l:1:20", "found 1.5"},
		{"zero angle factor", "angle factor: 0\naxiom: F", "t.l:1:15", "positive number of divisions"},
		{"tropism count", "tropism: 1 2\naxiom: F", "t.l:1:10", "expected 3 or 4 values"},
		{"unclosed parameters", "axiom: F(1", "t.l:1:11", "expected ',' or ')' to close the '(' at column 9, found end of line"},
		{"unclosed parameter list", "axiom: F((1)", "t.l:1:13", "expected ',' or ')' to close the '(' at column 9"},
		{"unclosed parenthesis", "axiom: F((1, 2)", "t.l:1:12", "expected ')' to close the '(' at column 10, found ','"},
		{"stray parenthesis", "axiom: F\nF -> )", "t.l:2:6", "expected a module, found ')'"},
		{"number out of range", "axiom: F(1e999)", "t.l:1:10", "out of range"},
		{"empty expression", "axiom: F(1,)", "t.l:1:12", "expected an expression, found ')'"},
		{"empty condition", "axiom: Z\nA : -> B", "t.l:2:5", `expected an expression, found arrow "->"`},
		{"unknown caption", "m = 4\naxiom: F", "t.l:1:1", `unknown caption value "m"`},
		{"not a statement", "axiom: F\n(x)", "t.l:2:1", "production without a successor arrow"},
		{"bad homomorphism option", "axiom: F\nhomomorphism: loud", "t.l:2:15", "expected end of line or warnings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sys, err := Parse("t.l", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tt.src, sys)
			}
			e := asError(t, err)
			msg := err.Error()
			if !strings.HasPrefix(msg, tt.pos) || !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("Parse(%q):\n got  %s\n want %s...: ...%s...", tt.src, msg, tt.pos, tt.msg)
			}
			if !strings.HasPrefix(msg, posString(e.Pos)+": ") {
				t.Errorf("Error() = %q does not start with file:line:col", msg)
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	_, err := Parse("dir/plant.l", []byte("axiom: A(1)\nA(x) -> B(y)\n"))
	if got, want := err.Error(), `dir/plant.l:2:11: undefined name "y" (not a parameter of this production or a #define)`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	_, err = Parse("", []byte("F"))
	if got := err.Error(); !strings.HasPrefix(got, "<input>:1:1: ") {
		t.Errorf("no file name: %s", got)
	}
}
