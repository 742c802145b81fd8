// Part of pga.cu (included by pga_outputs.cuh, after pga_childof and PGA_SET): roofs' corners (the
// meshes' too) and CompSplit of a roof, on a lot's own polygon or over a rectangle (roof_split.go:
// roofSplit, rectRoofSplit, faceAt).
#pragma once

// ---- Roofs over rectangles (geometry.go: roofSolid) ----

// Roof faces: gable and hip, shed, pyramid; -1 ends a triangle.
__constant__ int8_t pga_roof_faces[3][5][4] = {
	{{0, 3, 2, 1}, {0, 1, 5, 4}, {2, 3, 4, 5}, {1, 2, 5, -1}, {3, 0, 4, -1}},
	{{0, 3, 2, 1}, {0, 1, 4, 5}, {2, 3, 5, 4}, {1, 2, 4, -1}, {3, 0, 5, -1}},
	{{0, 3, 2, 1}, {0, 1, 4, -1}, {1, 2, 4, -1}, {2, 3, 4, -1}, {3, 0, 4, -1}},
};

// pga_roof_table is kind's row of pga_roof_faces.
__device__ __forceinline__ int pga_roof_table(int k) { return k == PGA_SHED ? 1 : (k == PGA_PYRAMID ? 2 : 0); }

// The effective roof of kind roof over an sx by sy rectangle: a hip roof
// on a square footprint is a pyramid.
__device__ __forceinline__ int pga_rect_roof_kind(int roof, double sx, double sy) {
	if (roof == PGA_HIP) {
		double x = sx / 2, y = sy / 2;
		if (y > x) { const double u = x; x = y; y = u; }
		if (x - y <= 0) return PGA_PYRAMID;
	}
	return roof;
}

// pga_rect_roof_corners are roofSolid(k, x, y, h)'s corners (k the
// effective kind); it returns how many.
__device__ int pga_rect_roof_corners(int k, double x, double y, double h, double (*c)[3]) {
	const bool swap = y > x && k != PGA_PYRAMID;
	if (swap) { const double u = x; x = y; y = u; }
	int n = 6;
	const double base[4][2] = {{-x, -y}, {x, -y}, {x, y}, {-x, y}};
	for (int i = 0; i < 4; i++) { c[i][0] = base[i][0]; c[i][1] = base[i][1]; c[i][2] = -h; }
	if (k == PGA_GABLE) {
		c[4][0] = -x; c[4][1] = 0; c[4][2] = h;
		c[5][0] = x; c[5][1] = 0; c[5][2] = h;
	} else if (k == PGA_HIP) {
		const double r = x - y;
		c[4][0] = -r; c[4][1] = 0; c[4][2] = h;
		c[5][0] = r; c[5][1] = 0; c[5][2] = h;
	} else if (k == PGA_SHED) {
		c[4][0] = x; c[4][1] = y; c[4][2] = h;
		c[5][0] = -x; c[5][1] = y; c[5][2] = h;
	} else {
		c[4][0] = 0; c[4][1] = 0; c[4][2] = h;
		n = 5;
	}
	if (swap) {
		for (int i = 0; i < n; i++) {
			const double a = c[i][0], b = c[i][1];
			c[i][0] = -b;
			c[i][1] = a;
		}
	}
	return n;
}

// ---- CompSplit of a roof on a lot's own polygon (roof_split.go) ----

// pga_item_roof is the host-built roof s stands as (a roof on a lot's own
// polygon, or on a piece of one), nullptr for any other shape.
__device__ __forceinline__ const PgaFootRoof *pga_item_roof(const Prog &P, const PgaItem &s) {
	if (s.roof == PGA_NO_ROOF || s.profile <= 0 || P.profiles[s.profile].roofs < 0) return nullptr;
	return P.froof + P.profiles[s.profile].roofs + s.roof - 1;
}

// pga_roof_corner is corner k of roof fr at height h (polyRoof.solid).
__device__ __forceinline__ void pga_roof_corner(const Prog &P, const PgaFootRoof &fr, double h, int k, double *o) {
	const double s = fr.top > 0 ? h / fr.top : 0.0;
	const double *c = P.rpts + 3 * (fr.at + k);
	o[0] = c[0];
	o[1] = c[1];
	o[2] = c[2] * s - h / 2;
}

// pga_face_frame frames the planar face through the corners ids[0..len)
// (corner(id, p) gives each) as faceAt does: faceFrame, then the ring's
// bounding rectangle in that frame. false where it gives no child (no
// extent); f is the child's frame in the roof's, w and l its size, *nz
// the Z of the face's normal (Newell's).
template <class Corner, class Id>
__device__ bool pga_face_frame(const Corner &corner, const Id *ids, int len, double *f, double *w, double *l, double *nz) {
	double o[3], q[3], ex[3], ez[3] = {0, 0, 0}, ey[3];
	corner((int)ids[0], o);
	corner((int)ids[1], q);
	for (int a = 0; a < 3; a++) ex[a] = q[a] - o[a];
	double n = sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
	if (n > 0) {
		for (int a = 0; a < 3; a++) ex[a] = ex[a] / n;
	}
	// newell (geometry.go) over the ring.
	for (int j = 0; j < len; j++) {
		double p[3], r[3];
		corner((int)ids[j], p);
		corner((int)ids[(j + 1) % len], r);
		ez[0] += (p[1] - r[1]) * (p[2] + r[2]);
		ez[1] += (p[2] - r[2]) * (p[0] + r[0]);
		ez[2] += (p[0] - r[0]) * (p[1] + r[1]);
	}
	n = sqrt(ez[0] * ez[0] + ez[1] * ez[1] + ez[2] * ez[2]);
	if (n > 0) {
		for (int a = 0; a < 3; a++) ez[a] = ez[a] / n;
	}
	*nz = ez[2];
	ey[0] = ez[1] * ex[2] - ez[2] * ex[1];
	ey[1] = ez[2] * ex[0] - ez[0] * ex[2];
	ey[2] = ez[0] * ex[1] - ez[1] * ex[0];
	const double inf = __longlong_as_double(0x7ff0000000000000ll);
	double lo[2] = {inf, inf}, hi[2] = {-inf, -inf};
	for (int j = 0; j < len; j++) {
		double p[3], d[3];
		corner((int)ids[j], p);
		for (int a = 0; a < 3; a++) d[a] = p[a] - o[a];
		const double v[2] = {d[0] * ex[0] + d[1] * ex[1] + d[2] * ex[2], d[0] * ey[0] + d[1] * ey[1] + d[2] * ey[2]};
		for (int a = 0; a < 2; a++) {
			lo[a] = fmin_go(lo[a], v[a]);
			hi[a] = fmax_go(hi[a], v[a]);
		}
	}
	*w = hi[0] - lo[0];
	*l = hi[1] - lo[1];
	if (!(*w > 0 && *l > 0)) return false;
	const double c0 = (lo[0] + hi[0]) / 2, c1 = (lo[1] + hi[1]) / 2;
	for (int a = 0; a < 3; a++) {
		f[4 * a] = ex[a];
		f[4 * a + 1] = ey[a];
		f[4 * a + 2] = ez[a];
		f[4 * a + 3] = o[a] + c0 * ex[a] + c1 * ey[a];
	}
	return true;
}

// pga_roof_face frames face i of roof fr at s's height (pga_face_frame):
// false where it gives no child; *prof is its profile and *side whether
// it is a side.
__device__ bool pga_roof_face(const Prog &P, const PgaFootRoof &fr, const PgaItem &s, int i, double *f, double *w,
			      double *l, int *prof, int *side) {
	const int32_t start = P.poly[fr.part + i], len = P.poly[fr.part + i + 1] - start - 2;
	const int32_t *rec = P.poly + start;
	*prof = rec[0];
	*side = rec[1];
	if (*prof < 0 || len < 2) return false;
	const double h = s.size[2];
	double nz;
	return pga_face_frame([&](int k, double *o) { pga_roof_corner(P, fr, h, k, o); }, rec + 2, len, f, w, l, &nz);
}

// pga_face_child makes *c child i of n of roof s: a Quad on profile prof,
// framed by f in s and w by l, to branch b of op.
__device__ void pga_face_child(const Prog &P, const PgaOp &op, const PgaItem &s, int i, int n, const double *f,
			       double w, double l, int prof, int b, PgaItem *c) {
	pga_childof(s, i, n, *c);
	c->kind = PGA_QUAD;
	c->roof = PGA_NO_ROOF;
	c->profile = prof;
	mat_mul(s.m, f, c->m);
	c->size[0] = w;
	c->size[1] = l;
	c->size[2] = 0;
	PGA_SET(c, P.br[op.branch0 + b].chain);
}

// pga_underside makes *c the last child (n - 1) of roof s: its underside
// seen from below, on profile prof, to the second branch.
__device__ void pga_underside(const Prog &P, const PgaOp &op, const PgaItem &s, int n, int prof, PgaItem *c) {
	double t[12], r[12];
	pga_childof(s, n - 1, n, *c);
	c->kind = PGA_QUAD;
	c->roof = PGA_NO_ROOF;
	c->profile = prof;
	mat_translation(0, 0, -s.size[2] / 2, t);
	mat_mul(s.m, t, c->m);
	mat_rot(0, 180, r);
	mat_mul(c->m, r, c->m);
	c->size[2] = 0;
	PGA_SET(c, P.br[op.branch0 + 1].chain);
}

// pga_roof_split is output want of CompSplit on roof s (roofSplit): its
// faces in order, those of no extent left out, slopes to the first branch
// and sides to the third, then the underside to the second; with want < 0
// the number of outputs.
__device__ uint32_t pga_roof_split(const Prog &P, const PgaOp &op, const PgaItem &s, int want, PgaItem *c) {
	const PgaFootRoof fr = *pga_item_roof(P, s);
	const int n = fr.npart + 1;
	uint32_t cnt = 0;
	for (int i = 0; i < fr.npart; i++) {
		double f[12], w, l;
		int prof, side;
		if (!pga_roof_face(P, fr, s, i, f, &w, &l, &prof, &side)) continue;
		if ((int)cnt == want) {
			pga_face_child(P, op, s, i, n, f, w, l, prof, side ? 2 : 0, c);
			return 0;
		}
		cnt++;
	}
	if ((int)cnt == want) {
		pga_underside(P, op, s, n, fr.under, c);
		return 0;
	}
	return cnt + 1;
}

// pga_rect_roof_split is output want of CompSplit on a roof over a
// rectangle (rectRoofSplit), a GABLE, SHED or PYRAMID roof (the compile
// refuses the others): its four faces in roofSolid's order on the
// profiles rect_faces gives, those of no extent left out, vertical ones to
// the third branch and the rest to the first, then the underside, on the
// shape's own profile, to the second; with want < 0 the number of outputs.
__device__ uint32_t pga_rect_roof_split(const Prog &P, const PgaOp &op, const PgaItem &s, int want, PgaItem *c) {
	const int k = pga_rect_roof_kind(s.roof, s.size[0], s.size[1]);
	double cs[6][3];
	pga_rect_roof_corners(k, s.size[0] / 2, s.size[1] / 2, s.size[2] / 2, cs);
	const int8_t(*faces)[4] = pga_roof_faces[pga_roof_table(k)];
	const int n = 5;
	uint32_t cnt = 0;
	for (int i = 0; i < 4; i++) {
		const int8_t *ids = faces[i + 1];
		const int len = ids[3] < 0 ? 3 : 4;
		const int prof = P.poly[P.rect_faces + 4 * (k - 1) + i];
		double f[12], w, l, nz;
		if (prof < 0 || !pga_face_frame([&](int j, double *o) { for (int a = 0; a < 3; a++) o[a] = cs[j][a]; }, ids, len, f, &w, &l, &nz)) continue;
		if ((int)cnt == want) {
			pga_face_child(P, op, s, i, n, f, w, l, prof, fabs(nz) < 1e-9 ? 2 : 0, c);
			return 0;
		}
		cnt++;
	}
	if ((int)cnt == want) {
		pga_underside(P, op, s, n, s.profile, c);
		return 0;
	}
	return cnt + 1;
}
