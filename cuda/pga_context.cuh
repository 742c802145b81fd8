// Part of pga.cu (included there, after its defines): the context of earlier phases (context.go): oriented boxes, queries, snap planes.
#pragma once

// ---- Context of earlier phases (context.go) ----

#define PGA_EPS 1e-6 // snapEps and contactEps

struct Obb {
	double c[3], ax[3][3], half[3];
};

__device__ __forceinline__ double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

__device__ void shape_obb(const PgaItem &s, Obb &b) {
	for (int i = 0; i < 3; i++) {
		b.c[i] = s.m[i * 4 + 3];
		for (int k = 0; k < 3; k++) b.ax[k][i] = s.m[i * 4 + k];
		b.half[i] = fabs(s.size[i]) / 2;
	}
	if (s.kind == PGA_QUAD) b.half[2] = 0;
}

__device__ void load_obb(const PgaObb &o, Obb &b) {
	for (int i = 0; i < 3; i++) {
		b.c[i] = o.c[i];
		b.half[i] = o.half[i];
		for (int k = 0; k < 3; k++) b.ax[i][k] = o.axes[3 * i + k];
	}
}

__device__ void obb_interval(const Obb &b, const double *l, double &lo, double &hi) {
	const double c = dot3(b.c, l);
	double r = 0.0;
	for (int k = 0; k < 3; k++) r += b.half[k] * fabs(dot3(b.ax[k], l));
	lo = c - r;
	hi = c + r;
}

// contact: the 15 separating axes, as contact() in context.go.
__device__ void obb_contact(const Obb &a, const Obb &b, bool &overlap, bool &touch) {
	double axes[15][3];
	int n = 0;
	for (int k = 0; k < 3; k++) {
		for (int j = 0; j < 3; j++) {
			axes[n][j] = a.ax[k][j];
			axes[n + 1][j] = b.ax[k][j];
		}
		n += 2;
	}
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++) {
			const double *u = a.ax[i], *w = b.ax[j];
			const double v[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
			const double l = sqrt(dot3(v, v));
			if (l > 1e-9) {
				axes[n][0] = v[0] / l;
				axes[n][1] = v[1] / l;
				axes[n][2] = v[2] / l;
				n++;
			}
		}
	}
	overlap = true;
	touch = false;
	for (int i = 0; i < n; i++) {
		double a0, a1, b0, b1;
		obb_interval(a, axes[i], a0, a1);
		obb_interval(b, axes[i], b0, b1);
		const double sep = fmax_go(a0, b0) - fmin_go(a1, b1);
		if (sep > PGA_EPS) {
			overlap = false;
			return;
		}
		if (sep < -PGA_EPS) continue;
		const bool flatA = a1 - a0 <= PGA_EPS, flatB = b1 - b0 <= PGA_EPS;
		if (flatA && flatB) {
		} else if (flatA && a0 > b0 + PGA_EPS && a1 < b1 - PGA_EPS) {
		} else if (flatB && b0 > a0 + PGA_EPS && b1 < a1 - PGA_EPS) {
		} else {
			overlap = false;
		}
	}
	touch = true;
}

__device__ bool obb_inside(const Obb &a, const Obb &b) {
	for (int k = 0; k < 8; k++) {
		double p[3] = {a.c[0], a.c[1], a.c[2]};
		for (int i = 0; i < 3; i++) {
			double s = a.half[i];
			if ((k >> i & 1) == 0) s = -s;
			for (int j = 0; j < 3; j++) p[j] += s * a.ax[i][j];
		}
		const double d[3] = {p[0] - b.c[0], p[1] - b.c[1], p[2] - b.c[2]};
		for (int i = 0; i < 3; i++) {
			if (fabs(dot3(d, b.ax[i])) > b.half[i] + PGA_EPS) return false;
		}
	}
	return true;
}

__device__ __noinline__ bool pga_query(const Prog &P, int q, int group, const PgaItem &s) {
	if (!P.coll_rng || group < 0 || group >= P.ngroups) return false;
	const PgaRange r = P.coll_rng[(size_t)s.axiom * P.ngroups + group];
	if (r.n == 0) return false;
	Obb a, b;
	shape_obb(s, a);
	for (int i = 0; i < r.n; i++) {
		load_obb(P.coll[r.start + i], b);
		if (q == PGA_Q_INSIDE) {
			if (obb_inside(a, b)) return true;
		} else {
			bool overlap, touch;
			obb_contact(a, b, overlap, touch);
			if ((q == PGA_Q_OVERLAPS && overlap) || (q == PGA_Q_TOUCHES && touch && !overlap)) return true;
		}
	}
	return false;
}

// worldAxis: the world axis closest to local axis a, and that component.
__device__ void world_axis(const PgaItem &s, int a, int &k, double &comp) {
	double best = -1.0;
	k = 0;
	for (int i = 0; i < 3; i++) {
		const double v = fabs(s.m[i * 4 + a]);
		if (v > best) {
			best = v;
			k = i;
		}
	}
	comp = s.m[k * 4 + a];
}

// The sealed planes of group along world axis k for s's lot.
__device__ PgaRange snap_planes(const Prog &P, const PgaItem &s, int group, int k) {
	PgaRange r = {0, 0};
	if (P.snap_rng && group >= 0 && group < P.ngroups) r = P.snap_rng[((size_t)s.axiom * P.ngroups + group) * 3 + k];
	return r;
}

// First index of planes[0..n) not below x (slices.BinarySearch).
__device__ int lower_bound(const double *v, int n, double x) {
	int lo = 0, hi = n;
	while (lo < hi) {
		const int mid = (lo + hi) >> 1;
		if (v[mid] < x) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

// nearestSnap: the plane nearest local coordinate t along axis a.
__device__ __noinline__ bool nearest_snap(const Prog &P, const PgaItem &s, int group, int a, double t, double &best) {
	int k;
	double comp;
	world_axis(s, a, k, comp);
	const PgaRange r = snap_planes(P, s, group, k);
	if (r.n == 0 || comp == 0) return false;
	const double *pl = P.snaps + r.start;
	const double centre = s.m[k * 4 + 3];
	const double w = centre + comp * t;
	const int i = lower_bound(pl, r.n, w);
	bool found = false;
	best = 0;
	for (int j = i - 1; j <= i; j++) {
		if (j >= 0 && j < r.n) {
			const double l = (pl[j] - centre) / comp;
			if (!found || fabs(l - t) < fabs(best - t)) {
				best = l;
				found = true;
			}
		}
	}
	return found;
}

