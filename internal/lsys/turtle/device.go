package turtle

import (
	"fmt"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// hostOnlySyms are the turtle commands the CUDA turtle does not have: its
// colour summaries are a set-or-saturating-add, which cannot express a
// decrement that stops at 0 (see colorFn), and it writes no surface uses
// (~): a handful of instances per plant, next to millions of segments, is
// not worth a second output stream and its scan. A string holding one is
// interpreted on the host even on the CUDA backend, so neither colours nor
// surfaces are ever dropped.
var hostOnlySyms = [...]lsys.Symbol{',', '~'}

// hostOnlyWhat names a host-only command for -v.
func hostOnlyWhat(s lsys.Symbol) string {
	if s == '~' {
		return "the surface command"
	}
	return "the colour decrement"
}

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
		return fmt.Errorf("turtle: %s %q (in the axiom) runs on the CPU turtle only: %w", hostOnlyWhat(s), s, lsys.ErrNotOnGPU)
	}
	for _, ps := range [][]lsys.Production{sys.Prods, sys.Homo, sys.Decomp} {
		for i := range ps {
			if s := uses(ps[i].Succ); s != 0 {
				return fmt.Errorf("turtle: %s %q (%s:%d) runs on the CPU turtle only: %w",
					hostOnlyWhat(s), s, ps[i].Pos.File, ps[i].Pos.Line, lsys.ErrNotOnGPU)
			}
		}
	}
	return nil
}
