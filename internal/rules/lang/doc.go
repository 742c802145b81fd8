// Package lang is the front end of the rule language (docs/rules-language.md):
// the lexer, parser, constant folding, type checking and the compiler that
// turns a rule file into a bytecode.Program, including which rules draw
// random numbers.
//
// It produces bytecode and nothing else: it does not run programs (the
// reference interpreter is rules/bytecode, the engines are in rules) and it
// knows nothing of states, boards or devices. Callers outside the rules
// packages use rules.Compile, which wraps Compile here.
package lang
