package golly

import (
	"github.com/procgen-dev/procgen/internal/rules"
)

// Compile compiles r's rules-language source (Source); defines override
// its constants (-D W=256 -D H=256 sizes the board). Messages name the
// rule as "rule NOTATION".
func Compile(r Rule, defines map[string]string) (*rules.Program, error) {
	return rules.Compile("rule "+r.String(), []byte(Source(r)), defines)
}
