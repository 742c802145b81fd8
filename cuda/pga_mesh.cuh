// Part of pga.cu (included there, after its defines): terminal geometry and meshes (geometry.go).
#pragma once

// ---- Terminal geometry (geometry.go: solid, roofSolid, counts) ----

__constant__ int8_t pga_box_faces[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
// The effective roof: a hip roof on a square footprint is a pyramid.
__device__ __forceinline__ int pga_roof_kind(const PgaTerm &t) { return pga_rect_roof_kind(t.roof, t.size[0], t.size[1]); }

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

// The local corners of t's solid (at most 2 PGA_MAX_PROFILE).
__device__ int pga_corners(const Prog &P, const PgaTerm &t, double (*c)[3]) {
	double x = t.size[0] / 2, y = t.size[1] / 2, z = t.size[2] / 2;
	if (t.roof != PGA_NO_ROOF) return pga_rect_roof_corners(pga_roof_kind(t), x, y, z, c);
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

// A terminal's solid (geometry.go: solid): its corners in the local frame
// and its faces by number, the one description the device mesh, the GLB
// (pga_glb.cuh) and the overflow check all draw from.
struct PgaSolid {
	const Prog *P;
	const PgaTerm *t;
	const PgaFootRoof *fr;
	int form; // PGA_FORM_*
	int nc;   // corners held in c (PGA_FORM_TABLE)
	double c[2 * PGA_MAX_PROFILE][3];
	PgaProfile pr;
	const double *pts;
	const int32_t *poly;
	double x, y, z; // half sizes
};

#define PGA_FORM_TABLE 0  // box, quad, roof, convex prism profile: corners from pga_corners
#define PGA_FORM_FOOT 1   // a lot's own polygon (footprint.go: solid)
#define PGA_FORM_SPHERE 2 // sphere.go: sphereSolid
#define PGA_FORM_ROOF 3   // a roof on a lot's own polygon (polyRoof.solid)

__device__ void pga_solid_init(const Prog &P, const PgaTerm &t, PgaSolid &S) {
	S.P = &P;
	S.t = &t;
	S.fr = nullptr;
	S.x = t.size[0] / 2;
	S.y = t.size[1] / 2;
	S.z = t.size[2] / 2;
	S.poly = P.poly;
	S.nc = 0;
	if (t.kind == PGA_SPHERE) {
		S.form = PGA_FORM_SPHERE;
		return;
	}
	if ((S.fr = pga_foot_roof(P, t)) != nullptr) {
		S.form = PGA_FORM_ROOF;
		return;
	}
	if (t.profile != 0 && t.roof == PGA_NO_ROOF && P.profiles[t.profile].tris >= 0) {
		S.form = PGA_FORM_FOOT;
		S.pr = P.profiles[t.profile];
		S.pts = P.points + 2 * S.pr.start;
		return;
	}
	S.form = PGA_FORM_TABLE;
	if (t.profile != 0) {
		S.pr = P.profiles[t.profile];
		S.pts = P.points + 2 * S.pr.start;
	}
	S.nc = pga_corners(P, t, S.c);
}

// Corner k in the solid's local frame.
__device__ void pga_solid_corner(const PgaSolid &S, int k, double *o) {
	if (S.form == PGA_FORM_TABLE) {
		o[0] = S.c[k][0];
		o[1] = S.c[k][1];
		o[2] = S.c[k][2];
		return;
	}
	if (S.form == PGA_FORM_ROOF) {
		pga_foot_roof_corner(*S.P, *S.t, *S.fr, k, o);
		return;
	}
	if (S.form == PGA_FORM_FOOT) {
		if (S.t->kind == PGA_QUAD) {
			o[0] = S.pts[2 * k] * 2 * S.x;
			o[1] = S.pts[2 * k + 1] * 2 * S.y;
			o[2] = 0;
		} else {
			const int i = k >> 1;
			o[0] = S.pts[2 * i] * 2 * S.x;
			o[1] = (k & 1) ? S.y : -S.y;
			o[2] = -S.pts[2 * i + 1] * 2 * S.z;
		}
		return;
	}
	pga_sphere_corner(*S.t, k, o);
}

__device__ int pga_solid_faces(const PgaSolid &S) {
	const PgaTerm &t = *S.t;
	switch (S.form) {
	case PGA_FORM_SPHERE:
		return 2 * (PGA_SPHERE_SLICES - 1) * (PGA_SPHERE_SLICES - 1);
	case PGA_FORM_FOOT:
		return t.kind == PGA_QUAD ? S.pr.ntris : 2 * S.pr.ntris + S.pr.n;
	case PGA_FORM_ROOF:
		return S.fr->nface;
	}
	if (t.roof != PGA_NO_ROOF) return 5;
	if (t.profile != 0) return t.kind == PGA_QUAD ? 1 : 2 + S.pr.n;
	return t.kind == PGA_QUAD ? 1 : 6;
}

// Face f's corners (at most PGA_MAX_PROFILE) into ids; returns how many.
__device__ int pga_solid_face(const PgaSolid &S, int f, int *ids) {
	const PgaTerm &t = *S.t;
	if (S.form == PGA_FORM_SPHERE) {
		const int SL = PGA_SPHERE_SLICES;
		const int cell = f >> 1, i = cell / (SL - 1), j = cell % (SL - 1);
		const int b = i * SL + j;
		ids[0] = b;
		if (f & 1) { ids[1] = b + 1; ids[2] = b + SL + 1; }
		else { ids[1] = b + SL + 1; ids[2] = b + SL; }
		return 3;
	}
	if (S.form == PGA_FORM_ROOF) {
		const int a = S.poly[S.fr->face + f], b = S.poly[S.fr->face + f + 1];
		for (int j = a; j < b; j++) ids[j - a] = S.poly[j];
		return b - a;
	}
	if (S.form == PGA_FORM_FOOT) {
		const int32_t *tri = S.poly + S.pr.tris;
		const int nt = S.pr.ntris;
		if (t.kind == PGA_QUAD) {
			for (int a = 0; a < 3; a++) ids[a] = tri[3 * f + a];
			return 3;
		}
		if (f < nt) { // top
			for (int a = 0; a < 3; a++) ids[a] = 2 * tri[3 * f + a] + 1;
			return 3;
		}
		if (f < 2 * nt) { // bottom, reversed
			f -= nt;
			for (int a = 0; a < 3; a++) ids[a] = 2 * tri[3 * f + 2 - a];
			return 3;
		}
		int w = f - 2 * nt, base = 0; // a wall: edge w of all the rings
		for (int r = 0; r < S.pr.nrings; r++) {
			const int len = S.poly[S.pr.rings + r];
			if (w < len) {
				const int a = base + w, b = base + (w + 1) % len;
				ids[0] = 2 * a;
				ids[1] = 2 * b;
				ids[2] = 2 * b + 1;
				ids[3] = 2 * a + 1;
				return 4;
			}
			w -= len;
			base += len;
		}
		return 0;
	}
	if (t.roof != PGA_NO_ROOF) {
		const int k = pga_roof_kind(t);
		const int tab = k == PGA_PYRAMID ? 2 : k == PGA_SHED ? 1 : 0;
		int m = 0;
		for (int b = 0; b < 4 && pga_roof_faces[tab][f][b] >= 0; b++) ids[m++] = pga_roof_faces[tab][f][b];
		return m;
	}
	if (t.profile != 0) {
		const int n = S.pr.n;
		if (t.kind == PGA_QUAD) {
			for (int a = 0; a < n; a++) ids[a] = a;
			return n;
		}
		if (f == 0) {
			for (int a = 0; a < n; a++) ids[a] = 2 * a + 1;
			return n;
		}
		if (f == 1) {
			for (int a = 0; a < n; a++) ids[n - 1 - a] = 2 * a;
			return n;
		}
		const int a = f - 2, b = (a + 1) % n;
		ids[0] = 2 * a;
		ids[1] = 2 * b;
		ids[2] = 2 * b + 1;
		ids[3] = 2 * a + 1;
		return 4;
	}
	if (t.kind == PGA_QUAD) {
		for (int a = 0; a < 4; a++) ids[a] = a;
		return 4;
	}
	for (int b = 0; b < 4; b++) ids[b] = pga_box_faces[f][b];
	return 4;
}

// pga_solid_corners is how many corners the solid has.
__device__ int pga_solid_corners(const PgaSolid &S) {
	switch (S.form) {
	case PGA_FORM_SPHERE:
		return PGA_SPHERE_SLICES * PGA_SPHERE_SLICES;
	case PGA_FORM_FOOT:
		return S.t->kind == PGA_QUAD ? S.pr.n : 2 * S.pr.n;
	case PGA_FORM_ROOF:
		return S.fr->nat;
	}
	return S.nc;
}

// counts: corners and triangles as Grammar.counts (the encoders fan every
// face from its first corner).
__device__ void pga_counts(const Prog &P, const PgaTerm &t, uint32_t &nv, uint32_t &nt) {
	PgaSolid S;
	pga_solid_init(P, t, S);
	nv = (uint32_t)pga_solid_corners(S);
	nt = 0;
	int ids[PGA_MAX_PROFILE];
	const int nf = pga_solid_faces(S);
	for (int f = 0; f < nf; f++) nt += (uint32_t)(pga_solid_face(S, f, ids) - 2);
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

// One thread per terminal: its solid's corners in world coordinates
// (float32, as EncodeOBJ writes them) and its faces' triangle fans from
// their first corners (as EncodeGLB splits them), at the offsets the scan of
// pga_mesh_count's counts gave.
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_mesh_write(const uint32_t *words, const PgaTerm *terms, uint32_t n, const unsigned long long *offs, float *verts,
	       uint32_t *index) {
	const Prog P = pga_prog(words);
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const PgaTerm &t = terms[i];
	const unsigned long long o = offs[i];
	const uint32_t v0 = (uint32_t)o, t0 = (uint32_t)(o >> 32);
	PgaSolid S;
	pga_solid_init(P, t, S);
	float *vo = verts + 3ull * v0;
	const int nc = pga_solid_corners(S);
	for (int k = 0; k < nc; k++) {
		double c[3];
		pga_solid_corner(S, k, c);
		for (int r = 0; r < 3; r++)
			vo[3 * k + r] = (float)(t.m[r * 4] * c[0] + t.m[r * 4 + 1] * c[1] + t.m[r * 4 + 2] * c[2] + t.m[r * 4 + 3]);
	}
	uint32_t *ix = index + 3ull * t0;
	int f[PGA_MAX_PROFILE];
	const int nf = pga_solid_faces(S);
	for (int a = 0; a < nf; a++) {
		const int k = pga_solid_face(S, a, f);
		for (int j = 1; j + 1 < k; j++) {
			*ix++ = v0 + f[0];
			*ix++ = v0 + f[j];
			*ix++ = v0 + f[j + 1];
		}
	}
}
