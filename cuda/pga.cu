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
};

__device__ __forceinline__ Prog pga_prog(const uint32_t *w) {
	const PgaHeader *h = (const PgaHeader *)w;
	Prog p;
	p.code = (const PgaInstr *)(w + h->off_code);
	p.consts = (const double *)(w + h->off_consts);
	p.ops = (const PgaOp *)(w + h->off_ops);
	p.br = (const PgaBranch *)(w + h->off_branches);
	p.chains = (const PgaChain *)(w + h->off_chains);
	p.rule_chain = (const int32_t *)(w + h->off_rule_chain);
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

// piece is s cut to length size along axis, centred at offset; child i.
__device__ void pga_piece(const PgaItem &s, int axis, double offset, double size, int i, PgaItem &c) {
	c = s;
	c.seed = pg_hash64(s.seed, (uint64_t)i);
	double t[12];
	mat_translation(axis == 0 ? offset : 0, axis == 1 ? offset : 0, axis == 2 ? offset : 0, t);
	mat_mul(s.m, t, c.m);
	c.size[axis] = size;
}

struct RepeatPlan {
	double start, w;
	uint32_t n;
	bool ok;
};

__device__ RepeatPlan pga_repeat_plan(const Prog &P, const PgaOp &op, const PgaItem &s) {
	RepeatPlan p;
	p.ok = false;
	p.n = 0;
	const int axis = op.axis[0];
	const double ext = s.size[axis];
	double w = pga_eval(P, op.expr[0], s);
	if (w < 0) w *= -ext;
	if (!(w > 0) || !(ext > 0) || isinf(ext)) return p;
	double nf = floor(ext / w + 1e-9);
	if (op.mode == 0 && nf < 1) nf = 1;
	p.start = -ext / 2;
	if (op.mode == 0) w = ext / nf;
	else if (op.mode == 2) p.start = ext / 2 - nf * w;
	p.w = w;
	p.ok = true;
	p.n = nf > 4294967295.0 ? 0xffffffffu : (uint32_t)nf;
	return p;
}

// SubDiv: total absolute and relative sizes.
__device__ void pga_subdiv_sums(const Prog &P, const PgaOp &op, const PgaItem &s, double &left, double &rel) {
	double abs = 0;
	rel = 0;
	for (int k = 0; k < op.nbranches; k++) {
		const int wo = P.br[op.branch0 + k].weight;
		double w = wo >= 0 ? pga_eval(P, wo, s) : 0;
		if (isnan(w)) w = 0;
		if (w < 0) rel -= w;
		else abs += w;
	}
	const double x = s.size[op.axis[0]] - abs;
	left = (x > 0 || isnan(x)) ? x : 0.0;
}

// pga_subdiv walks the pieces; with want >= 0 it makes piece number want
// (counting only pieces of positive extent) into c and returns want+1, else
// it returns how many pieces there are.
__device__ uint32_t pga_subdiv(const Prog &P, const PgaOp &op, const PgaItem &s, int want, PgaItem *c) {
	double left, rel;
	pga_subdiv_sums(P, op, s, left, rel);
	const int axis = op.axis[0];
	double pos = -s.size[axis] / 2;
	uint32_t n = 0;
	for (int k = 0; k < op.nbranches; k++) {
		const PgaBranch b = P.br[op.branch0 + k];
		double w = b.weight >= 0 ? pga_eval(P, b.weight, s) : 0;
		if (isnan(w)) w = 0;
		if (w < 0) w = left * -w / rel;
		if (w > 0) {
			if ((int)n == want) {
				pga_piece(s, axis, pos + w / 2, w, k, *c);
				c->chain = b.chain;
				c->pc = 0;
				return n + 1;
			}
			n++;
		}
		pos += w;
	}
	return n;
}

// Output j of the block operator at s.pc (s is the shape the operator sees).
__device__ void pga_child(const Prog &P, const PgaItem &s, uint32_t j, PgaItem &c) {
	const PgaOp op = P.ops[P.chains[s.chain].op0 + s.pc];
	switch (op.kind) {
	case PGA_OP_REPLICATE:
		c = s;
		c.seed = pg_hash64(s.seed, j);
		c.chain = P.br[op.branch0 + j].chain;
		c.pc = 0;
		return;
	case PGA_OP_REPEAT: {
		const RepeatPlan p = pga_repeat_plan(P, op, s);
		pga_piece(s, op.axis[0], p.start + ((double)j + 0.5) * p.w, p.w, (int)j, c);
		c.pc = s.pc + 1;
		return;
	}
	case PGA_OP_SUBDIV: pga_subdiv(P, op, s, (int)j, &c); return;
	case PGA_OP_COMPSPLIT: {
		const double x = s.size[0], y = s.size[1], z = s.size[2];
		double t[12], r[12], f[12];
		double w, h;
		int branch = 2;
		switch (j) {
		case 0: mat_translation(0, y / 2, 0, t); mat_rot(0, -90, r); w = x; h = z; branch = 0; break;
		case 1: mat_translation(0, -y / 2, 0, t); mat_rot(0, 90, r); w = x; h = z; branch = 1; break;
		case 2: mat_translation(0, 0, z / 2, t); mat_ident(r); w = x; h = y; break;
		case 3: mat_translation(x / 2, 0, 0, t); mat_rot(1, 90, r); w = z; h = y; break;
		case 4: mat_translation(0, 0, -z / 2, t); mat_rot(1, 180, r); w = x; h = y; break;
		default: mat_translation(-x / 2, 0, 0, t); mat_rot(1, -90, r); w = z; h = y; break;
		}
		if (j == 2) {
			for (int k = 0; k < 12; k++) f[k] = t[k];
		} else {
			mat_mul(t, r, f);
		}
		c = s;
		c.seed = pg_hash64(s.seed, j);
		c.kind = PGA_QUAD;
		mat_mul(s.m, f, c.m);
		c.size[0] = w;
		c.size[1] = h;
		c.size[2] = 0;
		c.chain = P.br[op.branch0 + branch].chain;
		c.pc = 0;
		return;
	}
	}
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
			if (s.kind == PGA_BOX) s.kind = PGA_PRISM;
			break;
		case PGA_OP_COLLIDER: break;
		case PGA_OP_DISCARD: return RUN_NONE;
		case PGA_OP_GENERATE:
			ticks++;
			term = -1 - s.rule;
			return RUN_TERM;
		case PGA_OP_IF: {
			const double v = pga_eval(P, op.expr[0], s);
			pick = (v != 0 && !isnan(v)) ? 0 : 1;
			break;
		}
		case PGA_OP_IFSIZELESS: pick = (s.size[op.axis[0]] < pga_eval(P, op.expr[0], s)) ? 0 : 1; break;
		case PGA_OP_IFCOLLIDES: pick = 1; break;
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
		case PGA_OP_REPLICATE:
			n = op.nbranches;
			ticks += n;
			return RUN_SPLIT;
		case PGA_OP_COMPSPLIT:
			if (s.kind == PGA_QUAD) {
				pga_fail(st, PGA_ERR_COMPSPLIT_QUAD, s.rule, 0);
				return RUN_ERR;
			}
			n = 6;
			ticks += n;
			return RUN_SPLIT;
		case PGA_OP_SUBDIV:
			n = pga_subdiv(P, op, s, -1, nullptr);
			ticks += n;
			return n ? RUN_SPLIT : RUN_NONE;
		case PGA_OP_REPEAT: {
			const RepeatPlan p = pga_repeat_plan(P, op, s);
			if (!p.ok) return RUN_NONE;
			if ((unsigned long long)p.n > L.max_shapes || p.n == 0xffffffffu) {
				pga_fail(st, PGA_ERR_REPEAT, s.rule, (int)min(p.n, 0x7fffffffu));
				return RUN_ERR;
			}
			n = p.n;
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
pga_levels_run(const uint32_t *words, PgaItem *items, uint32_t n, unsigned long long *counts, PgaStatus *st,
	       unsigned long long max_shapes, int max_depth) {
	const Prog P = pga_prog(words);
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
pga_levels_expand(const uint32_t *words, const PgaItem *items, uint32_t n, const unsigned long long *offs,
		  PgaItem *next, PgaTerm *terms, uint32_t term_base, const PgaStatus *st) {
	const Prog P = pga_prog(words);
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

// Reserves one slot of *ctr per calling thread, one atomic per group of
// threads that arrive together.
__device__ __forceinline__ uint32_t pga_reserve(uint32_t *ctr) {
	cg::coalesced_group g = cg::coalesced_threads();
	uint32_t base = 0;
	if (g.thread_rank() == 0) base = atomicAdd(ctr, g.size());
	return g.shfl(base, 0) + g.thread_rank();
}

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
pga_persistent(const uint32_t *words, PgaItem *gq, uint32_t *ready, uint32_t qcap, PgaTerm *terms, uint32_t tcap,
	       PgaStatus *st, unsigned long long max_shapes, int max_depth, int flags) {
	extern __shared__ __align__(16) unsigned char smem[];
	PgaShared &sh = *(PgaShared *)smem;
	const Prog P = pga_prog(words);
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

// ---- Terminal geometry ----

// counts[i] = triangles << 32 | vertices of terminal i, as Stats counts them.
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_mesh_count(const PgaTerm *terms, uint32_t n, unsigned long long *counts) {
	const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	counts[i] = terms[i].kind == PGA_QUAD ? (2ull << 32 | 4) : (12ull << 32 | 8);
}

__constant__ int pga_cube_faces[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3}, {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};

// One thread per corner: corner k of terminal i mapped by Matrix() (the
// transform times the size), as EncodeOBJ writes it; the thread of corner 0
// writes the terminal's triangles (two per face, as EncodeGLB splits quads).
extern "C" __global__ void __launch_bounds__(PGA_THREADS)
pga_mesh_write(const PgaTerm *terms, uint32_t n, const unsigned long long *offs, float *verts, uint32_t *index) {
	const unsigned long long g = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	const uint32_t i = (uint32_t)(g >> 3), k = (uint32_t)(g & 7);
	if (i >= n) return;
	const PgaTerm &t = terms[i];
	const bool quad = t.kind == PGA_QUAD;
	if (quad && k >= 4) return;
	const unsigned long long o = offs[i];
	const uint32_t v0 = (uint32_t)o, t0 = (uint32_t)(o >> 32);
	double sc[12] = {t.size[0], 0, 0, 0, 0, t.size[1], 0, 0, 0, 0, t.size[2], 0};
	double m[12];
	mat_mul(t.m, sc, m);
	const double p[3] = {(double)(k & 1) - 0.5, (double)(k >> 1 & 1) - 0.5, quad ? 0.0 : (double)(k >> 2 & 1) - 0.5};
	for (int r = 0; r < 3; r++) {
		const double v = m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3];
		verts[3ull * (v0 + k) + r] = (float)v;
	}
	if (k != 0) return;
	uint32_t *ix = index + 3ull * t0;
	if (quad) {
		const uint32_t q[4] = {0, 1, 3, 2};
		ix[0] = v0 + q[0], ix[1] = v0 + q[1], ix[2] = v0 + q[2];
		ix[3] = v0 + q[0], ix[4] = v0 + q[2], ix[5] = v0 + q[3];
		return;
	}
	for (int f = 0; f < 6; f++) {
		const int *c = pga_cube_faces[f];
		uint32_t *o6 = ix + 6 * f;
		o6[0] = v0 + c[0], o6[1] = v0 + c[1], o6[2] = v0 + c[2];
		o6[3] = v0 + c[0], o6[4] = v0 + c[2], o6[5] = v0 + c[3];
	}
}
