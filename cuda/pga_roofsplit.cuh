// Part of pga.cu (included by pga_outputs.cuh, after pga_childof and PGA_SET): CompSplit of a roof
// on a lot's own polygon (roof_split.go: roofSplit, faceAt).
#pragma once

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

// pga_roof_face frames face i of roof fr at s's height as faceAt does
// (faceFrame, then the outer ring's bounding rectangle in that frame):
// false where it gives no child. f is the child's frame in s, w and l its
// size, *prof its profile and *side whether it is a side.
__device__ bool pga_roof_face(const Prog &P, const PgaFootRoof &fr, const PgaItem &s, int i, double *f, double *w,
			     double *l, int *prof, int *side) {
	const int32_t start = P.poly[fr.part + i], len = P.poly[fr.part + i + 1] - start - 2;
	const int32_t *rec = P.poly + start;
	*prof = rec[0];
	*side = rec[1];
	if (*prof < 0 || len < 2) return false;
	const int32_t *ids = rec + 2;
	const double h = s.size[2];
	double o[3], q[3], ex[3], ez[3] = {0, 0, 0}, ey[3];
	pga_roof_corner(P, fr, h, ids[0], o);
	pga_roof_corner(P, fr, h, ids[1], q);
	for (int a = 0; a < 3; a++) ex[a] = q[a] - o[a];
	double n = sqrt(ex[0] * ex[0] + ex[1] * ex[1] + ex[2] * ex[2]);
	if (n > 0) {
		for (int a = 0; a < 3; a++) ex[a] = ex[a] / n;
	}
	// newell (geometry.go) over the outer ring.
	for (int j = 0; j < len; j++) {
		double p[3], r[3];
		pga_roof_corner(P, fr, h, ids[j], p);
		pga_roof_corner(P, fr, h, ids[(j + 1) % len], r);
		ez[0] += (p[1] - r[1]) * (p[2] + r[2]);
		ez[1] += (p[2] - r[2]) * (p[0] + r[0]);
		ez[2] += (p[0] - r[0]) * (p[1] + r[1]);
	}
	n = sqrt(ez[0] * ez[0] + ez[1] * ez[1] + ez[2] * ez[2]);
	if (n > 0) {
		for (int a = 0; a < 3; a++) ez[a] = ez[a] / n;
	}
	ey[0] = ez[1] * ex[2] - ez[2] * ex[1];
	ey[1] = ez[2] * ex[0] - ez[0] * ex[2];
	ey[2] = ez[0] * ex[1] - ez[1] * ex[0];
	const double inf = __longlong_as_double(0x7ff0000000000000ll);
	double lo[2] = {inf, inf}, hi[2] = {-inf, -inf};
	for (int j = 0; j < len; j++) {
		double p[3], d[3];
		pga_roof_corner(P, fr, h, ids[j], p);
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
			pga_childof(s, i, n, *c);
			c->kind = PGA_QUAD;
			c->roof = PGA_NO_ROOF;
			c->profile = prof;
			mat_mul(s.m, f, c->m);
			c->size[0] = w;
			c->size[1] = l;
			c->size[2] = 0;
			PGA_SET(c, P.br[op.branch0 + (side ? 2 : 0)].chain);
			return 0;
		}
		cnt++;
	}
	if ((int)cnt == want) {
		// The underside seen from below, as a prism's bottom cap.
		double t[12], r[12];
		pga_childof(s, n - 1, n, *c);
		c->kind = PGA_QUAD;
		c->roof = PGA_NO_ROOF;
		c->profile = fr.under;
		mat_translation(0, 0, -s.size[2] / 2, t);
		mat_mul(s.m, t, c->m);
		mat_rot(0, 180, r);
		mat_mul(c->m, r, c->m);
		c->size[2] = 0;
		PGA_SET(c, P.br[op.branch0 + 1].chain);
		return 0;
	}
	return cnt + 1;
}
