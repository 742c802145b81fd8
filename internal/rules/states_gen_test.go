package rules

import (
	"math"
	"testing"

	"github.com/procgen-dev/procgen/internal/rng"
)

// Generate spreads the draws over states and pieces of fields; every value
// must still be the hash of its seed, state, field and index alone (the
// definition below), whatever the split: one state of more than a piece,
// many small states, int and float fields.
func TestGenerateIsPerCell(t *testing.T) {
	mixed := compileSrc(t, "state {\n  int a[40000] ~ uniform(-3, 5)\n  float b[20000] ~ uniform(0.5, 2)\n}\nrule r over i in 0..1 { a[i] = a[i] }\n")
	for _, c := range []struct {
		file string
		defs map[string]string
		n    int
	}{
		{"life.rules", map[string]string{"W": "200", "H": "150"}, 1},
		{"life.rules", map[string]string{"W": "9", "H": "7"}, 37},
		{"", nil, 3},
	} {
		p := mixed
		if c.file != "" {
			p = compileConfig(t, c.file, c.defs)
		}
		const seed = 11
		st := Generate(p, c.n, seed)
		for s := range c.n {
			w := st.State(s)
			for fi, f := range p.Fields {
				if !f.HasGen {
					continue
				}
				key := rng.Key(seed, uint64(s), uint64(fi))
				for k := range f.Size {
					h := rng.Hash64(key, uint64(k))
					var want uint32
					if f.Type == Int {
						span := uint64(int64(f.GenHi) - int64(f.GenLo) + 1)
						want = uint32(int32(int64(f.GenLo) + int64((h>>32)*span>>32)))
					} else {
						want = math.Float32bits(float32(f.GenLo + (f.GenHi-f.GenLo)*rng.Float64(h)))
					}
					if w[f.Off+k] != want {
						t.Fatalf("%s, state %d, field %d, value %d: %#x, want %#x", c.file, s, fi, k, w[f.Off+k], want)
					}
				}
			}
		}
	}
}
