package skeleton

import (
	"fmt"
	"math"
)

// faces traces each edge's face from the arcs that carry the edge's name:
// from the edge's end node round to its start node. A face whose arcs do
// not make one simple cycle, or faces whose areas do not add up to the
// polygon's less left (what the wavefront still holds), mean the
// simulation went wrong: an error.
func (s *sim) faces(sk *Skeleton, left float64) error {
	byEdge := make([][]int, len(s.edges))
	for k, a := range s.arcs {
		byEdge[a.Left] = append(byEdge[a.Left], k)
		if a.Right != a.Left && a.Right >= 0 {
			byEdge[a.Right] = append(byEdge[a.Right], k)
		}
	}
	total := 0.0
	for e := range s.edges {
		f, err := s.face(e, byEdge[e])
		if err != nil {
			return err
		}
		total += nodeArea(s.nodes, f.Nodes)
		sk.Faces = append(sk.Faces, f)
	}
	want := -left
	for _, r := range s.input {
		want += area(r)
	}
	if math.Abs(total-want) > 1e-7*math.Abs(want) {
		return fmt.Errorf("skeleton: faces cover %g of the polygon's area %g (unresolved coincident events)", total, want)
	}
	return nil
}

func (s *sim) face(e int, arcs []int) (Face, error) {
	a, b := s.edges[e].na, s.edges[e].nb
	adj := map[int][]int{} // node -> arcs of the face at it
	for _, k := range arcs {
		adj[s.arcs[k].From] = append(adj[s.arcs[k].From], k)
		adj[s.arcs[k].To] = append(adj[s.arcs[k].To], k)
	}
	for n, l := range adj {
		want := 2
		if n == a || n == b {
			want = 1
		}
		if len(l) != want {
			p := s.nodes[n].P
			return Face{}, fmt.Errorf("skeleton: the face of edge %d meets %d arcs at (%g, %g) (unresolved coincident events)", e, len(l), p[0], p[1])
		}
	}
	f := Face{Edge: e, Nodes: []int{a, b}}
	used := map[int]bool{}
	for cur := b; cur != a; {
		l := adj[cur]
		k := -1
		for _, c := range l {
			if !used[c] {
				k = c
			}
		}
		if k < 0 || len(f.Nodes) > len(arcs)+2 {
			return Face{}, fmt.Errorf("skeleton: the face of edge %d does not close", e)
		}
		used[k] = true
		cur = s.arcs[k].From + s.arcs[k].To - cur
		if cur != a {
			f.Nodes = append(f.Nodes, cur)
		}
	}
	if len(used) != len(arcs) {
		return Face{}, fmt.Errorf("skeleton: the face of edge %d is in more than one piece", e)
	}
	return f, nil
}

// nodeArea is the signed area of the polygon through nodes f.
func nodeArea(nodes []Node, f []int) float64 {
	a := 0.0
	for i, k := range f {
		p, q := nodes[k].P, nodes[f[(i+1)%len(f)]].P
		a += p[0]*q[1] - q[0]*p[1]
	}
	return a / 2
}
