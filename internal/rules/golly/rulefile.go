package golly

import (
	"strings"

	"github.com/procgen-dev/procgen/internal/rules"
)

// RuleFile is a .rule file's rule: the section Golly's RuleLoader uses,
// the first of @TABLE and @TREE in the file (Golly's help: "If the .rule
// file also contains a @TABLE section, RuleLoader will use the first one
// it finds").
type RuleFile struct {
	Name  string
	Table *Table // one of Table and Tree
	Tree  *Tree
}

// ParseRule reads a .rule file's @RULE name and its first @TABLE or
// @TREE section.
func ParseRule(data []byte, file string) (*RuleFile, error) {
	ls := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	first := strings.TrimSpace(ls[0])
	if !strings.HasPrefix(first, "@RULE") {
		return nil, &TableError{File: file, Line: 1, Col: 1, Msg: "not a Golly rule file: want a first line \"@RULE NAME\""}
	}
	name := strings.TrimSpace(strings.TrimPrefix(first, "@RULE"))
	for i := 1; i < len(ls); i++ {
		if !strings.HasPrefix(ls[i], "@") {
			continue
		}
		switch strings.Fields(ls[i])[0] {
		case "@TABLE":
			t, err := ParseRuleFile(data, file)
			if err != nil {
				return nil, err
			}
			return &RuleFile{Name: name, Table: t}, nil
		case "@TREE":
			t, err := parseTree(ls, i+1, name, file)
			if err != nil {
				return nil, err
			}
			return &RuleFile{Name: name, Tree: t}, nil
		}
	}
	return nil, &TableError{File: file, Line: len(ls), Col: 1, Msg: "no @TABLE or @TREE section"}
}

// Compile compiles the rule's table or tree on topo (TableSource,
// TreeSource); defines override the source's constants.
func (r *RuleFile) Compile(topo Topology, file string, defines map[string]string) (*rules.Program, error) {
	if r.Tree != nil {
		return CompileTree(r.Tree, topo, file, defines)
	}
	return CompileTable(r.Table, topo, file, defines)
}
