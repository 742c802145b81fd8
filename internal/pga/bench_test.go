package pga

import "testing"

// BenchmarkCorpus evaluates corpus grammars from one axiom; the paper's
// scenes are BenchmarkScene.
func BenchmarkCorpus(b *testing.B) {
	for _, name := range []string{"3d_tree_8_3.pga", "menger_sponge_3.pga"} {
		b.Run(name, func(b *testing.B) {
			g, err := Parse(name, corpus(b)[name])
			if err != nil {
				b.Fatal(err)
			}
			lots := []Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.Evaluate(lots, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
