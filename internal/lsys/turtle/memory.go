package turtle

// GLBMemory is the peak memory of EncodeGLB on g with tubes of sides sides
// (8 when 0), before any of it is allocated: each colour's mesh (float32
// corners and normals, uint32 indices) grows by doubling, is copied into
// byte slices and appended to the binary chunk, which also grows by
// doubling, so the peak is about five times the mesh (a 2D plant's 300,000
// segments took 1.3 GB).
func GLBMemory(g *Geometry, sides int, caps bool) float64 {
	if sides == 0 {
		sides = 8
	}
	s := float64(sides)
	// A tube: two rings of corners and 6 indices a side; a cap: a ring and
	// a fan of sides-2 triangles.
	verts, idx := 2*s, 6*s
	if caps {
		verts += 2 * s
		idx += 2 * 3 * (s - 2)
	}
	mesh := float64(len(g.Segments))*(verts*24+idx*4) +
		float64(len(g.PolyVerts))*(24+3*4)
	return 5 * mesh
}
