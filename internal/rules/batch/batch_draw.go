package batch

import "github.com/procgen-dev/procgen/internal/rules/bytecode"

// draw runs OpRAND or OpRANDF on the lanes of act: index r0, site c, k
// from register kr (noReg: 0).
func (b *Eval) draw(op int, D *[lanes]uint32, kr, site int, act []uint8) {
	key, I := b.ref.DrawKey(), &b.r[0]
	if kr == bytecode.NoReg {
		for _, l := range act {
			D[l] = bytecode.DrawValue(op, bytecode.DrawBits(key, int32(I[l]), site, 0))
		}
		return
	}
	K := &b.r[kr&31]
	for _, l := range act {
		D[l] = bytecode.DrawValue(op, bytecode.DrawBits(key, int32(I[l]), site, K[l]))
	}
}
