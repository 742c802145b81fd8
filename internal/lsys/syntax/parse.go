package syntax

import (
	"context"
	"fmt"
	"strings"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/lsys"
)

// Defaults for what a source does not say.
const (
	DefaultAngle = 90 // degrees
	DefaultWidth = 1
	DefaultStep  = 1
	DefaultSteps = 1
)

// ParseFile reads and parses the L-system file at path; see Parse.
func ParseFile(path string) (*lsys.System, error) {
	return ParseFileContext(context.Background(), path)
}

// ParseFileContext is ParseFile whose read of path (bounded as every
// source file is) stops when ctx ends.
func ParseFileContext(ctx context.Context, path string) (*lsys.System, error) {
	src, err := input.ReadFile(ctx, path, input.Source)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse reads one L-system in ABOP or cpfg notation (configs/lsys/README.md
// describes it). file labels positions in errors, which are *Error values.
func Parse(file string, src []byte) (*lsys.System, error) {
	s, err := newSource(file, src)
	if err != nil {
		return nil, err
	}
	p := &parser{
		s:       s,
		seen:    map[string]int{},
		defined: map[string]int{},
		sys: &lsys.System{
			Angle: DefaultAngle, Width: DefaultWidth, Step: DefaultStep, Steps: DefaultSteps,
			DecompDepth: DefaultDecompDepth,
			Defines:     map[string]float64{},
		},
	}
	for i := range p.arity {
		p.arity[i] = -1
	}
	if err := s.statements(p.statement); err != nil {
		return nil, err
	}
	return p.finish()
}

type section uint8

const (
	inProductions section = iota
	inHomomorphism
	inDecomposition
	afterEnd
)

// DefaultDecompDepth bounds the passes of decomposition after each step
// when the file gives no "maximum depth:".
const DefaultDecompDepth = 64

type parser struct {
	s       *source
	sys     *lsys.System
	section section
	arity   [256]int       // -1: not seen yet
	arityAt [256]int       // where each symbol's arity was first seen
	seen    map[string]int // directive -> the statement that gave it
	stmt    int            // offset of the current statement
	defined map[string]int // #define name -> offset
	sets    [2]*[256]bool  // ignore:, consider: symbols; nil when not given
}

// statement parses one line of the blanked text.
func (p *parser) statement(start, end int) error {
	c := &cursor{s: p.s, i: start, end: end}
	c.skip()
	if c.atEnd() {
		return nil
	}
	p.stmt = c.i
	if p.section == afterEnd {
		return c.errorf(c.i, "expected nothing after endlsystem, found %s", c.found())
	}
	if c.peek() == '#' && isLetter(c.peekAt(1)) {
		// ABOP prints "#ignore: +-F" (and cpfg accepts "#define").
		d := *c
		d.i++
		if name, ok := p.directiveName(&d); ok && (name == "ignore" || name == "consider") {
			return p.directive(name, &d)
		}
		return p.preprocessor(c)
	}
	if name, ok := p.directiveName(c); ok {
		return p.directive(name, c)
	}
	if p.s.hasArrow(c.i, c.end) {
		return p.production(c)
	}
	if p.isCaption(c) {
		return p.caption(c)
	}
	return p.notAStatement(c)
}

// directives lists what may stand before a colon; bare ones may also stand
// alone on a line.
const directives = "lsystem, derivation length, axiom, ignore, consider, angle, delta, angle increment, " +
	"angle factor, width, line width, step, step size, tropism, tropism direction, elasticity, " +
	"initial elasticity, maximum depth, homomorphism, decomposition, warnings, no warnings, endlsystem"

func isDirective(name string) bool {
	return strings.Contains(", "+directives+", ", ", "+name+", ")
}

func isBare(name string) bool {
	switch name {
	case "homomorphism", "decomposition", "warnings", "no warnings", "endlsystem":
		return true
	}
	return false
}

// directiveName recognizes "words:" with known words (case-insensitive, any
// spacing), a bare keyword line, and ABOP's "ω:"; it leaves the cursor after
// the colon.
func (p *parser) directiveName(c *cursor) (string, bool) {
	if c.has(omegaRune) {
		j := c.i + len(omegaRune)
		for j < c.end && isSpace(c.s.text[j]) {
			j++
		}
		if j < c.end && c.s.text[j] == ':' {
			c.i = j + 1
			return "axiom", true
		}
	}
	j := c.i
	for j < c.end && (isLetter(c.s.text[j]) || isSpace(c.s.text[j])) {
		j++
	}
	name := strings.Join(strings.Fields(strings.ToLower(string(c.s.text[c.i:j]))), " ")
	switch {
	case j < c.end && c.s.text[j] == ':' && isDirective(name):
		c.i = j + 1
		return name, true
	case j == c.end && isBare(name):
		c.i = j
		return name, true
	}
	return "", false
}

// notAStatement explains a line that is neither a directive nor a production.
func (p *parser) notAStatement(c *cursor) error {
	j := c.i
	for j < c.end && (isLetter(c.s.text[j]) || isSpace(c.s.text[j])) {
		j++
	}
	words := strings.Fields(strings.ToLower(string(c.s.text[c.i:j])))
	if j < c.end && c.s.text[j] == ':' && len(words) > 0 {
		return c.errorf(c.i, "unknown directive %s: expected one of %s", quote(strings.Join(words, " ")), directives)
	}
	if len(words) > 0 && isDirective(words[0]) && !isBare(words[0]) {
		return c.errorf(c.i, "expected ':' after %s", quote(words[0]))
	}
	return c.errorf(c.i, "production without a successor arrow: expected a directive or "+
		"\"predecessor -> successor\", found %s", quote(c.textOf(c.i, c.end)))
}

// once records that a directive was given in the current statement, and
// rejects a second one.
func (p *parser) once(key string) error {
	if at, ok := p.seen[key]; ok {
		return p.s.errorf(p.stmt, "duplicate %s: first given at %s", key, posString(p.s.pos(at)))
	}
	p.seen[key] = p.stmt
	return nil
}

func (p *parser) directive(name string, c *cursor) error {
	c.skip()
	off := c.i
	switch name {
	case "lsystem":
		if at, ok := p.seen["lsystem"]; ok {
			return c.errorf(p.stmt, "second Lsystem: (the first at %s): expected one L-system per file",
				posString(p.s.pos(at)))
		}
		p.seen["lsystem"] = p.stmt
		p.sys.Name = c.textOf(c.i, c.end)
		return nil
	case "axiom":
		return p.axiom(c)
	case "ignore", "consider":
		return p.symbolSet(c, name)
	case "homomorphism", "decomposition":
		if _, ok := p.seen[name+" section"]; ok {
			return c.errorf(p.stmt, "duplicate %s section", name)
		}
		p.seen[name+" section"] = p.stmt
		p.section = inHomomorphism
		if name == "decomposition" {
			p.section = inDecomposition
		}
		v := strings.Join(strings.Fields(strings.ToLower(c.textOf(c.i, c.end))), " ")
		if v != "" && v != "warnings" && v != "no warnings" {
			return c.errorf(c.i, "expected end of line or warnings after %s, found %s", name, c.found())
		}
		return nil
	case "endlsystem":
		p.section = afterEnd
		return c.expectEnd(name)
	case "warnings", "no warnings":
		return c.expectEnd(name) // cpfg's homomorphism warnings: nothing to warn about here
	case "tropism", "tropism direction":
		return p.tropism(c, name)
	}
	v, err := p.constValue(c, name)
	if err != nil {
		return err
	}
	return p.setValue(name, v, off)
}

// setValue applies a directive with one numeric value.
func (p *parser) setValue(name string, v float64, off int) error {
	key, check, where := name, "", p.s.pos(off)
	switch name {
	case "derivation length", "maximum depth":
		if v < 0 || v != float64(int32(v)) {
			check = "a whole number from 0 to 2147483647"
		} else if name == "derivation length" {
			p.sys.Steps = int(v)
		} else {
			// Bounds the passes of decomposition (cpfg's recursive
			// homomorphism too; ours is applied once).
			p.sys.DecompDepth = int(v)
		}
	case "angle", "delta", "angle increment":
		key = "angle"
		p.sys.Angle = v
	case "angle factor":
		key = "angle"
		if v <= 0 {
			check = "a positive number of divisions of the full circle"
		} else {
			p.sys.Angle = 360 / v
		}
	case "width", "line width":
		key = "width"
		if v < 0 {
			check = "a width of at least 0"
		}
		p.sys.Width = v
	case "step", "step size":
		key = "step"
		if v <= 0 {
			check = "a positive step length"
		}
		p.sys.Step = v
	case "elasticity", "initial elasticity":
		key = "elasticity"
		p.sys.Elasticity = v
	}
	if check != "" {
		return &Error{Pos: where, Msg: fmt.Sprintf("%s: expected %s, found %g", name, check, v)}
	}
	return p.once(key)
}

// constValue parses the rest of the statement as one constant expression.
func (p *parser) constValue(c *cursor, what string) (float64, error) {
	c.skip()
	if c.atEnd() {
		return 0, c.errorf(c.i, "expected a value after %s:, found end of line", what)
	}
	v, err := p.constExpr(c, what+" must be a constant")
	if err != nil {
		return 0, err
	}
	return v, c.expectEnd(what)
}

// constExpr parses and evaluates a constant expression at the cursor.
func (p *parser) constExpr(c *cursor, hint string) (float64, error) {
	c.skip()
	start := c.i
	n, err := parseExpr(c, &scope{defines: p.sys.Defines, hint: hint}, false)
	if err != nil {
		return 0, err
	}
	return p.s.evalConst(n, c.textOf(start, c.i), start)
}

// tropism reads "tropism: tx ty tz [e]" or "tropism direction: tx ty tz".
func (p *parser) tropism(c *cursor, name string) error {
	off := c.i
	fields := p.s.fields(c.i, c.end, false)
	want := "3 or 4 values (tx ty tz elasticity)"
	if name == "tropism direction" {
		want = "3 values (tx ty tz)"
	}
	if n := len(fields); n != 3 && (n != 4 || name != "tropism") {
		return c.errorf(off, "%s: expected %s, found %d", name, want, n)
	}
	for k, f := range fields {
		fc := &cursor{s: p.s, i: f[0], end: f[1]}
		v, err := p.constValue(fc, name)
		if err != nil {
			return err
		}
		if k < 3 {
			p.sys.Tropism[k] = v
		} else if err := p.setValue("elasticity", v, f[0]); err != nil {
			return err
		}
	}
	return p.once("tropism direction")
}

// symbolSet reads ignore: or consider: symbols ("+-F" or "+ - F").
func (p *parser) symbolSet(c *cursor, name string) error {
	k := 0
	if name == "consider" {
		k = 1
	}
	if p.sets[1-k] != nil {
		return c.errorf(c.i, "%s: cannot be combined with %s: (one is the other's complement)", name, [2]string{"ignore", "consider"}[1-k])
	}
	if p.sets[k] == nil {
		p.sets[k] = new([256]bool)
	}
	for ; !c.atEnd(); c.skip() {
		b := c.peek()
		if !isModule(b) {
			return c.errorf(c.i, "%s: expected module symbols, found %s", name, c.found())
		}
		if b == lsys.SymPush || b == lsys.SymPop {
			return c.errorf(c.i, "%s: brackets delimit branches and are never skipped: expected other symbols", name)
		}
		p.sets[k][b] = true
		c.i++
	}
	return nil
}

// preprocessor handles "#define NAME value"; cpfg runs its files through the
// C preprocessor, but only constant definitions are accepted here.
func (p *parser) preprocessor(c *cursor) error {
	start := c.i
	c.i++
	if word := c.ident(); word != "define" {
		return c.errorf(start, "#%s is not supported: expected #define NAME value", word)
	}
	if !isSpace(c.peek()) {
		return c.errorf(c.i, "expected a space after #define, found %s", c.found())
	}
	c.skip()
	at := c.i
	name := c.ident()
	switch {
	case name == "":
		return c.errorf(at, "expected a constant name after #define, found %s", c.found())
	case c.peek() == '(':
		return c.errorf(c.i, "#define with parameters is not supported: expected #define NAME value")
	}
	if _, ok := lookupFunc(name); ok {
		return c.errorf(at, "#define %s: %s is a built-in function", name, name)
	}
	if prev, ok := p.defined[name]; ok {
		return c.errorf(at, "%s redefined: first defined at %s", name, posString(p.s.pos(prev)))
	}
	v, err := p.constValue(c, "#define "+name)
	if err != nil {
		return err
	}
	p.defined[name] = at
	p.sys.Defines[name] = v
	return nil
}

// isCaption recognizes ABOP's figure captions "n = 7, δ = 22.5°".
func (p *parser) isCaption(c *cursor) bool {
	d := *c
	if !d.has(deltaRune) && d.ident() == "" {
		return false
	}
	if d.has(deltaRune) {
		d.i += len(deltaRune)
	}
	d.skip()
	return d.peek() == '=' && d.peekAt(1) != '='
}

func (p *parser) caption(c *cursor) error {
	for _, f := range p.s.fields(c.i, c.end, true) {
		fc := &cursor{s: p.s, i: f[0], end: f[1]}
		fc.skip()
		if fc.atEnd() {
			return fc.errorf(fc.i, "expected n = ... or delta = ..., found %s", fc.found())
		}
		off := fc.i
		key := "delta"
		if fc.has(deltaRune) {
			fc.i += len(deltaRune)
		} else {
			key = fc.ident()
		}
		fc.skip()
		if fc.peek() != '=' {
			return fc.errorf(fc.i, "expected '=' after %s, found %s", key, fc.found())
		}
		fc.i++
		for fc.end > fc.i && isSpace(p.s.text[fc.end-1]) {
			fc.end--
		}
		if fc.end-len(degRune) >= fc.i && p.s.hasPrefix(fc.end-len(degRune), fc.end, degRune) {
			fc.end -= len(degRune)
		}
		switch key {
		case "n":
			v, err := p.constValue(fc, "n")
			if err == nil {
				err = p.setValue("derivation length", v, off)
			}
			if err != nil {
				return err
			}
		case "delta", "angle":
			v, err := p.constValue(fc, key)
			if err == nil {
				err = p.setValue("angle", v, off)
			}
			if err != nil {
				return err
			}
		default:
			return fc.errorf(off, "unknown caption value %s: expected n (derivation length) or delta (angle)", quote(key))
		}
	}
	return nil
}

// finish checks what needs the whole file and fills in the derived fields.
func (p *parser) finish() (*lsys.System, error) {
	if _, ok := p.seen["axiom"]; !ok {
		return nil, p.s.errorf(0, "missing axiom: expected a line \"axiom: modules\"")
	}
	for b, n := range p.arity {
		if n > 0 {
			p.sys.Arity[b] = uint8(n)
		}
	}
	if set := p.sets[0]; set != nil {
		p.sys.Ignore = *set
	}
	if set := p.sets[1]; set != nil {
		for b := 0; b < 256; b++ {
			s := byte(b)
			p.sys.Ignore[b] = isModule(s) && !set[b] && s != lsys.SymPush && s != lsys.SymPop
		}
	}
	return p.sys, nil
}
