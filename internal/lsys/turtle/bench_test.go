package turtle

import (
	"context"
	"fmt"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
)

// benchStrings are ABOP systems derived to about a million modules.
func benchStrings() []struct {
	name string
	sys  *lsys.System
	str  []byte
} {
	return []struct {
		name string
		sys  *lsys.System
		str  []byte
	}{
		// ABOP fig. 1.24d: 2D plant, branching.
		{"plant2d", &lsys.System{Angle: 20, Step: 1, Width: 1},
			derive("X", map[byte]string{'X': "F[+X]F[-X]+X", 'F': "FF"}, 10)},
		// A quadratic Koch island (ABOP section 1.3), no branches.
		{"koch", &lsys.System{Angle: 90, Step: 1},
			derive("F-F-F-F", map[byte]string{'F': "F+FF-FF-F-F+F+FF-F-F+F+FF+FF-F"}, 4)},
		// ABOP fig. 2.8-like 3D tree with tropism, the non-linear path.
		{"tree3d-tropism", &lsys.System{Angle: 22.5, Step: 1, Width: 1, Tropism: [3]float64{0, -1, 0}, Elasticity: 0.2},
			derive("A", map[byte]string{'A': "[&FL!A]/////'[&FL!A]///////'[&FL!A]", 'F': "S/////F", 'S': "FL", 'L': "['''^^{.-f.+f.+f.-|-f.+f.+f.}]"}, 9)},
	}
}

func BenchmarkInterpret(b *testing.B) {
	for _, bs := range benchStrings() {
		b.Run(bs.name, func(b *testing.B) {
			s := &lsys.String{Syms: bs.str}
			var g *Geometry
			for b.Loop() {
				var err error
				g, err = CPU{}.Interpret(context.Background(), bs.sys, s, Options{})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(bs.str))*float64(b.N)/(b.Elapsed().Seconds()*1000), "modules/ms")
			b.ReportMetric(float64(len(bs.str)), "modules")
			b.ReportMetric(float64(len(g.Segments)), "segments")
		})
	}
}

func benchGeometry(b *testing.B) *Geometry {
	bs := benchStrings()[0]
	g, err := CPU{}.Interpret(context.Background(), bs.sys, &lsys.String{Syms: bs.str}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

func BenchmarkRender(b *testing.B) {
	g := benchGeometry(b)
	o := RenderOptions{Width: 1024, Height: 1024, Margin: 16, View: mustView("front")}
	for b.Loop() {
		if _, err := Render(context.Background(), g, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(g.Segments))*float64(b.N)/(b.Elapsed().Seconds()*1000), "segments/ms")
}

func BenchmarkEncodeOBJ(b *testing.B) {
	g := benchGeometry(b)
	for _, o := range []objOptions{{}, {Sides: 6, Normals: true}} {
		b.Run(fmt.Sprintf("sides%d", o.Sides), func(b *testing.B) {
			var n int64
			for b.Loop() {
				w := &countWriter{}
				if err := writeOBJ(context.Background(), w, g, o); err != nil {
					b.Fatal(err)
				}
				n = w.n
			}
			b.SetBytes(n)
			b.ReportMetric(float64(len(g.Segments))*float64(b.N)/(b.Elapsed().Seconds()*1000), "segments/ms")
		})
	}
}

type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}
