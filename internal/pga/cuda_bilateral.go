//go:build cuda

package pga

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// runKernel is the evaluation kernel to launch: for a grammar with
// bilateral queries its variant that answers them (<name>_ask); the plain
// one leaves the re-derivation out and keeps its registers and stack.
func runKernel[P any](c *CUDA, plain, ask gpu.Kernel[P]) gpu.Kernel[P] {
	if len(c.g.Links) > 0 {
		return ask
	}
	return plain
}

// relatedDeep is the CPU's error for a bilateral query whose target lies
// deeper below its ancestor than a re-derivation goes (drySub).
func (c *CUDA) relatedDeep(st gpuStatus) error {
	link, q := int(st.ErrArg/4), QueryKind(st.ErrArg%4)
	rule := "?"
	if r := int(st.ErrRule); r >= 0 && r < len(c.prog.rules) {
		rule = c.prog.rules[r]
	}
	if link < 0 || link >= len(c.g.Links) || q > QueryInside {
		return fmt.Errorf("pga: cuda: bad bilateral query error (link %d)", link)
	}
	l := c.g.Links[link]
	return fmt.Errorf("pga: %s: rule %q: a target lies more than %d splitting operators below ancestor %q",
		Bilateral{Kind: q, Anc: l.Anc, Target: l.Target}, rule, maxRelatedSplits, l.Anc)
}
