package turtle

// meshOverhead is the peak of EncodeGLB and EncodePLY over the mesh they
// hold: every chunk's pieces (exact-size float32 and index slices) are held
// until the file is written, and each worker's chunk grows by doubling while
// it is built. Measured: a 2D plant's 262,144 segments as 16-sided tubes
// took 1.3 GB, 2.2 times the held mesh.
const meshOverhead = 2.5

// segmentBytes and vertexBytes are the Geometry's own: a Segment, a
// polygon vertex with its share of a Polygon.
const (
	surfaceUseBytes = 56
	segmentBytes    = 32
	vertexBytes     = 12 + 12
)

// MeshMemory is the peak memory of writing g as GLB or PLY with o, the
// geometry included, before any of the mesh is allocated. Per segment a
// tube holds two rings of vertices (four with caps) of a position and a
// normal, 24 bytes, and 6 indices a side (and two fans); a ribbon 4 vertices
// and 6 indices; a line at most two positions (PLY writes a zero normal
// with each) and an index pair. A smooth tube is at most what its segments
// would be as chains of one: two rings of Sides+1 vertices of 32 bytes
// (the texture coordinate's 8 more), the caps', and the same indices.
func MeshMemory(g *Geometry, o MeshOptions) float64 {
	var perSeg float64
	switch s := float64(o.Sides); {
	case o.Sides > 2 && o.Smooth:
		verts, idx := 2*(s+1), 6*s
		if o.Caps {
			verts += 2 * s
			idx += 2 * 3 * (s - 2)
		}
		perSeg = verts*32 + idx*4
	case o.Sides > 2:
		verts, idx := 2*s, 6*s
		if o.Caps {
			verts += 2 * s
			idx += 2 * 3 * (s - 2)
		}
		perSeg = verts*24 + idx*4
	case o.Ribbons:
		perSeg = 4*24 + 6*4
	default:
		perSeg = 2*24 + 2*4
	}
	held := float64(len(g.Segments))*segmentBytes + float64(len(g.PolyVerts))*vertexBytes
	mesh := float64(len(g.Segments))*perSeg + float64(len(g.PolyVerts))*(24+3*4)
	// Surfaces: PLY holds a copy of the shape per use (a vertex per face
	// corner, triangle indices); GLB one shape and 40 bytes a use.
	held += float64(len(g.Surfaces)) * surfaceUseBytes
	for i := range g.Surfaces {
		if s := o.Surfaces[g.Surfaces[i].Name]; s != nil {
			mesh += float64(len(s.Faces))*(24+3*4) + 40
		}
	}
	return held + meshOverhead*mesh
}
