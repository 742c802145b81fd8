package pga

import (
	"os"
	"testing"
)

func BenchmarkTree83(b *testing.B) {
	src := corpus(b)["3d_tree_8_3.pga"]
	g, err := Parse("3d_tree_8_3.pga", src)
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
}

func BenchmarkMenger(b *testing.B) {
	src := corpus(b)["menger_sponge_3.pga"]
	g, err := Parse("menger_sponge_3.pga", src)
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
}

// BenchmarkConfigs evaluates each scene of configs/pga on its lots.
func BenchmarkTreeConfig(b *testing.B) {
	src, err := os.ReadFile("../../configs/pga/tree8_3.pga")
	if err != nil {
		b.Fatal(err)
	}
	g, err := Parse("tree8_3.pga", src)
	if err != nil {
		b.Fatal(err)
	}
	lots := []Shape{NewAxiom(Box, Vec3{1, 1, 1}, 1)}
	for b.Loop() {
		if _, err := g.Evaluate(lots, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
