package rules

import "github.com/procgen-dev/procgen/internal/rules/lang"

// Compile parses, checks and compiles a rule file into the bytecode every
// backend runs. defines override the file's constants (NAME -> value).
// Errors name file:line:col. The front end lives in rules/lang; this
// wrapper keeps rules the one door callers use.
func Compile(file string, src []byte, defines map[string]string) (*Program, error) {
	return lang.Compile(file, src, defines)
}

// Error is a syntax, type or name error in a rule file or an RLE state file
// (lang.Error), naming file:line:col.
type Error = lang.Error
