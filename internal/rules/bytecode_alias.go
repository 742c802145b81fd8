package rules

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// The compiled program model lives in rules/bytecode; these aliases keep the
// names every backend, state file and caller of rules has always used.
type (
	// Program is a compiled rule file (bytecode.Program).
	Program = bytecode.Program
	// Type is a field's element type (bytecode.Type).
	Type = bytecode.Type
	// Field is one named part of the state (bytecode.Field).
	Field = bytecode.Field
	// Rule is one compiled rule (bytecode.Rule).
	Rule = bytecode.Rule
	// Pos is a position in a rule file (bytecode.Pos).
	Pos = bytecode.Pos
)

// The element types.
const (
	Int   = bytecode.Int
	Float = bytecode.Float
)
