package golly

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Golly .rule file: "@RULE NAME", then sections. procgen reads its
// @TABLE section (the format of Golly's RuleLoader: n_states,
// neighborhood, symmetries, variables and transitions, the first
// transition that matches a cell's neighbourhood giving its next state,
// no match leaving it unchanged) and ignores @COLORS, @ICONS and @NAMES.

// Table is a parsed @TABLE section.
type Table struct {
	Name   string // @RULE's
	States int
	Neigh  string // Moore, vonNeumann, hexagonal or oneDimensional
	Sym    string
	Trans  []Transition
}

// Transition is one line of a table: the cell then its neighbours in
// Golly's order, and the output; Line is the file's line.
type Transition struct {
	In   []Token
	Out  Token
	Line int
}

// Token is one entry: a set of states, and the variable's name when the
// entry is a variable (bound: every use in a transition is one state).
// List is a variable's states in the order its definition lists them
// (first occurrences): Golly tries a bound variable's values in that
// order, which decides which symmetric variant of a line wins.
type Token struct {
	Set  []uint8
	Var  string
	List []uint8
}

// TableError is a syntax error in a .rule file.
type TableError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *TableError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// neighbourCount is the neighbours each neighbourhood's transitions list.
func neighbourCount(neigh string) int {
	switch neigh {
	case "Moore":
		return 8
	case "vonNeumann":
		return 4
	case "hexagonal":
		return 6
	case "oneDimensional":
		return 2
	}
	return 0
}

// tableParser reads the @TABLE section line by line.
type tableParser struct {
	file string
	t    *Table
	vars map[string][]uint8 // each variable's states in the file's order
}

func (p *tableParser) errorf(line, col int, format string, a ...any) error {
	return &TableError{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf(format, a...)}
}

// ParseRuleFile reads a .rule file's @RULE name and @TABLE section.
func ParseRuleFile(data []byte, file string) (*Table, error) {
	ls := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	p := &tableParser{file: file, t: &Table{Sym: "none"}, vars: map[string][]uint8{}}
	first := strings.TrimSpace(ls[0])
	if !strings.HasPrefix(first, "@RULE") {
		return nil, p.errorf(1, 1, "not a Golly rule file: want a first line \"@RULE NAME\"")
	}
	p.t.Name = strings.TrimSpace(strings.TrimPrefix(first, "@RULE"))
	section, found, tree := "", false, 0
	for i := 1; i < len(ls); i++ {
		ln := ls[i]
		if strings.HasPrefix(ln, "@") {
			section = strings.Fields(ln)[0]
			if section == "@TABLE" && found {
				section = "@SKIP" // Golly uses the first of a repeated section
			}
			found = found || section == "@TABLE"
			if section == "@TREE" && tree == 0 {
				tree = i + 1
			}
			continue
		}
		if section != "@TABLE" {
			continue
		}
		if k := strings.IndexByte(ln, '#'); k >= 0 {
			ln = ln[:k]
		}
		if strings.TrimSpace(ln) == "" {
			continue
		}
		if err := p.line(ln, i+1); err != nil {
			return nil, err
		}
	}
	switch {
	case !found && tree > 0:
		return nil, p.errorf(tree, 1, "no @TABLE section, but a @TREE (ParseRule reads either)")
	case !found:
		return nil, p.errorf(len(ls), 1, "no @TABLE section")
	case p.t.States == 0:
		return nil, p.errorf(len(ls), 1, "@TABLE has no n_states line")
	}
	return p.t, nil
}

// line reads one non-empty line of the table.
func (p *tableParser) line(ln string, lineNo int) error {
	t := p.t
	col := len(ln) - len(strings.TrimLeft(ln, " \t")) + 1
	s := strings.TrimSpace(ln)
	if key, val, ok := strings.Cut(s, ":"); ok {
		val = strings.TrimSpace(val)
		if len(t.Trans) > 0 {
			return p.errorf(lineNo, col, "%s after the first transition: the descriptors come first", key)
		}
		switch strings.TrimSpace(key) {
		case "n_states":
			n, err := strconv.Atoi(val)
			if err != nil || n < 2 || n > MaxStates {
				return p.errorf(lineNo, col, "n_states:%s: want 2..%d", val, MaxStates)
			}
			t.States = n
		case "neighborhood":
			if neighbourCount(val) == 0 {
				return p.errorf(lineNo, col, "neighborhood:%s: procgen runs Moore, vonNeumann, hexagonal and oneDimensional", val)
			}
			t.Neigh = val
		case "symmetries":
			t.Sym = val
		default:
			return p.errorf(lineNo, col, "unknown descriptor %q: want n_states, neighborhood or symmetries", key)
		}
		return nil
	}
	if t.States == 0 || t.Neigh == "" {
		return p.errorf(lineNo, col, "want n_states and neighborhood before variables and transitions")
	}
	if _, ok := symmetryPerms(t.Neigh, t.Sym); !ok {
		return p.errorf(lineNo, col, "symmetries:%s: not one of the %s neighbourhood's (%s)", t.Sym, t.Neigh, symmetryNames(t.Neigh))
	}
	if rest, ok := strings.CutPrefix(s, "var "); ok {
		return p.variable(rest, lineNo, col+4)
	}
	return p.transition(s, lineNo, col)
}

// variable reads "NAME={a,b,...}" (elements: states or earlier variables).
func (p *tableParser) variable(s string, lineNo, col int) error {
	name, set, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || !validName(name) {
		return p.errorf(lineNo, col, "want var NAME={STATE,...}")
	}
	vals, err := p.set(strings.TrimSpace(set), lineNo, col+strings.Index(s, "=")+1)
	if err != nil {
		return err
	}
	p.vars[name] = vals
	return nil
}

func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c == '-' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// set reads "{a,b,...}": its states in the order listed, each once.
func (p *tableParser) set(s string, lineNo, col int) ([]uint8, error) {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, p.errorf(lineNo, col, "want a set {STATE,...}, got %q", s)
	}
	var vals []uint8
	for _, e := range strings.Split(s[1:len(s)-1], ",") {
		tok, err := p.token(strings.TrimSpace(e), lineNo, col, false)
		if err != nil {
			return nil, err
		}
		for _, v := range tok.List {
			if !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
	}
	return vals, nil
}

// sorted is a set's states in increasing order.
func sorted(list []uint8) []uint8 {
	s := slices.Clone(list)
	slices.Sort(s)
	return s
}

// token reads a state, a variable or (inline) a set.
func (p *tableParser) token(s string, lineNo, col int, inline bool) (Token, error) {
	if inline && strings.HasPrefix(s, "{") {
		list, err := p.set(s, lineNo, col)
		return Token{Set: sorted(list), List: list}, err
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n >= p.t.States {
			return Token{}, p.errorf(lineNo, col, "state %d: want 0..%d (n_states:%d)", n, p.t.States-1, p.t.States)
		}
		return Token{Set: []uint8{uint8(n)}, List: []uint8{uint8(n)}}, nil
	}
	list, ok := p.vars[s]
	if !ok {
		return Token{}, p.errorf(lineNo, col, "%q is neither a state nor a variable defined above", s)
	}
	return Token{Set: sorted(list), Var: s, List: list}, nil
}

// transition reads "C,N,...,C'" (or, without commas, one digit each).
func (p *tableParser) transition(s string, lineNo, col int) error {
	var parts []string
	var cols []int
	if !strings.ContainsAny(s, ",{") {
		for k := range len(s) {
			if s[k] != ' ' && s[k] != '\t' {
				parts, cols = append(parts, s[k:k+1]), append(cols, col+k)
			}
		}
	} else {
		depth, start := 0, 0
		for k := 0; k <= len(s); k++ {
			if k < len(s) && s[k] == '{' {
				depth++
			} else if k < len(s) && s[k] == '}' {
				depth--
			} else if k == len(s) || s[k] == ',' && depth == 0 {
				parts, cols = append(parts, strings.TrimSpace(s[start:k])), append(cols, col+start)
				start = k + 1
			}
		}
	}
	want := neighbourCount(p.t.Neigh) + 2
	if len(parts) != want {
		return p.errorf(lineNo, col, "a %s transition has %d entries (the cell, %d neighbours, the output), not %d",
			p.t.Neigh, want, want-2, len(parts))
	}
	tr := Transition{Line: lineNo}
	for k, part := range parts {
		tok, err := p.token(part, lineNo, cols[k], k < want-1)
		if err != nil {
			return err
		}
		if k < want-1 {
			tr.In = append(tr.In, tok)
			continue
		}
		if tok.Var == "" && len(tok.Set) != 1 {
			return p.errorf(lineNo, cols[k], "the output is a set: want a state or a variable of the inputs")
		}
		if tok.Var != "" && len(tok.Set) == 1 && !slices.ContainsFunc(tr.In, func(in Token) bool { return in.Var == tok.Var }) {
			tok = Token{Set: tok.Set, List: tok.List} // Golly takes a one-state variable as an output
		}
		if tok.Var != "" && !slices.ContainsFunc(tr.In, func(in Token) bool { return in.Var == tok.Var }) {
			return p.errorf(lineNo, cols[k], "the output %s is not among the inputs, so it has no one state", tok.Var)
		}
		tr.Out = tok
	}
	p.t.Trans = append(p.t.Trans, tr)
	return nil
}
