package batch

import (
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// TestProductGroupsMatchInterpreter: groups of four fused products
// (batch_group.go) -- the synthetic rule's matrix in place, products into
// fresh registers, results copied back while their own register stays
// live, the loop bound not a multiple of the batch -- agree with the
// interpreter bit for bit, whole and split.
func TestProductGroupsMatchInterpreter(t *testing.T) {
	const consts = `
  let k0 = 0.6
  let k1 = -0.8
  let k2 = 0.8
  let k3 = 0.6
  let k4 = 1.25
  let k5 = -0.375
  let k6 = 3.0
  let k7 = 0.1
`
	cases := []struct {
		name, src  string
		also       bool // a result's own register stays live
		wantGroups int
	}{
		{name: "synthetic", src: "", wantGroups: 1},
		{name: "fresh", src: fmt.Sprintf(`state { float a[300] ~ uniform(-2.0, 2.0) float b[300] ~ uniform(-2.0, 2.0) float o[300] }
rule r over i in 0..300 when a[i] > -1.5 {
  let x = a[i]
  let y = b[(i + 7) %% 300]
  let z = b[i]
  let w = a[(i + 1) %% 300]
%s
  let p = x * k0 + y * k1
  let q = y * k2 + x * k3
  let u = x * k4 + z * k5
  let v = w * k6 + x * k7
  o[i] = p + q * u - v
}`, consts), wantGroups: 1},
		{name: "live", src: fmt.Sprintf(`state { float a[517] ~ uniform(-2.0, 2.0) float b[517] ~ uniform(-2.0, 2.0) float o[517] }
rule r over i in 0..517 {
  let x = a[i]
  let y = b[i]
  let z = o[i] + 1.0
  let w = b[(i + 1) %% 517]
%s
  let c0 = 0.0
  let c1 = 0.0
  let c2 = 0.0
  let c3 = 0.0
  repeat 5 {
    c0 = x * k0 + y * k1
    c1 = x * k2 + y * k3
    c2 = z * k4 + w * k5
    c3 = z * k6 + w * k7
    x = c0
    y = c1
    z = c2
    w = c3
  }
  o[i] = x + y + z + w + c0 * 2.0 - c3
  a[i] = c1
}`, consts), also: true, wantGroups: 1},
	}
	for _, c := range cases {
		var p *bytecode.Program
		if c.src == "" {
			p = compileConfig(t, "synthetic.rules", map[string]string{"PHI": "3", "LOAD": "7", "RANGE": "700"})
		} else {
			p = compileSrc(t, c.src)
		}
		b := NewEval(p, nil)
		groups, also := 0, false
		for _, g := range b.groups {
			if g != nil {
				groups++
				for _, r := range g.also {
					also = also || r >= 0
				}
			}
		}
		if groups != c.wantGroups || also != c.also {
			t.Errorf("%s: %d groups (also %v), want %d (also %v)", c.name, groups, also, c.wantGroups, c.also)
		}
		for _, parts := range []int{0, 3} {
			if ok, msg := agrees(parts, p, 4, 9, 3); !ok {
				t.Fatalf("%s: parts %d: %s", c.name, parts, msg)
			}
		}
	}
}
