package mesh

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Growth makes a GLB show a mesh's parts in turn, as the steps of a
// growing model: one node per step holding that step's parts, switched on
// by a glTF animation of its scale (STEP interpolation: 1 while the step is
// shown, 0 otherwise), so that any glTF viewer plays the growth.
type Growth struct {
	// Step is the step of each part of the mesh, by part index.
	Step []int
	// Steps is the number of steps (nodes); Time the seconds each is shown.
	Steps int
	Time  float64
}

// Join puts the parts and materials of several meshes into one, each
// part named after its mesh's index (s0-..., s1-...), and returns the
// Growth showing them in turn, time seconds each. Materials of one name
// are one material where they are equal (the steps' colour indices), and
// renamed after their mesh where they differ (names must be unique).
func Join(ms []*Mesh, time float64) (*Mesh, *Growth) {
	out := &Mesh{}
	g := &Growth{Steps: len(ms), Time: time}
	byName := map[string]int{}
	for k, m := range ms {
		index := make([]int, len(m.Materials))
		for i, mat := range m.Materials {
			if j, ok := byName[mat.Name]; ok && out.Materials[j] == mat {
				index[i] = j
				continue
			} else if ok {
				mat.Name = fmt.Sprintf("s%d-%s", k, mat.Name)
			}
			byName[mat.Name] = len(out.Materials)
			index[i] = len(out.Materials)
			out.Materials = append(out.Materials, mat)
		}
		if out.Generator == "" {
			out.Generator, out.Extras = m.Generator, m.Extras
		}
		for _, p := range m.Parts {
			p.Name = fmt.Sprintf("s%d-%s", k, p.Name)
			if p.Material >= 0 {
				p.Material = index[p.Material]
			}
			out.Parts = append(out.Parts, p)
			g.Step = append(g.Step, k)
		}
	}
	return out, g
}

// keys are one step's keyframes: the step appears at k*Time and goes at
// (k+1)*Time; the last stays until the end (Steps*Time), where the
// animation loops.
func (g *Growth) keys(k int) (times, scales []float32) {
	if k > 0 {
		times, scales = append(times, 0), append(scales, 0)
	}
	end := float32(0)
	if k == g.Steps-1 {
		end = 1
	}
	t := float32(g.Time)
	return append(times, float32(k)*t, float32(k+1)*t), append(scales, 1, end)
}

// bytes is the size of the animation's data in the binary chunk.
func (g *Growth) bytes() int64 {
	var n int64
	for k := range g.Steps {
		times, _ := g.keys(k)
		n += int64(len(times)) * (4 + 12)
	}
	return n
}

// data is the animation's data: per step its key times, then its scales
// (as VEC3), in the order animate lays out the views.
func (g *Growth) data() []byte {
	b := make([]byte, 0, g.bytes())
	for k := range g.Steps {
		times, scales := g.keys(k)
		for _, t := range times {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(t))
		}
		for _, s := range scales {
			for range 3 {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s))
			}
		}
	}
	return b
}

// animate makes the scene's roots one node per step, with the nodes of
// that step's parts as children (partNode: the node of each part, -1
// where the part drew nothing), and adds the animation switching them.
func animate(doc *gltfDoc, g *Growth, partNode []int, view viewFn, acc accFn) {
	steps := make([]int, g.Steps)
	for k := range steps {
		doc.Nodes = append(doc.Nodes, gltfNode{Name: fmt.Sprintf("step %d", k)})
		steps[k] = len(doc.Nodes) - 1
	}
	for i, n := range partNode {
		if n >= 0 {
			s := &doc.Nodes[steps[g.Step[i]]]
			s.Children = append(s.Children, n)
		}
	}
	doc.Scenes[0].Nodes = steps
	anim := gltfAnimation{Name: "growth"}
	for k, node := range steps {
		times, _ := g.keys(k)
		lo, hi := times[0], times[len(times)-1]
		in := acc(gltfAccessor{View: view(4*len(times), 0), ComponentType: gltfFloat, Count: len(times), Type: "SCALAR",
			Min: []float32{lo}, Max: []float32{hi}})
		out := acc(gltfAccessor{View: view(12*len(times), 0), ComponentType: gltfFloat, Count: len(times), Type: "VEC3"})
		anim.Samplers = append(anim.Samplers, gltfSampler{Input: in, Output: out, Interpolation: "STEP"})
		anim.Channels = append(anim.Channels, gltfChannel{Sampler: k, Target: gltfTarget{Node: node, Path: "scale"}})
	}
	if g.Steps > 0 {
		doc.Animations = []gltfAnimation{anim}
	}
}
