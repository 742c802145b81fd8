// Part of pga.cu (included there, after its defines): terminal geometry and meshes (geometry.go).
#pragma once

// ---- Terminal geometry (geometry.go: solid, roofSolid, counts) ----

__constant__ int8_t pga_box_faces[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
// Roof faces: gable and hip, shed, pyramid; -1 ends a triangle.
__constant__ int8_t pga_roof_faces[3][5][4] = {
	{{0, 3, 2, 1}, {0, 1, 5, 4}, {2, 3, 4, 5}, {1, 2, 5, -1}, {3, 0, 4, -1}},
	{{0, 3, 2, 1}, {0, 1, 4, 5}, {2, 3, 5, 4}, {1, 2, 4, -1}, {3, 0, 5, -1}},
	{{0, 3, 2, 1}, {0, 1, 4, -1}, {1, 2, 4, -1}, {2, 3, 4, -1}, {3, 0, 4, -1}},
};

// The effective roof: a hip roof on a square footprint is a pyramid.
__device__ __forceinline__ int pga_roof_kind(const PgaTerm &t) {
	if (t.roof == PGA_HIP) {
		double x = t.size[0] / 2, y = t.size[1] / 2;
		if (y > x) { const double u = x; x = y; y = u; }
		if (x - y <= 0) return PGA_PYRAMID;
	}
	return t.roof;
}

// The roof of a roofed terminal on a lot's own polygon, nullptr for others.
__device__ __forceinline__ const PgaFootRoof *pga_foot_roof(const Prog &P, const PgaTerm &t) {
	if (t.roof == PGA_NO_ROOF || t.profile == 0 || P.profiles[t.profile].roofs < 0) return nullptr;
	return P.froof + P.profiles[t.profile].roofs + t.roof - 1;
}

// Corner k of such a roof (polyRoof.solid): its base at -h/2, its highest
// corner at +h/2.
__device__ void pga_foot_roof_corner(const Prog &P, const PgaTerm &t, const PgaFootRoof &fr, int k, double *o) {
	const double h = t.size[2];
	const double s = fr.top > 0 ? h / fr.top : 0.0;
	const double *c = P.rpts + 3 * (fr.at + k);
	o[0] = c[0];
	o[1] = c[1];
	o[2] = c[2] * s - h / 2;
}

// counts: corners and triangles as Grammar.counts.
__device__ void pga_counts(const Prog &P, const PgaTerm &t, uint32_t &nv, uint32_t &nt) {
	if (t.kind == PGA_SPHERE) {
		nv = PGA_SPHERE_SLICES * PGA_SPHERE_SLICES;
		nt = 2 * (PGA_SPHERE_SLICES - 1) * (PGA_SPHERE_SLICES - 1);
		return;
	}
	if (const PgaFootRoof *fr = pga_foot_roof(P, t)) {
		nv = fr->nat;
		nt = 0;
		for (int f = 0; f < fr->nface; f++) nt += P.poly[fr->face + f + 1] - P.poly[fr->face + f] - 2;
		return;
	}
	if (t.roof != PGA_NO_ROOF) {
		if (t.roof == PGA_PYRAMID || (t.roof == PGA_HIP && t.size[0] == t.size[1])) { nv = 5; nt = 6; }
		else { nv = 6; nt = 8; }
		return;
	}
	if (t.profile != 0) {
		const PgaProfile pr = P.profiles[t.profile];
		if (t.kind == PGA_QUAD) { nv = pr.n; nt = pr.ntris; }
		else { nv = 2 * pr.n; nt = 2 * pr.ntris + 2 * pr.n; }
		return;
	}
	if (t.kind == PGA_QUAD) { nv = 4; nt = 2; return; }
	nv = 8;
	nt = 12;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_mesh_count(const uint32_t *words, const PgaTerm *terms, uint32_t n, unsigned long long *counts) {
	const Prog P = pga_prog(words);
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	uint32_t nv, nt;
	pga_counts(P, terms[i], nv, nt);
	counts[i] = (unsigned long long)nt << 32 | nv;
}

// pga_term_hist counts terminals by kind (hist has nkinds zeroed words):
// a histogram per block in shared memory (nkinds words of dynamic shared
// memory), then one global add per kind and block.
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_term_hist(const PgaTerm *terms, uint32_t n, uint32_t nkinds, unsigned int *hist) {
	extern __shared__ unsigned int pga_hist_sh[];
	for (uint32_t k = threadIdx.x; k < nkinds; k += blockDim.x) pga_hist_sh[k] = 0;
	__syncthreads();
	for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		const uint32_t t = (uint32_t)terms[i].term;
		if (t < nkinds) atomicAdd(&pga_hist_sh[t], 1u);
	}
	__syncthreads();
	for (uint32_t k = threadIdx.x; k < nkinds; k += blockDim.x)
		if (pga_hist_sh[k] != 0) atomicAdd(&hist[k], pga_hist_sh[k]);
}

// The local corners of t's solid (at most 2 PGA_MAX_PROFILE).
__device__ int pga_corners(const Prog &P, const PgaTerm &t, double (*c)[3]) {
	double x = t.size[0] / 2, y = t.size[1] / 2, z = t.size[2] / 2;
	if (t.roof != PGA_NO_ROOF) {
		const int k = pga_roof_kind(t);
		const double h = z;
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
	if (t.profile != 0) {
		const PgaProfile pr = P.profiles[t.profile];
		const double *pts = P.points + 2 * pr.start;
		for (int i = 0; i < pr.n; i++) {
			const double px = pts[2 * i] * 2 * x;
			if (t.kind == PGA_QUAD) {
				c[i][0] = px; c[i][1] = pts[2 * i + 1] * 2 * y; c[i][2] = 0;
			} else { // a right prism along Y (solid in geometry.go)
				const double pz = -pts[2 * i + 1] * 2 * z;
				c[2 * i][0] = px; c[2 * i][1] = -y; c[2 * i][2] = pz;
				c[2 * i + 1][0] = px; c[2 * i + 1][1] = y; c[2 * i + 1][2] = pz;
			}
		}
		return t.kind == PGA_QUAD ? pr.n : 2 * pr.n;
	}
	if (t.kind == PGA_QUAD) {
		const double q[4][2] = {{-x, -y}, {x, -y}, {x, y}, {-x, y}};
		for (int i = 0; i < 4; i++) { c[i][0] = q[i][0]; c[i][1] = q[i][1]; c[i][2] = 0; }
		return 4;
	}
	for (int k = 0; k < 8; k++) {
		c[k][0] = (double)(2 * (k & 1) - 1) * x;
		c[k][1] = (double)(2 * (k >> 1 & 1) - 1) * y;
		c[k][2] = (double)(2 * (k >> 2 & 1) - 1) * z;
	}
	return 8;
}

// Corner k of a Sphere terminal in its local frame (sphereUnit,
// sphereSolid): a unit vector of the grid scaled by size X, in world axes,
// taken to the local frame.
__device__ void pga_sphere_corner(const PgaTerm &t, int k, double *c) {
	const int S = PGA_SPHERE_SLICES;
	const int i = k / S, j = k % S;
	const double theta = 2 * 3.141592653589793 * (double)i / (S - 1);
	const double phi = 3.141592653589793 * (double)j / (S - 1);
	double st, ct, sp, cp;
	sincos(theta, &st, &ct);
	sincos(phi, &sp, &cp);
	const double r = t.size[0];
	const double w[3] = {-sp * ct * r, -cp * r, -sp * st * r};
	for (int a = 0; a < 3; a++) c[a] = t.m[a] * w[0] + t.m[4 + a] * w[1] + t.m[8 + a] * w[2];
}

// pga_sphere_write writes a Sphere terminal as sphereSolid (sphere.go) and
// worldSolid draw it: OperatorGraph's grid of PGA_SPHERE_SLICES² points of
// radius size X around the position in world axes (taken to the local frame
// and back, as the CPU does), two triangles a cell.
__device__ void pga_sphere_write(const PgaTerm &t, float *vo, uint32_t *ix, uint32_t v0) {
	const int S = PGA_SPHERE_SLICES;
	for (int k = 0; k < S * S; k++) {
		double c[3];
		pga_sphere_corner(t, k, c);
		for (int q = 0; q < 3; q++)
			vo[3 * k + q] = (float)(t.m[q * 4] * c[0] + t.m[q * 4 + 1] * c[1] + t.m[q * 4 + 2] * c[2] + t.m[q * 4 + 3]);
	}
	for (int i = 0; i < S - 1; i++) {
		for (int j = 0; j < S - 1; j++) {
			const uint32_t b = v0 + (uint32_t)(i * S + j);
			*ix++ = b;
			*ix++ = b + S + 1;
			*ix++ = b + S;
			*ix++ = b;
			*ix++ = b + 1;
			*ix++ = b + S + 1;
		}
	}
}

// pga_footprint_write writes a terminal standing on a lot's own polygon as
// footprint.solid draws it: a Quad is the polygon's corners (every ring's,
// in order) and its cap triangles; a right prism the corners at -y and +y
// per point, the top cap's triangles, the bottom's reversed, then a wall
// per edge of every ring (two triangles, fanned as the encoders do).
__device__ void pga_footprint_write(const Prog &P, const PgaTerm &t, float *vo, uint32_t *ix, uint32_t v0) {
	const PgaProfile pr = P.profiles[t.profile];
	const double *pts = P.points + 2 * pr.start;
	const int32_t *tri = P.poly + pr.tris;
	const double x = t.size[0] / 2, y = t.size[1] / 2, z = t.size[2] / 2;
	const bool quad = t.kind == PGA_QUAD;
	const int per = quad ? 1 : 2;
	for (int i = 0; i < pr.n; i++) {
		const double px = pts[2 * i] * 2 * x;
		for (int h = 0; h < per; h++) {
			double c[3];
			if (quad) {
				c[0] = px; c[1] = pts[2 * i + 1] * 2 * y; c[2] = 0;
			} else {
				c[0] = px; c[1] = h ? y : -y; c[2] = -pts[2 * i + 1] * 2 * z;
			}
			float *o = vo + 3 * (per * i + h);
			for (int r = 0; r < 3; r++)
				o[r] = (float)(t.m[r * 4] * c[0] + t.m[r * 4 + 1] * c[1] + t.m[r * 4 + 2] * c[2] + t.m[r * 4 + 3]);
		}
	}
	if (quad) {
		for (int k = 0; k < 3 * pr.ntris; k++) *ix++ = v0 + (uint32_t)tri[k];
		return;
	}
	for (int k = 0; k < pr.ntris; k++) { // top
		for (int a = 0; a < 3; a++) *ix++ = v0 + (uint32_t)(2 * tri[3 * k + a] + 1);
	}
	for (int k = 0; k < pr.ntris; k++) { // bottom, reversed
		for (int a = 2; a >= 0; a--) *ix++ = v0 + (uint32_t)(2 * tri[3 * k + a]);
	}
	for (int r = 0, base = 0; r < pr.nrings; r++) {
		const int len = P.poly[pr.rings + r];
		for (int i = 0; i < len; i++) {
			const uint32_t a = v0 + 2 * (uint32_t)(base + i), b = v0 + 2 * (uint32_t)(base + (i + 1) % len);
			*ix++ = a; *ix++ = b; *ix++ = b + 1;
			*ix++ = a; *ix++ = b + 1; *ix++ = a + 1;
		}
		base += len;
	}
}

// Writes the triangles of a face (corner ids f[0..m)) as a fan from f[0].
__device__ __forceinline__ uint32_t *pga_fan(uint32_t *ix, uint32_t v0, const int *f, int m) {
	for (int j = 1; j + 1 < m; j++) {
		*ix++ = v0 + f[0];
		*ix++ = v0 + f[j];
		*ix++ = v0 + f[j + 1];
	}
	return ix;
}

// One thread per terminal: its corners in world coordinates (float32, as
// EncodeOBJ writes them) and its faces' triangle fans (as EncodeGLB splits
// them), at the offsets the scan of pga_mesh_count's counts gave.
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_mesh_write(const uint32_t *words, const PgaTerm *terms, uint32_t n, const unsigned long long *offs, float *verts,
	       uint32_t *index) {
	const Prog P = pga_prog(words);
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const PgaTerm &t = terms[i];
	const unsigned long long o = offs[i];
	const uint32_t v0 = (uint32_t)o, t0 = (uint32_t)(o >> 32);
	if (t.kind == PGA_SPHERE) {
		pga_sphere_write(t, verts + 3ull * v0, index + 3ull * t0, v0);
		return;
	}
	if (t.profile != 0 && t.roof == PGA_NO_ROOF && P.profiles[t.profile].tris >= 0) {
		pga_footprint_write(P, t, verts + 3ull * v0, index + 3ull * t0, v0);
		return;
	}
	if (const PgaFootRoof *fr = pga_foot_roof(P, t)) {
		float *vo = verts + 3ull * v0;
		for (int k = 0; k < fr->nat; k++) {
			double c[3];
			pga_foot_roof_corner(P, t, *fr, k, c);
			for (int r = 0; r < 3; r++)
				vo[3 * k + r] = (float)(t.m[r * 4] * c[0] + t.m[r * 4 + 1] * c[1] + t.m[r * 4 + 2] * c[2] + t.m[r * 4 + 3]);
		}
		uint32_t *ix = index + 3ull * t0;
		for (int f = 0; f < fr->nface; f++) {
			const int a = P.poly[fr->face + f], b = P.poly[fr->face + f + 1];
			for (int j = a + 1; j + 1 < b; j++) {
				*ix++ = v0 + (uint32_t)P.poly[a];
				*ix++ = v0 + (uint32_t)P.poly[j];
				*ix++ = v0 + (uint32_t)P.poly[j + 1];
			}
		}
		return;
	}
	double c[2 * PGA_MAX_PROFILE][3];
	const int nc = pga_corners(P, t, c);
	double m[12];
	for (int k = 0; k < 12; k++) m[k] = t.m[k];
	float *vo = verts + 3ull * v0;
	for (int k = 0; k < nc; k++) {
		for (int r = 0; r < 3; r++) {
			const double v = m[r * 4] * c[k][0] + m[r * 4 + 1] * c[k][1] + m[r * 4 + 2] * c[k][2] + m[r * 4 + 3];
			vo[3 * k + r] = (float)v;
		}
	}
	uint32_t *ix = index + 3ull * t0;
	int f[2 * PGA_MAX_PROFILE];
	if (t.roof != PGA_NO_ROOF) {
		const int k = pga_roof_kind(t);
		const int tab = k == PGA_PYRAMID ? 2 : k == PGA_SHED ? 1 : 0;
		for (int a = 0; a < 5; a++) {
			int mm = 0;
			for (int b = 0; b < 4 && pga_roof_faces[tab][a][b] >= 0; b++) f[mm++] = pga_roof_faces[tab][a][b];
			ix = pga_fan(ix, v0, f, mm);
		}
		return;
	}
	if (t.profile != 0) {
		const int np = P.profiles[t.profile].n;
		if (t.kind == PGA_QUAD) {
			for (int a = 0; a < np; a++) f[a] = a;
			pga_fan(ix, v0, f, np);
			return;
		}
		for (int a = 0; a < np; a++) f[a] = 2 * a + 1; // top
		ix = pga_fan(ix, v0, f, np);
		for (int a = 0; a < np; a++) f[np - 1 - a] = 2 * a; // bottom
		ix = pga_fan(ix, v0, f, np);
		for (int a = 0; a < np; a++) {
			const int b = (a + 1) % np;
			f[0] = 2 * a;
			f[1] = 2 * b;
			f[2] = 2 * b + 1;
			f[3] = 2 * a + 1;
			ix = pga_fan(ix, v0, f, 4);
		}
		return;
	}
	if (t.kind == PGA_QUAD) {
		f[0] = 0, f[1] = 1, f[2] = 2, f[3] = 3;
		pga_fan(ix, v0, f, 4);
		return;
	}
	for (int a = 0; a < 6; a++) {
		for (int b = 0; b < 4; b++) f[b] = pga_box_faces[a][b];
		ix = pga_fan(ix, v0, f, 4);
	}
}
