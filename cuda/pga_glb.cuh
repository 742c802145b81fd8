// Part of pga.cu (included there, after pga_mesh.cuh): the GLB's vertex data
// built on the device, as Grammar.Mesh and mesh.EncodeGLB write it on the
// host (mesh.go, geometry.go, internal/output/mesh/gltf.go). Every face of
// a terminal's solid (PgaSolid, pga_mesh.cuh) gives a vertex per corner, each
// with the corner's world position, the face's world normal (Newell's, in
// the local frame, turned by the transform) and, in a part with texture
// coordinates, the projection's (u, 1 - v) of the corner; the face becomes
// a fan of triangles from its first corner. Terminals come in the file's
// order (perm: part by part, each in the host's order of lot, seed and
// kind), so each thread writes its terminal at the offsets the scan of
// pga_glb_count's counts gave.
#pragma once

// pga_newell sets n to the unit normal of face c[0..k) by Newell's method
// (newell in geometry.go: zero when degenerate) and returns its length
// before normalising.
__device__ double pga_newell(const double (*c)[3], int k, double n[3]) {
	n[0] = n[1] = n[2] = 0;
	for (int a = 0; a < k; a++) {
		const double *p = c[a], *r = c[(a + 1) % k];
		n[0] += (p[1] - r[1]) * (p[2] + r[2]);
		n[1] += (p[2] - r[2]) * (p[0] + r[0]);
		n[2] += (p[0] - r[0]) * (p[1] + r[1]);
	}
	const double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	if (l > 0) {
		n[0] /= l;
		n[1] /= l;
		n[2] /= l;
	}
	return l;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_glb_keys(const PgaTerm *terms, uint32_t n, PgaGlbKey *keys) {
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const PgaTerm &t = terms[i];
	keys[i] = PgaGlbKey{t.seed, t.axiom, t.term, t.mat, t.uv};
}

// pga_glb_gather copies terminals at[0..n) into out: an asset's
// terminals, whose instances the host places (cuda_glb_assets.go).
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_glb_gather(const PgaTerm *terms, const uint32_t *at, uint32_t n, PgaTerm *out) {
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	out[i] = terms[at[i]];
}

// Per position q of the file's order: (indices << 32 | vertices) of
// terminal perm[q].
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_glb_count(const uint32_t *words, const PgaTerm *terms, const uint32_t *perm, uint32_t n, unsigned long long *counts) {
	const Prog P = pga_prog(words);
	const uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= n) return;
	PgaSolid S;
	pga_solid_init(P, terms[perm[q]], S);
	const int nf = pga_solid_faces(S);
	unsigned long long nv = 0, ni = 0;
	int ids[PGA_MAX_PROFILE];
	for (int f = 0; f < nf; f++) {
		const int m = pga_solid_face(S, f, ids);
		nv += m;
		if (m > 2) ni += 3 * (m - 2);
	}
	counts[q] = ni << 32 | nv;
}

// A float's bits as an int that orders as the float does (-0 below +0).
__device__ __forceinline__ int pga_ordered(float v) {
	const int b = __float_as_int(v);
	return b >= 0 ? b : b ^ 0x7fffffff;
}

// pga_glb_write writes terminal perm[q]'s vertices and indices into bin at
// its part's offsets, and its positions' bounds into bounds (6 ordered ints
// a part: min x y z, max x y z); bad is set where a value is not finite.
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_glb_write(const uint32_t *words, const PgaTerm *terms, const uint32_t *perm, uint32_t n,
	      const unsigned long long *offs, const PgaGlbPart *parts, uint32_t nparts, unsigned char *bin, int *bounds,
	      int *bad) {
	const Prog P = pga_prog(words);
	const uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
	if (q >= n) return;
	uint32_t lo = 0, hi = nparts; // the part holding q: the last with q0 <= q
	while (hi - lo > 1) {
		const uint32_t mid = (lo + hi) / 2;
		if (parts[mid].q0 <= q) lo = mid;
		else hi = mid;
	}
	const PgaGlbPart pt = parts[lo];
	const PgaTerm &t = terms[perm[q]];
	PgaSolid S;
	pga_solid_init(P, t, S);
	uint32_t v = (uint32_t)offs[q] - pt.v0;
	unsigned long long ix = (offs[q] >> 32) - pt.i0;
	float *pos = (float *)(bin + pt.pos), *nrm = (float *)(bin + pt.nrm), *tex = (float *)(bin + pt.tex);
	uint32_t *idx = (uint32_t *)(bin + pt.idx);
	const double *m = t.m;
	// Bounds as ordered ints: -0 below +0, as Go's min and max take them.
	int omin[3] = {INT_MAX, INT_MAX, INT_MAX}, omax[3] = {INT_MIN, INT_MIN, INT_MIN};
	bool finite = true;
	const int nf = pga_solid_faces(S);
	int ids[PGA_MAX_PROFILE];
	double c[PGA_MAX_PROFILE][3];
	for (int f = 0; f < nf; f++) {
		const int k = pga_solid_face(S, f, ids);
		for (int a = 0; a < k; a++) pga_solid_corner(S, ids[a], c[a]);
		double nl[3];
		if (pga_newell(c, k, nl) == 0) {
			// A face of no area (a piece of no extent): the same face's
			// normal with every zero size taken as 1 (worldSolid).
			PgaTerm u = t;
			for (int r = 0; r < 3; r++)
				if (u.size[r] == 0) u.size[r] = 1;
			PgaSolid U;
			pga_solid_init(P, u, U);
			int uids[PGA_MAX_PROFILE];
			double uc[PGA_MAX_PROFILE][3];
			if (f < pga_solid_faces(U)) {
				const int uk = pga_solid_face(U, f, uids);
				for (int a = 0; a < uk; a++) pga_solid_corner(U, uids[a], uc[a]);
				pga_newell(uc, uk, nl);
			}
		}
		float fn[3];
		for (int r = 0; r < 3; r++) {
			fn[r] = (float)(m[r * 4] * nl[0] + m[r * 4 + 1] * nl[1] + m[r * 4 + 2] * nl[2]);
			if (fn[r] == 0.0f) fn[r] = 0.0f; // -0 written as 0, as the host's encoder does (plusZero)
		}
		for (int a = 0; a < k; a++) {
			double w[3];
			for (int r = 0; r < 3; r++) w[r] = m[r * 4] * c[a][0] + m[r * 4 + 1] * c[a][1] + m[r * 4 + 2] * c[a][2] + m[r * 4 + 3];
			const unsigned long long o = 3ull * (v + a);
			for (int r = 0; r < 3; r++) {
				float pv = (float)w[r];
				if (pv == 0.0f) pv = 0.0f; // -0 written as 0 (plusZero)
				pos[o + r] = pv;
				nrm[o + r] = fn[r];
				omin[r] = min(omin[r], pga_ordered(pv));
				omax[r] = max(omax[r], pga_ordered(pv));
				finite = finite && isfinite(pv) && isfinite(fn[r]);
			}
			if (pt.uv) { // uvAt (texture.go); glTF's v runs down the image
				float uv[2] = {0, 0};
				for (int e = 0; e < 2; e++) {
					if (t.uv)
						uv[e] = (float)((double)t.proj[4 * e] * w[0] + (double)t.proj[4 * e + 1] * w[1] +
								(double)t.proj[4 * e + 2] * w[2] + (double)t.proj[4 * e + 3]);
					else
						uv[e] = (float)(0.0 * w[0] + 0.0 * w[1] + 0.0 * w[2] + 0.0);
				}
				tex[2ull * (v + a)] = uv[0];
				tex[2ull * (v + a) + 1] = 1.0f - uv[1];
				finite = finite && isfinite(uv[0]) && isfinite(uv[1]);
			}
		}
		for (int j = 1; j + 1 < k; j++) {
			idx[ix++] = v;
			idx[ix++] = v + j;
			idx[ix++] = v + j + 1;
		}
		v += k;
	}
	if (!finite) atomicOr(bad, 1);
	if (nf == 0) return;
	int *b = bounds + 6 * lo;
	for (int r = 0; r < 3; r++) {
		atomicMin(b + r, omin[r]);
		atomicMax(b + 3 + r, omax[r]);
	}
}

// pga_overflow measures, as Grammar.outside does, how far each terminal's
// farthest corner lies outside its lot's polygon (edges: a point on each
// edge and its outward normal, four doubles; erng: per lot its first edge
// and count), and keeps each lot's worst in worst as an ordered 64-bit
// integer (0: none measured).
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_overflow(const uint32_t *words, const PgaTerm *terms, uint32_t n, const double *edges, const PgaRange *erng,
	     uint32_t nlots, unsigned long long *worst) {
	const Prog P = pga_prog(words);
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const PgaTerm &t = terms[i];
	if (t.axiom < 0 || (uint32_t)t.axiom >= nlots) return;
	const PgaRange r = erng[t.axiom];
	if (r.n == 0) return;
	PgaSolid S;
	pga_solid_init(P, t, S);
	const int nc = pga_solid_corners(S);
	double d = -INFINITY;
	for (int k = 0; k < nc; k++) {
		double c[3], w[3];
		pga_solid_corner(S, k, c);
		for (int a = 0; a < 3; a++) w[a] = t.m[a * 4] * c[0] + t.m[a * 4 + 1] * c[1] + t.m[a * 4 + 2] * c[2] + t.m[a * 4 + 3];
		const double x = w[0], y = -w[2];
		for (int e = r.start; e < r.start + r.n; e++) {
			const double *E = edges + 4 * e;
			d = fmax(d, (x - E[0]) * E[2] + (y - E[1]) * E[3]);
		}
	}
	const long long b = __double_as_longlong(d);
	atomicMax(worst + t.axiom, b >= 0 ? (unsigned long long)b | 0x8000000000000000ull : ~(unsigned long long)b);
}
