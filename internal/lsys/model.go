// Package lsys derives L-systems (parametric, context-sensitive, stochastic,
// bracketed) on the CPU and, behind the `cuda` build tag, on the GPU, after
// Lipp, Wonka and Wimmer, "Parallel Generation of L-Systems" (2009).
//
// The model is shaped for both backends: a module string is a byte per module
// (the module's one-character name, as in ABOP and cpfg) plus a flat array of
// float64 parameters, and every expression is compiled to a small stack
// bytecode that the Go evaluator and the CUDA interpreter run identically, so
// the GPU derives the same string as the CPU for every seed.
package lsys

// Symbol is a module name: ABOP and cpfg name modules with one character.
type Symbol = byte

// MaxParams is the most parameters one module may carry.
const MaxParams = 8

// MaxSlots is the most formal parameters one production may bind (left
// context, strict predecessor and right context together).
const MaxSlots = 24

// String is a derived module string in structure-of-arrays form. Module i is
// Syms[i]; its parameters are Arity[Syms[i]] consecutive values of Params,
// in module order (the parameters of module i start at the sum of the arities
// of modules 0..i-1). Every symbol has one arity per system; the parser
// rejects a module written with a different number of parameters.
type String struct {
	Syms   []Symbol
	Params []float64
}

// Len is the number of modules.
func (s *String) Len() int { return len(s.Syms) }

// Module is one module of a successor, axiom or homomorphism image: a symbol
// and one expression per parameter (constants for the axiom).
type Module struct {
	Sym  Symbol
	Args []Expr
}

// Production is one rule. Modules in contexts bind formal parameters to
// slots: slot numbers count the parameters of Left (in order), then Pred,
// then Right, so a production binds at most MaxSlots values.
type Production struct {
	Left  []Symbol // left context, nearest module last; empty: none
	Pred  Symbol   // strict predecessor
	Right []Symbol // right context, nearest module first; empty: none
	// Cond is evaluated over the slots; the production applies when it is
	// non-zero. A nil Cond is always true.
	Cond *Expr
	// Prob is the production's weight among the productions that match the
	// same module; 1 when the source gave none. See Derive for how
	// stochastic choice works.
	Prob float64
	// Stochastic is true when the source gave an explicit probability.
	Stochastic bool
	Succ       []Module
	// Pos is where the production starts in the source, for error messages.
	Pos Pos
	// Text is the production's source text, for error messages; when empty
	// they rebuild it from the symbols and expression texts.
	Text string
}

// SurfaceRef is a surface name used by ~ and where it is first used.
type SurfaceRef struct {
	Sym Symbol
	Pos Pos
}

// Pos is a source position (1-based line and column).
type Pos struct {
	File      string
	Line, Col int
}

// System is a parsed L-system, ready for either backend.
type System struct {
	Name  string
	Axiom []Module // constant arguments only (#define constants are folded)
	Prods []Production
	// Homomorphism productions rewrite the final string once, at
	// interpretation only; they are not applied recursively. Cut and
	// context apply as for Prods.
	Homo []Production
	// Decomp are decomposition productions (lpfg's decomposition: section):
	// after the axiom and after every derivation step, they rewrite the
	// string again and again, until a pass changes nothing or DecompDepth
	// passes are done (see Derive).
	Decomp      []Production
	DecompDepth int
	// Ignore lists symbols skipped when matching context.
	Ignore [256]bool
	// Surfaces are the surface names (the module after each ~) the axiom
	// and successors use, each at its first use, for the turtle to check
	// against the surfaces it has.
	Surfaces []SurfaceRef
	// Arity is each symbol's parameter count.
	Arity [256]uint8
	// Steps is the derivation length (cpfg's "derivation length").
	Steps int
	// Angle is the turning angle in degrees (cpfg's "angle factor" or
	// ABOP's delta); Width the initial line width; Step the default F
	// length. Tropism is a direction and an elasticity (e = 0: none).
	Angle, Width, Step float64
	Tropism            [3]float64
	Elasticity         float64
	// Defines are the #define constants by name, already folded into every
	// expression; kept for --stats and error messages.
	Defines map[string]float64
}

// Special symbols with a fixed meaning during derivation.
const (
	SymPush Symbol = '['
	SymPop  Symbol = ']'
	// SymCut removes the rest of the current branch (up to the ']' that
	// closes it, or to the end of the string) in the step that produces it.
	SymCut Symbol = '%'
)

// Op is one bytecode instruction of an expression. Operands are float64;
// comparisons and logical operators yield 1 or 0; any non-zero value is true.
type Op uint8

const (
	OpConst Op = iota // push Consts[Arg]
	OpSlot            // push slot Arg (a bound formal parameter)
	OpNeg             // a -> -a
	OpNot             // a -> !a
	OpAdd             // a b -> a+b
	OpSub
	OpMul
	OpDiv // division by zero is an error (ErrDivZero), not Inf
	OpPow // a^b; a<0 with non-integer b is an error (ErrDomain)
	OpLt
	OpLe
	OpGt
	OpGe
	OpEq
	OpNe
	// OpAndJump: if top == 0, leave 0 on the stack and jump to Arg;
	// otherwise pop it. Together with a final OpBool it gives C's
	// short-circuit &&. OpOrJump is the mirror for ||.
	OpAndJump
	OpOrJump
	OpBool // a -> (a != 0)
	// OpCall calls function Arg (a Func) on its operands (1 or 2).
	OpCall
)

// Func is a built-in function. Angles are in degrees for sin, cos, tan and
// results in degrees for asin, acos, atan, atan2, as in cpfg.
type Func uint8

const (
	FnSin Func = iota
	FnCos
	FnTan
	FnAsin
	FnAcos
	FnAtan
	FnAtan2 // 2 args: atan2(y, x)
	FnSqrt
	FnExp
	FnLog
	FnFloor
	FnCeil
	FnTrunc
	FnAbs
	FnSign
	FnMin // 2 args
	FnMax // 2 args
	// The random functions (random.go) take a hidden last operand, a
	// constant the compiler pushes to tell call sites apart: ran(x) is
	// uniform in [0, x) (cpfg), nran(mean, sd) normal (cpfg), uniform(a, b)
	// uniform in [a, b) (L-Py's Python random.uniform).
	FnRan     // 1 arg + site
	FnNran    // 2 args + site
	FnUniform // 2 args + site
	NumFuncs
)

// Args is the function's operand count, the hidden site operand of the
// random functions included.
func (f Func) Args() int {
	switch f {
	case FnAtan2, FnMin, FnMax, FnRan:
		return 2
	case FnNran, FnUniform:
		return 3
	}
	return 1
}

// Random reports whether f draws a random number: its value depends on the
// seed, the step and the module, and its last operand is the call site.
func (f Func) Random() bool { return f == FnRan || f == FnNran || f == FnUniform }

// Instr is one instruction.
type Instr struct {
	Op  Op
	Arg uint16
}

// Expr is a compiled expression: code over a constant pool. Text is the
// source text, for error messages.
type Expr struct {
	Code   []Instr
	Consts []float64
	Text   string
	Pos    Pos
}

// MaxStack bounds an expression's operand stack (the parser rejects deeper
// expressions), so the GPU interpreter can use a fixed-size local array.
const MaxStack = 16
