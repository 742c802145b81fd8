package turtle

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// hostOnlySyms are the turtle commands the CUDA turtle does not have: its
// colour summaries are a set-or-saturating-add, which cannot express a
// decrement that stops at 0 (see colorFn). A string holding one is
// interpreted on the host even on the CUDA backend, so the colours are
// never dropped.
var hostOnlySyms = [...]lsys.Symbol{','}

// GPUInterprets reports why the CUDA turtle would hand sys's strings to the
// host (a command only the CPU turtle has, anywhere in the axiom or a
// successor), or nil. --device auto then keeps the whole run on the CPU.
func GPUInterprets(sys *lsys.System) error {
	uses := func(ms []lsys.Module) lsys.Symbol {
		for _, m := range ms {
			for _, s := range hostOnlySyms {
				if m.Sym == s {
					return s
				}
			}
		}
		return 0
	}
	if s := uses(sys.Axiom); s != 0 {
		return fmt.Errorf("turtle: the colour decrement %q (in the axiom) runs on the CPU turtle only: %w", s, lsys.ErrNotOnGPU)
	}
	for _, ps := range [][]lsys.Production{sys.Prods, sys.Homo, sys.Decomp} {
		for i := range ps {
			if s := uses(ps[i].Succ); s != 0 {
				return fmt.Errorf("turtle: the colour decrement %q (%s:%d) runs on the CPU turtle only: %w",
					s, ps[i].Pos.File, ps[i].Pos.Line, lsys.ErrNotOnGPU)
			}
		}
	}
	return nil
}
