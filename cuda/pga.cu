// PGA shape-grammar evaluation on the GPU: the twin of internal/pga/cpu.go
// and split.go. Two schedulers share one chain interpreter:
//  - levels: one launch per derivation level over a queue of shapes (the
//    paper's baseline): run each shape's chain to its end, count children,
//    scan, write children and terminals at their prefix-sum offsets;
//  - persistent: one launch; blocks loop pulling batches of shapes from a
//    global queue and from a local pool in shared memory, sort each batch by
//    chain so a warp runs one rule, and spread the outputs of Repeat, SubDiv,
//    CompSplit and Replicate over the threads of the block.
// Built with --fmad=false (Makefile) so float64 arithmetic rounds as Go's does.
#include <cooperative_groups.h>

#include "common.cuh"
#include "pga_types.cuh"

namespace cg = cooperative_groups;

#define PGA_THREADS 256
#define PGA_POOL 256 // persistent: shapes a block keeps in shared memory
#define PGA_SCAN_ITEMS 4

#define PGA_FLAG_GROUP 1 // persistent: local pool and sorting batches by chain
#define PGA_FLAG_OPPAR 2 // persistent: children of one operator over many threads

#define RUN_NONE 0
#define RUN_TERM 1
#define RUN_SPLIT 2
#define RUN_ERR 3

struct Prog {
	const PgaInstr *code;
	const double *consts;
	const PgaOp *ops;
	const PgaBranch *br;
	const PgaChain *chains;
	const int32_t *rule_chain;
	const PgaProfile *profiles;
	const double *points;
	const double *lot_attrs; // per axiom nlot values, NaN where the lot has none
	int nlot;
	const int32_t *rule_phase;
	int ngroups;
	// Context of earlier phases, and what this phase leaves for later ones.
	const PgaObb *coll;
	const PgaRange *coll_rng; // per lot and group
	const double *snaps;
	const PgaRange *snap_rng; // per lot, group and world axis
	PgaObb *coll_out;
	PgaSnap *snap_out;
	PgaItem *pend_out;
	uint32_t out_cap;
	int phase;
};

// Kernel parameters of the evaluation context (see Prog).
#define PGA_CTX_PARAMS                                                                                             \
	const double *lot_attrs, const PgaObb *coll, const PgaRange *coll_rng, const double *snaps,                   \
		const PgaRange *snap_rng, PgaObb *coll_out, PgaSnap *snap_out, PgaItem *pend_out, uint32_t out_cap, \
		int32_t phase
#define PGA_CTX_ARGS lot_attrs, coll, coll_rng, snaps, snap_rng, coll_out, snap_out, pend_out, out_cap, phase

__device__ __forceinline__ Prog pga_prog(const uint32_t *w, const double *lot_attrs = nullptr,
					 const PgaObb *coll = nullptr, const PgaRange *coll_rng = nullptr,
					 const double *snaps = nullptr, const PgaRange *snap_rng = nullptr,
					 PgaObb *coll_out = nullptr, PgaSnap *snap_out = nullptr, PgaItem *pend_out = nullptr,
					 uint32_t out_cap = 0, int32_t phase = 0) {
	const PgaHeader *h = (const PgaHeader *)w;
	Prog p;
	p.code = (const PgaInstr *)(w + h->off_code);
	p.consts = (const double *)(w + h->off_consts);
	p.ops = (const PgaOp *)(w + h->off_ops);
	p.br = (const PgaBranch *)(w + h->off_branches);
	p.chains = (const PgaChain *)(w + h->off_chains);
	p.rule_chain = (const int32_t *)(w + h->off_rule_chain);
	p.profiles = (const PgaProfile *)(w + h->off_profiles);
	p.points = (const double *)(w + h->off_points);
	p.lot_attrs = lot_attrs;
	p.nlot = h->nlotattrs;
	p.rule_phase = (const int32_t *)(w + h->off_rule_phase);
	p.ngroups = h->ngroups;
	p.coll = coll;
	p.coll_rng = coll_rng;
	p.snaps = snaps;
	p.snap_rng = snap_rng;
	p.coll_out = coll_out;
	p.snap_out = snap_out;
	p.pend_out = pend_out;
	p.out_cap = out_cap;
	p.phase = phase;
	return p;
}

struct Limits {
	unsigned long long max_shapes;
	int max_depth;
};

__device__ void pga_fail(PgaStatus *st, int err, int rule, int arg) {
	if (atomicCAS(&st->err, 0, err) == 0) {
		st->err_rule = rule;
		st->err_arg = arg;
	}
	atomicExch(&st->abort, 1);
}

// Reserves one slot of *ctr per calling thread, one atomic per group of
// threads that arrive together.
__device__ __forceinline__ uint32_t pga_reserve(uint32_t *ctr) {
	cg::coalesced_group g = cg::coalesced_threads();
	uint32_t base = 0;
	if (g.thread_rank() == 0) base = atomicAdd(ctr, g.size());
	return g.shfl(base, 0) + g.thread_rank();
}

// ---- Transforms: 3x4 rows of a rigid 4x4, multiplied as Mat4.Mul does ----

// r = a·b, summing k = 0..3 in order as Go does (b's fourth row is 0 0 0 1).
__device__ void mat_mul(const double *a, const double *b, double *r) {
	double t[12];
#pragma unroll
	for (int i = 0; i < 3; i++) {
#pragma unroll
		for (int j = 0; j < 4; j++) {
			double s = a[i * 4] * b[j];
			s = s + a[i * 4 + 1] * b[4 + j];
			s = s + a[i * 4 + 2] * b[8 + j];
			s = s + a[i * 4 + 3] * (j == 3 ? 1.0 : 0.0);
			t[i * 4 + j] = s;
		}
	}
#pragma unroll
	for (int k = 0; k < 12; k++) r[k] = t[k];
}

__device__ void mat_ident(double *m) {
#pragma unroll
	for (int k = 0; k < 12; k++) m[k] = (k % 5 == 0) ? 1.0 : 0.0;
}

__device__ void mat_translation(double x, double y, double z, double *m) {
	mat_ident(m);
	m[3] = x;
	m[7] = y;
	m[11] = z;
}

// sincosDeg: exact at multiples of 90 degrees.
__device__ void sincos_deg(double deg, double *s, double *c) {
	double d = fmod(deg, 360.0);
	if (d < 0) d += 360;
	if (d == 0) { *s = 0; *c = 1; return; }
	if (d == 90) { *s = 1; *c = 0; return; }
	if (d == 180) { *s = 0; *c = -1; return; }
	if (d == 270) { *s = -1; *c = 0; return; }
	sincos(d * 3.141592653589793 / 180, s, c);
}

__device__ void mat_rot(int axis, double deg, double *m) {
	double s, c;
	sincos_deg(deg, &s, &c);
	mat_ident(m);
	if (axis == 0) { m[5] = c; m[6] = -s; m[9] = s; m[10] = c; }
	else if (axis == 1) { m[0] = c; m[2] = s; m[8] = -s; m[10] = c; }
	else { m[0] = c; m[1] = -s; m[4] = s; m[5] = c; }
}

// Rotation(x, y, z) = RotationX(x)·RotationY(y)·RotationZ(z).
__device__ void mat_rotation(double x, double y, double z, double *m) {
	double a[12], b[12];
	mat_rot(0, x, m);
	mat_rot(1, y, a);
	mat_mul(m, a, m);
	mat_rot(2, z, b);
	mat_mul(m, b, m);
}

// Go's math.Min and math.Max: NaN wins.
__device__ __forceinline__ double fmin_go(double a, double b) {
	if (isnan(a) || isnan(b)) return __longlong_as_double(0x7ff8000000000000ll);
	return a < b ? a : b;
}
__device__ __forceinline__ double fmax_go(double a, double b) {
	if (isnan(a) || isnan(b)) return __longlong_as_double(0x7ff8000000000000ll);
	return a > b ? a : b;
}

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

__device__ bool pga_query(const Prog &P, int q, int group, const PgaItem &s) {
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
__device__ bool nearest_snap(const Prog &P, const PgaItem &s, int group, int a, double t, double &best) {
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

// ---- Expressions ----

__device__ __forceinline__ double pga_unit(uint64_t bits) { return (double)(bits >> 11) * (1.0 / 9007199254740992.0); }

__device__ double pga_eval(const Prog &P, int off, const PgaItem &s) {
	double st[PGA_MAX_STACK];
	int sp = 0;
	for (int pc = off;; pc++) {
		const PgaInstr in = P.code[pc];
		switch (in.op) {
		case PGA_X_END: return st[0];
		case PGA_X_NUM: st[sp++] = P.consts[in.arg]; break;
		case PGA_X_NEG: st[sp - 1] = -st[sp - 1]; break;
		case PGA_X_SIZE: st[sp++] = s.size[in.arg]; break;
		case PGA_X_POS: st[sp++] = s.m[in.arg * 4 + 3]; break;
		case PGA_X_NORMAL: st[sp++] = s.m[in.arg * 4 + 2]; break;
		case PGA_X_ROT: {
			const double k = 57.295779513082323;
			double v;
			if (in.arg == 1) v = asin(fmax(-1.0, fmin(1.0, s.m[2]))) * k;
			else if (in.arg == 0) v = atan2(-s.m[6], s.m[10]) * k;
			else v = atan2(-s.m[1], s.m[0]) * k;
			st[sp++] = v;
			break;
		}
		case PGA_X_SEED: st[sp++] = pga_unit(pg_hash64(s.seed, 0x5EED5EEDull)); break;
		case PGA_X_ATTR: st[sp++] = s.attr; break;
		case PGA_X_INDEX: st[sp++] = (double)s.index; break;
		case PGA_X_SIBLINGS: st[sp++] = (double)s.siblings; break;
		case PGA_X_QUERY: st[sp++] = pga_query(P, in.arg % 4, in.arg / 4, s) ? 1 : 0; break;
		case PGA_X_LOTATTR: {
			const double v = P.lot_attrs ? P.lot_attrs[(size_t)s.axiom * P.nlot + in.arg] : __longlong_as_double(0x7ff8000000000000ll);
			if (!isnan(v)) st[sp - 1] = v;
			break;
		}
		default: {
			const double l = st[sp - 2], r = st[sp - 1];
			double v;
			switch (in.op) {
			case PGA_X_ADD: v = l + r; break;
			case PGA_X_SUB: v = l - r; break;
			case PGA_X_MUL: v = l * r; break;
			case PGA_X_DIV: v = l / r; break;
			case PGA_X_EQ: v = fabs(l - r) <= 1e-6 ? 1 : 0; break;
			case PGA_X_NE: v = fabs(l - r) > 1e-6 ? 1 : 0; break;
			case PGA_X_LT: v = l < r ? 1 : 0; break;
			case PGA_X_GT: v = l > r ? 1 : 0; break;
			case PGA_X_LE: v = l <= r ? 1 : 0; break;
			case PGA_X_GE: v = l >= r ? 1 : 0; break;
			default: v = __longlong_as_double(0x7ff8000000000000ll);
			}
			st[--sp - 1] = v;
		}
		}
	}
}

// ---- Operators with several outputs ----

// child is output i of n of an operator applied to s.
__device__ __forceinline__ void pga_childof(const PgaItem &s, int i, int n, PgaItem &c) {
	c = s;
	c.seed = pg_hash64(s.seed, (uint64_t)i);
	c.index = i;
	c.siblings = n;
}

// piece is s cut to length size along axis, centred at offset; output i of n.
__device__ void pga_piece(const PgaItem &s, int axis, double offset, double size, int i, int n, PgaItem &c) {
	pga_childof(s, i, n, c);
	double t[12];
	mat_translation(axis == 0 ? offset : 0, axis == 1 ? offset : 0, axis == 2 ? offset : 0, t);
	mat_mul(s.m, t, c.m);
	c.size[axis] = size;
}

// pga_repeat walks Repeat's tiles: the extent, cut at the planes of its
// snap group when it has one, each span tiled on its own (repeat() in
// split.go). With want < 0 it returns how many tiles there are (0xffffffff
// when too many to count); else it sets tile want's centre and size.
__device__ uint32_t pga_repeat(const Prog &P, const PgaOp &op, const PgaItem &s, long long want, double *centre,
			       double *size) {
	const int axis = op.axis[0];
	const double ext = s.size[axis];
	double w = pga_eval(P, op.expr[0], s);
	if (w < 0) w *= -ext;
	if (!(w > 0) || !(ext > 0) || isinf(ext)) return 0;
	// Cuts strictly inside the extent (snapCuts), ascending in local terms.
	int ncuts = 0, i0 = 0, k = 0;
	double comp = 0, wc = 0;
	const double *pl = nullptr;
	const int group = op.axis[2] - 1;
	if (group >= 0) {
		world_axis(s, axis, k, comp);
		const PgaRange r = snap_planes(P, s, group, k);
		if (r.n > 0 && comp != 0) {
			pl = P.snaps + r.start;
			wc = s.m[k * 4 + 3];
			const double half = s.size[axis] / 2;
			const double lo = wc - fabs(comp) * half, hi = wc + fabs(comp) * half;
			i0 = lower_bound(pl, r.n, lo + PGA_EPS);
			int i1 = i0;
			while (i1 < r.n && pl[i1] < hi - PGA_EPS) i1++;
			ncuts = i1 - i0;
		}
	}
	unsigned long long total = 0;
	double lo = -ext / 2;
	for (int b = 0; b <= ncuts; b++) {
		double hi = ext / 2;
		if (b < ncuts) {
			const int c = comp > 0 ? i0 + b : i0 + ncuts - 1 - b;
			hi = (pl[c] - wc) / comp;
		}
		const double span = hi - lo;
		double nf = floor(span / w + 1e-9);
		if (op.mode == 0 && nf < 1) nf = 1;
		if (nf > 4294967295.0) return 0xffffffffu;
		double tw = w, start = lo;
		if (op.mode == 0) tw = span / nf;
		else if (op.mode == 2) start = hi - nf * w;
		const unsigned long long n = (unsigned long long)nf;
		if (want >= 0 && (unsigned long long)want < total + n) {
			*centre = start + ((double)(want - (long long)total) + 0.5) * tw;
			*size = tw;
			return 0;
		}
		total += n;
		if (total > 0xfffffffeull) return 0xffffffffu;
		lo = hi;
	}
	return (uint32_t)total;
}

// The branch an output goes to, set by pga_outputs.
#define PGA_SET(c_, chain_) \
	do {                    \
		(c_)->chain = (chain_); \
		(c_)->pc = 0;       \
	} while (0)

// pga_outputs walks the outputs of the block operator at s.pc: with want < 0
// it returns how many there are; else it makes output number want into *c
// (outputs of no extent are skipped, as the CPU drops them).
__device__ uint32_t pga_outputs(const Prog &P, const PgaItem &s, int want, PgaItem *c) {
	const PgaOp op = P.ops[P.chains[s.chain].op0 + s.pc];
	switch (op.kind) {
	case PGA_OP_REPLICATE:
		if (want < 0) return op.nbranches;
		pga_childof(s, want, op.nbranches, *c);
		PGA_SET(c, P.br[op.branch0 + want].chain);
		return 0;
	case PGA_OP_REPEAT: {
		if (want < 0) return pga_repeat(P, op, s, -1, nullptr, nullptr);
		const uint32_t n = pga_repeat(P, op, s, -1, nullptr, nullptr);
		double centre = 0, size = 0;
		pga_repeat(P, op, s, want, &centre, &size);
		pga_piece(s, op.axis[0], centre, size, want, (int)n, *c);
		c->pc = s.pc + 1;
		return 0;
	}
	case PGA_OP_SUBDIV: {
		const int axis = op.axis[0];
		if (op.axis[2] > 0) {
			// Snapping: sizes first, then the inner cuts move to the
			// nearest planes (subdiv and snapSizes in split.go).
			const int group = op.axis[2] - 1, nb = op.nbranches;
			double sz[PGA_MAX_SNAP_BRANCHES], cuts[PGA_MAX_SNAP_BRANCHES + 1], moved[PGA_MAX_SNAP_BRANCHES + 1];
			double abs = 0, rel = 0;
			for (int k = 0; k < nb; k++) {
				const int wo = P.br[op.branch0 + k].weight;
				double w = wo >= 0 ? pga_eval(P, wo, s) : 0;
				if (isnan(w)) w = 0;
				sz[k] = w;
				if (w < 0) rel -= w;
				else abs += w;
			}
			const double left = fmax_go(0, s.size[axis] - abs);
			for (int k = 0; k < nb; k++) {
				if (sz[k] < 0) sz[k] = left * -sz[k] / rel;
			}
			cuts[0] = -s.size[axis] / 2;
			for (int k = 0; k < nb; k++) cuts[k + 1] = cuts[k] + sz[k];
			for (int k = 0; k <= nb; k++) moved[k] = cuts[k];
			for (int k = 1; k < nb; k++) {
				const double reach = fmin_go(cuts[k] - cuts[k - 1], cuts[k + 1] - cuts[k]) / 2;
				double t;
				if (nearest_snap(P, s, group, axis, cuts[k], t) && fabs(t - cuts[k]) <= reach) {
					moved[k] = fmin_go(fmax_go(t, moved[k - 1]), cuts[nb]);
				} else {
					moved[k] = fmax_go(cuts[k], moved[k - 1]);
				}
			}
			double pos = -s.size[axis] / 2;
			uint32_t n = 0;
			for (int k = 0; k < nb; k++) {
				const double w = moved[k + 1] - moved[k];
				if (w > 0) {
					if ((int)n == want) {
						pga_piece(s, axis, pos + w / 2, w, k, nb, *c);
						PGA_SET(c, P.br[op.branch0 + k].chain);
						return 0;
					}
					n++;
				}
				pos += w;
			}
			return n;
		}
		double abs = 0, rel = 0;
		for (int k = 0; k < op.nbranches; k++) {
			const int wo = P.br[op.branch0 + k].weight;
			double w = wo >= 0 ? pga_eval(P, wo, s) : 0;
			if (isnan(w)) w = 0;
			if (w < 0) rel -= w;
			else abs += w;
		}
		const double x = s.size[axis] - abs;
		const double left = (x > 0 || isnan(x)) ? x : 0.0;
		double pos = -s.size[axis] / 2;
		uint32_t n = 0;
		for (int k = 0; k < op.nbranches; k++) {
			const PgaBranch b = P.br[op.branch0 + k];
			double w = b.weight >= 0 ? pga_eval(P, b.weight, s) : 0;
			if (isnan(w)) w = 0;
			if (w < 0) w = left * -w / rel;
			if (w > 0) {
				if ((int)n == want) {
					pga_piece(s, axis, pos + w / 2, w, k, op.nbranches, *c);
					PGA_SET(c, b.chain);
					return 0;
				}
				n++;
			}
			pos += w;
		}
		return n;
	}
	case PGA_OP_COMPSPLIT: {
		const double x = s.size[0], y = s.size[1], z = s.size[2];
		if (s.profile != 0) {
			// A prism: the caps, then one rectangle per edge of its profile.
			const PgaProfile pr = P.profiles[s.profile];
			const double *pts = P.points + 2 * pr.start;
			const int n = 2 + pr.n;
			if (want == 0 || want == 1) {
				double t[12];
				pga_childof(s, want, n, *c);
				c->kind = PGA_QUAD;
				if (want == 0) {
					mat_translation(0, 0, z / 2, t);
					mat_mul(s.m, t, c->m);
				} else {
					double r[12];
					c->profile = s.profile + 1;
					mat_translation(0, 0, -z / 2, t);
					mat_mul(s.m, t, c->m);
					mat_rot(1, 180, r);
					mat_mul(c->m, r, c->m);
				}
				c->size[0] = x;
				c->size[1] = y;
				c->size[2] = 0;
				PGA_SET(c, P.br[op.branch0 + want].chain);
				return 0;
			}
			uint32_t cnt = 2;
			for (int i = 0; i < pr.n; i++) {
				const double px = pts[2 * i], py = pts[2 * i + 1];
				const int j = (i + 1) % pr.n;
				const double qx = pts[2 * j], qy = pts[2 * j + 1];
				const double ax = px * x, ay = py * y;
				double dx = qx * x - ax, dy = qy * y - ay;
				const double l = hypot(dx, dy);
				if (l == 0) continue;
				if ((int)cnt == want) {
					dx = dx / l;
					dy = dy / l;
					const double f[12] = {dx, 0, dy, ax + dx * l / 2, dy, 0, -dx, ay + dy * l / 2, 0, 1, 0, 0};
					pga_childof(s, 2 + i, n, *c);
					c->kind = PGA_QUAD;
					c->profile = 0;
					mat_mul(s.m, f, c->m);
					c->size[0] = l;
					c->size[1] = z;
					c->size[2] = 0;
					PGA_SET(c, P.br[op.branch0 + 2].chain);
					return 0;
				}
				cnt++;
			}
			return cnt;
		}
		if (want < 0) return 6;
		double t[12], r[12], f[12];
		double w, h;
		int branch = 2;
		switch (want) {
		case 0: mat_translation(0, y / 2, 0, t); mat_rot(0, -90, r); w = x; h = z; branch = 0; break;
		case 1: mat_translation(0, -y / 2, 0, t); mat_rot(0, 90, r); w = x; h = z; branch = 1; break;
		case 2: mat_translation(0, 0, z / 2, t); mat_ident(r); w = x; h = y; break;
		case 3: mat_translation(x / 2, 0, 0, t); mat_rot(1, 90, r); w = z; h = y; break;
		case 4: mat_translation(0, 0, -z / 2, t); mat_rot(1, 180, r); w = x; h = y; break;
		default: mat_translation(-x / 2, 0, 0, t); mat_rot(1, -90, r); w = z; h = y; break;
		}
		if (want == 2) {
			for (int k = 0; k < 12; k++) f[k] = t[k];
		} else {
			mat_mul(t, r, f);
		}
		pga_childof(s, want, 6, *c);
		c->kind = PGA_QUAD;
		mat_mul(s.m, f, c->m);
		c->size[0] = w;
		c->size[1] = h;
		c->size[2] = 0;
		PGA_SET(c, P.br[op.branch0 + branch].chain);
		return 0;
	}
	case PGA_OP_SETBACK: {
		// The street side: -Y of a Quad, +Z of a Box.
		const int axis = s.kind == PGA_QUAD ? 1 : 2;
		const double sign = s.kind == PGA_QUAD ? -1.0 : 1.0;
		double d = pga_eval(P, op.expr[0], s);
		const double ext = s.size[axis];
		d = fmin_go(fmax_go(d, 0), ext);
		uint32_t n = 0;
		if (d > 0) {
			if (want == 0) {
				pga_piece(s, axis, sign * (ext - d) / 2, d, 0, 2, *c);
				PGA_SET(c, P.br[op.branch0].chain);
				return 0;
			}
			n++;
		}
		const double rest = ext - d;
		if (rest > 0) {
			if ((int)n == want) {
				pga_piece(s, axis, -sign * d / 2, rest, 1, 2, *c);
				PGA_SET(c, P.br[op.branch0 + 1].chain);
				return 0;
			}
			n++;
		}
		return n;
	}
	case PGA_OP_OFFSET: {
		const int axis = s.kind == PGA_QUAD ? 1 : 2;
		const double sign = s.kind == PGA_QUAD ? -1.0 : 1.0;
		const double d = pga_eval(P, op.expr[0], s);
		if (!(d > 0)) {
			if (want < 0) return 1;
			pga_childof(s, 0, 5, *c);
			PGA_SET(c, P.br[op.branch0].chain);
			return 0;
		}
		const double w = s.size[0], h = s.size[axis];
		const double dw = fmin_go(d, w / 2), dh = fmin_go(d, h / 2);
		uint32_t n = 0;
		PgaItem a;
		if (w - 2 * dw > 0 && h - 2 * dh > 0) {
			if (want == 0) {
				pga_piece(s, 0, 0, w - 2 * dw, 0, 5, a);
				pga_piece(a, axis, 0, h - 2 * dh, 0, 5, *c);
				PGA_SET(c, P.br[op.branch0].chain);
				return 0;
			}
			n++;
		}
		for (int k = 1; k <= 4; k++) {
			PgaItem st;
			switch (k) {
			case 1: pga_piece(s, axis, sign * (h - dh) / 2, dh, 1, 5, st); break;
			case 2: pga_piece(s, 0, (w - dw) / 2, dw, 2, 5, a); pga_piece(a, axis, 0, h - 2 * dh, 2, 5, st); break;
			case 3: pga_piece(s, axis, -sign * (h - dh) / 2, dh, 3, 5, st); break;
			default: pga_piece(s, 0, -(w - dw) / 2, dw, 4, 5, a); pga_piece(a, axis, 0, h - 2 * dh, 4, 5, st); break;
			}
			if (st.size[0] > 0 && st.size[axis] > 0) {
				if ((int)n == want) {
					*c = st;
					PGA_SET(c, P.br[op.branch0 + 1].chain);
					return 0;
				}
				n++;
			}
		}
		return n;
	}
	}
	return 0;
}

__device__ __forceinline__ void pga_child(const Prog &P, const PgaItem &s, uint32_t j, PgaItem &c) {
	pga_outputs(P, s, (int)j, &c);
}

// ---- The chain interpreter ----

// pga_run applies s's chain from s.pc on, through rule successors and
// single-output operators, until a terminal (RUN_TERM, term set), a dropped
// shape (RUN_NONE) or a block operator with n outputs (RUN_SPLIT: s is left
// at that operator). ticks counts shapes made as the CPU's tick does.
__device__ int pga_run(const Prog &P, const Limits &L, PgaStatus *st, PgaItem &s, uint32_t &n, int &term,
		       uint32_t &ticks) {
	for (int guard = 0;; guard++) {
		const PgaChain ch = P.chains[s.chain];
		if (s.pc >= ch.nops) {
			if (ch.succ_kind == PGA_SUCC_TERMINAL) {
				ticks++;
				term = ch.succ;
				return RUN_TERM;
			}
			if (ch.succ_kind == PGA_SUCC_RULE) {
				if (s.depth + 1 > L.max_depth) {
					pga_fail(st, PGA_ERR_DEPTH, ch.succ, 0);
					return RUN_ERR;
				}
				if (P.rule_phase[ch.succ] > P.phase) {
					// The rule belongs to a later phase: the shape waits for it.
					PgaItem w = s;
					w.depth++;
					w.rule = ch.succ;
					w.chain = P.rule_chain[ch.succ];
					w.pc = 0;
					const uint32_t slot = pga_reserve(&st->npend);
					if (slot < P.out_cap && P.pend_out) P.pend_out[slot] = w;
					else pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 2);
					return RUN_NONE;
				}
				ticks++;
				s.depth++;
				s.rule = ch.succ;
				s.chain = P.rule_chain[ch.succ];
				s.pc = 0;
				continue;
			}
			if (ch.succ_kind == PGA_SUCC_UNDEFINED) pga_fail(st, PGA_ERR_UNDEFINED, s.rule, ch.succ);
			return RUN_NONE;
		}
		const PgaOp op = P.ops[ch.op0 + s.pc];
		int pick = -1; // single-output operators: the branch taken
		switch (op.kind) {
		case PGA_OP_TRANSLATE: {
			const double x = pga_eval(P, op.expr[0], s), y = pga_eval(P, op.expr[1], s), z = pga_eval(P, op.expr[2], s);
			double t[12];
			mat_translation(x, y, z, t);
			mat_mul(s.m, t, s.m);
			break;
		}
		case PGA_OP_ROTATE: {
			const double x = pga_eval(P, op.expr[0], s), y = pga_eval(P, op.expr[1], s), z = pga_eval(P, op.expr[2], s);
			double t[12];
			mat_rotation(x, y, z, t);
			mat_mul(s.m, t, s.m);
			break;
		}
		case PGA_OP_SCALE: {
			double v[3];
			for (int k = 0; k < 3; k++) v[k] = pga_eval(P, op.expr[k], s);
			for (int k = 0; k < 3; k++) {
				if (v[k] < 0) s.size[k] *= -v[k];
				else s.size[k] = v[k];
			}
			break;
		}
		case PGA_OP_EXTRUDE: {
			const double h = pga_eval(P, op.expr[0], s);
			if (s.kind == PGA_QUAD) {
				double t[12];
				mat_translation(0, 0, h / 2, t);
				mat_mul(s.m, t, s.m);
				s.kind = PGA_BOX;
			}
			s.size[2] = h;
			break;
		}
		case PGA_OP_SWAPSIZE: {
			const double a = s.size[op.axis[0]], b = s.size[op.axis[1]], c = s.size[op.axis[2]];
			s.size[0] = a;
			s.size[1] = b;
			s.size[2] = c;
			break;
		}
		case PGA_OP_SETASPRISM:
			s.profile = op.mode;
			s.roof = PGA_NO_ROOF;
			break;
		case PGA_OP_ROOF: {
			const double angle = pga_eval(P, op.expr[0], s);
			if (s.kind != PGA_QUAD || s.profile != 0) {
				pga_fail(st, PGA_ERR_ROOF_FOOTPRINT, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			if (!(angle > 0 && angle < 90)) {
				pga_fail(st, PGA_ERR_ROOF_ANGLE, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			const double shrt = fmin_go(s.size[0], s.size[1]);
			const double run = op.mode == PGA_SHED ? shrt : shrt / 2;
			const double h = tan(angle * 3.141592653589793 / 180) * run;
			double t[12];
			mat_translation(0, 0, h / 2, t);
			mat_mul(s.m, t, s.m);
			s.kind = PGA_BOX;
			s.roof = op.mode;
			s.size[2] = h;
			break;
		}
		case PGA_OP_COLLIDER: {
			const uint32_t slot = pga_reserve(&st->ncoll);
			if (slot < P.out_cap && P.coll_out) {
				Obb b;
				shape_obb(s, b);
				PgaObb o;
				for (int i = 0; i < 3; i++) {
					o.c[i] = b.c[i];
					o.half[i] = b.half[i];
					for (int k = 0; k < 3; k++) o.axes[3 * i + k] = b.ax[i][k];
				}
				o.lot = s.axiom;
				o.group = op.axis[0];
				P.coll_out[slot] = o;
			} else {
				pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 2);
			}
			break;
		}
		case PGA_OP_SNAPLINES: {
			int k;
			double comp;
			const int a = op.axis[0];
			world_axis(s, a, k, comp);
			const double centre = s.m[k * 4 + 3];
			const double d = comp * s.size[a] / 2;
			for (int e = 0; e < 2; e++) {
				const uint32_t slot = pga_reserve(&st->nsnap);
				if (slot < P.out_cap && P.snap_out) {
					PgaSnap sn;
					sn.v = e == 0 ? centre - d : centre + d;
					sn.lot = s.axiom;
					sn.key = op.axis[1] * 3 + k;
					P.snap_out[slot] = sn;
				} else {
					pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 2);
				}
			}
			break;
		}
		case PGA_OP_DISCARD: return RUN_NONE;
		case PGA_OP_GENERATE:
			ticks++;
			term = ch.succ;
			return RUN_TERM;
		case PGA_OP_IF: {
			const double v = pga_eval(P, op.expr[0], s);
			pick = (v != 0 && !isnan(v)) ? 0 : 1;
			break;
		}
		case PGA_OP_IFSIZELESS: pick = (s.size[op.axis[0]] < pga_eval(P, op.expr[0], s)) ? 0 : 1; break;
		case PGA_OP_IFCOLLIDES: pick = pga_query(P, PGA_Q_OVERLAPS, op.axis[0], s) ? 0 : 1; break;
		case PGA_OP_RANDOMRULE: {
			const double v = pga_eval(P, op.expr[0], s);
			double u = pga_unit(pg_hash64((uint64_t)__double_as_longlong(v), 0));
			double sum = 0;
			for (int k = 0; k < op.nbranches; k++) {
				const double w = pga_eval(P, P.br[op.branch0 + k].weight, s);
				if (w > 0 && !isinf(w)) sum += w;
			}
			if (!(sum > 0)) return RUN_NONE;
			u *= sum;
			for (int k = 0; k < op.nbranches; k++) {
				const double w = pga_eval(P, P.br[op.branch0 + k].weight, s);
				if (!(w > 0 && !isinf(w))) continue;
				pick = k;
				if (u < w) break;
				u -= w;
			}
			break;
		}
		case PGA_OP_COMPSPLIT:
			if (s.kind == PGA_QUAD) {
				pga_fail(st, PGA_ERR_COMPSPLIT_QUAD, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			if (s.roof != PGA_NO_ROOF) {
				pga_fail(st, PGA_ERR_ROOF_SPLIT, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			n = pga_outputs(P, s, -1, nullptr);
			ticks += n;
			return n ? RUN_SPLIT : RUN_NONE;
		case PGA_OP_SETBACK:
		case PGA_OP_OFFSET:
			if (s.profile != 0 || s.roof != PGA_NO_ROOF) {
				pga_fail(st, PGA_ERR_FRONT, s.rule, ch.op0 + s.pc);
				return RUN_ERR;
			}
			n = pga_outputs(P, s, -1, nullptr);
			ticks += n;
			return n ? RUN_SPLIT : RUN_NONE;
		case PGA_OP_REPLICATE:
		case PGA_OP_SUBDIV:
			n = pga_outputs(P, s, -1, nullptr);
			ticks += n;
			return n ? RUN_SPLIT : RUN_NONE;
		case PGA_OP_REPEAT: {
			const uint32_t c = pga_repeat(P, op, s, -1, nullptr, nullptr);
			if ((unsigned long long)c > L.max_shapes || c == 0xffffffffu) {
				pga_fail(st, PGA_ERR_REPEAT, s.rule, (int)min(c, 0x7fffffffu));
				return RUN_ERR;
			}
			n = c;
			ticks += n;
			return n ? RUN_SPLIT : RUN_NONE;
		}
		}
		if (pick >= 0) {
			ticks++;
			s.seed = pg_hash64(s.seed, (uint64_t)pick);
			s.chain = P.br[op.branch0 + pick].chain;
			s.pc = 0;
		} else {
			s.pc++;
		}
	}
}

__device__ __forceinline__ void pga_make_term(const PgaItem &s, int term, PgaTerm &t) {
	for (int k = 0; k < 12; k++) t.m[k] = s.m[k];
	for (int k = 0; k < 3; k++) t.size[k] = s.size[k];
	t.attr = s.attr;
	t.seed = s.seed;
	t.term = term;
	t.kind = s.kind;
	t.axiom = s.axiom;
	t.rule = s.rule;
	t.profile = s.profile;
	t.roof = s.roof;
	t.index = s.index;
	t.siblings = s.siblings;
}

// Adds this warp's ticks to the total; past max_shapes it reports the rule
// of a thread that made shapes.
__device__ void pga_add_ticks(PgaStatus *st, const Limits &L, uint32_t ticks, int rule) {
	const unsigned lane = threadIdx.x & 31;
	const uint32_t sum = __reduce_add_sync(PG_FULL_MASK, ticks);
	unsigned long long old = 0;
	if (lane == 0 && sum) old = atomicAdd(&st->ticks, (unsigned long long)sum);
	old = __shfl_sync(PG_FULL_MASK, old, 0);
	if (sum && old + sum > L.max_shapes && ticks) pga_fail(st, PGA_ERR_SHAPES, rule, 0);
}

// ---- Levels scheduler ----

// Each thread runs one shape. The shape is written back at its block
// operator (pc >= 0), or marked a terminal (pc = -1, chain = terminal id) or
// dropped (pc = -2); counts[i] = terminals << 32 | children.
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_levels_run(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *items, uint32_t n, unsigned long long *counts, PgaStatus *st,
	       unsigned long long max_shapes, int max_depth) {
	const Prog P = pga_prog(words, PGA_CTX_ARGS);
	const Limits L = {max_shapes, max_depth};
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t ticks = 0;
	int rule = 0;
	if (i < n) {
		PgaItem s = items[i];
		uint32_t nc = 0;
		int term = 0;
		const int r = pga_run(P, L, st, s, nc, term, ticks);
		rule = s.rule;
		unsigned long long c = 0;
		if (r == RUN_TERM) {
			s.pc = -1;
			s.chain = term;
			c = 1ull << 32;
		} else if (r == RUN_SPLIT) {
			c = nc;
		} else {
			s.pc = -2;
		}
		items[i] = s;
		counts[i] = c;
	}
	pga_add_ticks(st, L, ticks, rule);
}

// Writes the children and terminals of the shapes pga_levels_run left, at
// the offsets the exclusive scan of counts gave (total in st->scan_total).
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_levels_expand(const uint32_t *words, PGA_CTX_PARAMS, const PgaItem *items, uint32_t n, const unsigned long long *offs,
		  PgaItem *next, PgaTerm *terms, uint32_t term_base, const PgaStatus *st) {
	const Prog P = pga_prog(words, PGA_CTX_ARGS);
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	const PgaItem s = items[i];
	const unsigned long long o = offs[i];
	if (s.pc == -1) {
		PgaTerm t;
		pga_make_term(s, s.chain, t);
		terms[term_base + (uint32_t)(o >> 32)] = t;
		return;
	}
	if (s.pc < 0) return;
	const unsigned long long end = i + 1 < n ? offs[i + 1] : st->scan_total;
	const uint32_t c0 = (uint32_t)o, nc = (uint32_t)end - c0;
	for (uint32_t k = 0; k < nc; k++) {
		PgaItem c;
		pga_child(P, s, k, c);
		next[c0 + k] = c;
	}
}

// ---- Exclusive scan of 64-bit counts (three launches) ----

#define PGA_SCAN_TILE (PGA_THREADS * PGA_SCAN_ITEMS)

__device__ unsigned long long block_exclusive_scan(unsigned long long v, unsigned long long *sh, unsigned long long &total) {
	const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	unsigned long long x = v;
#pragma unroll
	for (int o = 1; o < 32; o <<= 1) {
		const unsigned long long y = __shfl_up_sync(PG_FULL_MASK, x, o);
		if (lane >= (unsigned)o) x += y;
	}
	if (lane == 31) sh[warp] = x;
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long acc = 0;
		for (int w = 0; w < (int)(blockDim.x >> 5); w++) {
			const unsigned long long t = sh[w];
			sh[w] = acc;
			acc += t;
		}
		sh[32] = acc;
	}
	__syncthreads();
	const unsigned long long r = sh[warp] + x - v;
	total = sh[32];
	__syncthreads();
	return r;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_scan_tiles(unsigned long long *a, uint32_t n, unsigned long long *partial) {
	__shared__ unsigned long long sh[33];
	const uint32_t base = blockIdx.x * PGA_SCAN_TILE + threadIdx.x * PGA_SCAN_ITEMS;
	unsigned long long v[PGA_SCAN_ITEMS], sum = 0;
	for (int k = 0; k < PGA_SCAN_ITEMS; k++) {
		v[k] = base + k < n ? a[base + k] : 0;
		sum += v[k];
	}
	unsigned long long total;
	unsigned long long acc = block_exclusive_scan(sum, sh, total);
	for (int k = 0; k < PGA_SCAN_ITEMS; k++) {
		if (base + k < n) a[base + k] = acc;
		acc += v[k];
	}
	if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_scan_partials(unsigned long long *partial, uint32_t nb, PgaStatus *st) {
	__shared__ unsigned long long sh[33];
	unsigned long long carry = 0;
	for (uint32_t b0 = 0; b0 < nb; b0 += PGA_THREADS) {
		const uint32_t i = b0 + threadIdx.x;
		const unsigned long long v = i < nb ? partial[i] : 0;
		unsigned long long total;
		const unsigned long long e = block_exclusive_scan(v, sh, total);
		if (i < nb) partial[i] = carry + e;
		carry += total;
	}
	if (threadIdx.x == 0) st->scan_total = carry;
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_scan_add(unsigned long long *a, uint32_t n, const unsigned long long *partial) {
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) a[i] += partial[i / PGA_SCAN_TILE];
}

// ---- Persistent scheduler ----

struct PgaShared {
	PgaItem batch[PGA_THREADS];
	PgaItem pool[PGA_POOL];
	uint32_t key[PGA_THREADS];
	uint32_t off[PGA_THREADS + 1];
	int pool_n, take, got, nb, quit;
	uint32_t head;
};

__device__ void pga_push(PgaShared &sh, bool local, const PgaItem &c, PgaItem *gq, uint32_t *ready, uint32_t qcap,
			 PgaStatus *st) {
	bool global = true;
	if (local) {
		const int slot = atomicAdd(&sh.pool_n, 1);
		if (slot < PGA_POOL) {
			sh.pool[slot] = c;
			global = false;
		}
	}
	if (!global) return;
	const uint32_t slot = pga_reserve(&st->qtail);
	if (slot >= qcap) {
		pga_fail(st, PGA_ERR_OVERFLOW, c.rule, 0);
		return;
	}
	gq[slot] = c;
	__threadfence();
	atomicExch(&ready[slot], 1u);
}

extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_persistent(const uint32_t *words, PGA_CTX_PARAMS, PgaItem *gq, uint32_t *ready, uint32_t qcap, PgaTerm *terms, uint32_t tcap,
	       PgaStatus *st, unsigned long long max_shapes, int max_depth, int flags) {
	extern __shared__ __align__(16) unsigned char smem[];
	PgaShared &sh = *(PgaShared *)smem;
	const Prog P = pga_prog(words, PGA_CTX_ARGS);
	const Limits L = {max_shapes, max_depth};
	const bool group = flags & PGA_FLAG_GROUP, oppar = flags & PGA_FLAG_OPPAR;
	const unsigned tid = threadIdx.x;
	volatile PgaStatus *vst = st;
	if (tid == 0) sh.pool_n = 0;
	__syncthreads();
	for (;;) {
		// Take a batch: the local pool first, then the global queue.
		if (tid == 0) {
			const int take = group ? min(sh.pool_n, PGA_THREADS) : 0;
			sh.pool_n -= take;
			const uint32_t want = PGA_THREADS - take;
			uint32_t got = 0, h = 0;
			while (!vst->abort) {
				h = vst->qhead;
				const uint32_t t = min((uint32_t)vst->qtail, qcap);
				if (t <= h) break;
				const uint32_t g = min(t - h, want);
				if (atomicCAS(&st->qhead, h, h + g) == h) {
					got = g;
					break;
				}
			}
			sh.take = take;
			sh.got = got;
			sh.head = h;
			sh.nb = take + got;
			sh.quit = vst->abort || (sh.nb == 0 && vst->work == 0);
		}
		__syncthreads();
		const int nb = sh.nb;
		if (sh.quit) break;
		if (nb == 0) {
			__nanosleep(256);
			continue;
		}
		if ((int)tid < sh.take) {
			sh.batch[tid] = sh.pool[sh.pool_n + tid];
		} else if ((int)tid < nb) {
			const uint32_t slot = sh.head + tid - sh.take;
			while (((volatile uint32_t *)ready)[slot] == 0) {
				if (vst->abort) break;
			}
			__threadfence();
			// Through L2: the slot was written by another block.
			const unsigned long long *src = (const unsigned long long *)(gq + slot);
			unsigned long long *dst = (unsigned long long *)&sh.batch[tid];
			for (int w = 0; w < (int)(sizeof(PgaItem) / 8); w++) dst[w] = __ldcg(src + w);
		}
		__syncthreads();
		// Group the batch by chain so a warp runs one rule (bitonic sort of keys).
		int idx = tid;
		if (group) {
			sh.key[tid] = (int)tid < nb ? ((uint32_t)sh.batch[tid].chain << 8 | tid) : 0xffffffffu;
			__syncthreads();
			for (unsigned k = 2; k <= PGA_THREADS; k <<= 1) {
				for (unsigned j = k >> 1; j > 0; j >>= 1) {
					const unsigned ixj = tid ^ j;
					if (ixj > tid) {
						const uint32_t a = sh.key[tid], b = sh.key[ixj];
						const bool up = (tid & k) == 0;
						if ((a > b) == up) {
							sh.key[tid] = b;
							sh.key[ixj] = a;
						}
					}
					__syncthreads();
				}
			}
			idx = sh.key[tid] & 0xff;
		}
		PgaItem s;
		int r = RUN_NONE, term = 0;
		uint32_t nc = 0, ticks = 0;
		if ((int)tid < nb && !vst->abort) {
			s = sh.batch[idx];
			r = pga_run(P, L, st, s, nc, term, ticks);
		}
		pga_add_ticks(st, L, ticks, (int)tid < nb ? s.rule : 0);
		// Terminals go straight to the output.
		if (r == RUN_TERM) {
			const uint32_t tslot = pga_reserve(&st->nterm);
			if (tslot < tcap) {
				PgaTerm t;
				pga_make_term(s, term, t);
				terms[tslot] = t;
			} else {
				pga_fail(st, PGA_ERR_OVERFLOW, s.rule, 1);
			}
		}
		if (r != RUN_SPLIT) nc = 0;
		__syncthreads(); // batch slots are free again
		if (nc) sh.batch[tid] = s;
		// Offsets of the children.
		{
			__shared__ unsigned long long scan_sh[33];
			unsigned long long total;
			const unsigned long long e = block_exclusive_scan(nc, scan_sh, total);
			sh.off[tid] = (uint32_t)e;
			if (tid == 0) {
				sh.off[PGA_THREADS] = (uint32_t)total;
				atomicAdd(&st->work, (uint32_t)total);
			}
		}
		__syncthreads();
		const uint32_t total = sh.off[PGA_THREADS];
		if (oppar) {
			for (uint32_t j0 = 0; j0 < total; j0 += PGA_THREADS) {
				const uint32_t j = j0 + tid;
				if (j < total) {
					int lo = 0, hi = PGA_THREADS - 1; // last p with off[p] <= j
					while (lo < hi) {
						const int mid = (lo + hi + 1) >> 1;
						if (sh.off[mid] <= j) lo = mid;
						else hi = mid - 1;
					}
					PgaItem c;
					pga_child(P, sh.batch[lo], j - sh.off[lo], c);
					pga_push(sh, group, c, gq, ready, qcap, st);
				}
			}
		} else {
			for (uint32_t k = 0; k < nc; k++) {
				PgaItem c;
				pga_child(P, s, k, c);
				pga_push(sh, group, c, gq, ready, qcap, st);
			}
		}
		__syncthreads();
		if (tid == 0) {
			sh.pool_n = min(sh.pool_n, PGA_POOL);
			__threadfence();
			atomicSub(&st->work, (uint32_t)nb);
		}
		__syncthreads();
	}
}

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

// counts: corners and triangles as Grammar.counts.
__device__ void pga_counts(const Prog &P, const PgaTerm &t, uint32_t &nv, uint32_t &nt) {
	if (t.roof != PGA_NO_ROOF) {
		if (t.roof == PGA_PYRAMID || (t.roof == PGA_HIP && t.size[0] == t.size[1])) { nv = 5; nt = 6; }
		else { nv = 6; nt = 8; }
		return;
	}
	if (t.profile != 0) {
		const int n = P.profiles[t.profile].n;
		if (t.kind == PGA_QUAD) { nv = n; nt = n - 2; }
		else { nv = 2 * n; nt = 2 * (n - 2) + 2 * n; }
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
			const double px = pts[2 * i] * 2 * x, py = pts[2 * i + 1] * 2 * y;
			if (t.kind == PGA_QUAD) {
				c[i][0] = px; c[i][1] = py; c[i][2] = 0;
			} else {
				c[2 * i][0] = px; c[2 * i][1] = py; c[2 * i][2] = -z;
				c[2 * i + 1][0] = px; c[2 * i + 1][1] = py; c[2 * i + 1][2] = z;
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
