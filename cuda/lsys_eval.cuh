// Device side of the L-system rule tables: the view of the blob, the
// bytecode interpreter (eval.go), context matching (context.go) and
// production selection (select.go), each the twin of the Go code it names,
// for cuda/lsys.cu. No floating-point operation on parameters may be
// contracted into an FMA: each goes through __dadd_rn and friends, as in
// lsys_math.cuh.
#pragma once
#include "common.cuh"
#include "lsys_math.cuh"
#include "lsys_types.cuh"

// ---- Tables ---------------------------------------------------------------

struct Tables {
	const LsysHeader *h;
	const LsysRule *rules;
	const LsysArg *args;
	const LsysExpr *exprs;
	const uint32_t *code;
	const double *consts;
	const uint32_t *cands;
	const uint8_t *bytes;
};

__device__ __forceinline__ Tables tables(const uint64_t *blob) {
	const uint8_t *b = reinterpret_cast<const uint8_t *>(blob);
	const LsysHeader *h = reinterpret_cast<const LsysHeader *>(b);
	Tables t;
	t.h = h;
	t.rules = reinterpret_cast<const LsysRule *>(b + h->off_rules);
	t.args = reinterpret_cast<const LsysArg *>(b + h->off_args);
	t.exprs = reinterpret_cast<const LsysExpr *>(b + h->off_exprs);
	t.code = reinterpret_cast<const uint32_t *>(b + h->off_code);
	t.consts = reinterpret_cast<const double *>(b + h->off_consts);
	t.cands = reinterpret_cast<const uint32_t *>(b + h->off_cands);
	t.bytes = b + h->off_bytes;
	return t;
}

__device__ __forceinline__ uint32_t sym_arity(const Tables &T, uint8_t s) { return __ldg(&T.h->syms[s].arity); }
__device__ __forceinline__ int32_t sym_rule(const Tables &T, uint8_t s) { return __ldg(&T.h->syms[s].rule); }

// The string being rewritten.
struct Str {
	const uint8_t *syms;
	const double *params;
	const uint32_t *chunkp; // first parameter of each group of LSYS_K modules
	const uint32_t *match;  // bracket partners (systems with context)
	uint32_t n;
};

// The first parameter of module j.
__device__ uint32_t param_offset(const Tables &T, const Str &S, uint32_t j) {
	const uint32_t g = j / LSYS_K;
	uint32_t p = S.chunkp[g];
	for (uint32_t q = g * LSYS_K; q < j; q++) p += sym_arity(T, S.syms[q]);
	return p;
}

// ---- Expressions (eval.go) ------------------------------------------------

__device__ bool call1(uint32_t f, double a, double *out) {
	double v;
	switch (f) {
	case LSYS_FN_SIN: v = lsys_sin_deg(a); break;
	case LSYS_FN_COS: v = lsys_cos_deg(a); break;
	case LSYS_FN_TAN: v = lsys_tan_deg(a); break;
	case LSYS_FN_ASIN:
	case LSYS_FN_ACOS:
		if (!(a >= -1.0 && a <= 1.0)) return false;
		v = f == LSYS_FN_ASIN ? lsys_asin_deg(a) : lsys_acos_deg(a);
		break;
	case LSYS_FN_ATAN: v = lsys_atan_deg(a); break;
	case LSYS_FN_SQRT:
		if (a < 0) return false;
		v = __dsqrt_rn(a);
		break;
	case LSYS_FN_EXP: v = lsys_exp(a); break;
	case LSYS_FN_LOG:
		if (a <= 0) return false;
		v = lsys_log(a);
		break;
	case LSYS_FN_FLOOR: v = floor(a); break;
	case LSYS_FN_CEIL: v = ceil(a); break;
	case LSYS_FN_TRUNC: v = trunc(a); break;
	case LSYS_FN_ABS: v = fabs(a); break;
	case LSYS_FN_SIGN: v = LSYS_SUB(a > 0 ? 1.0 : 0.0, a < 0 ? 1.0 : 0.0); break;
	default: return false;
	}
	if (!lsys_isfinite(v)) return false;
	*out = v;
	return true;
}

__device__ bool call2(uint32_t f, double a, double b, double *out) {
	double v;
	switch (f) {
	case LSYS_FN_ATAN2: v = lsys_atan2_deg(a, b); break;
	case LSYS_FN_MIN: v = a < b ? a : b; break;
	case LSYS_FN_MAX: v = a > b ? a : b; break;
	default: return false;
	}
	if (!lsys_isfinite(v)) return false;
	*out = v;
	return true;
}

// Draw c of call site site under the module's random key, in [0, 1)
// (random.go's randUnit).
__device__ __forceinline__ double lsys_rand_unit(uint64_t rkey, double site, uint64_t c) {
	return (double)(pg_hash64(pg_hash64(rkey, (uint64_t)site), c) >> 11) * 1.1102230246251565e-16; // 2^-53
}

// A random function over its operands ops[0..] (the site last), as
// random.go's Expr.random computes it; false where it fails.
__device__ bool call_random(uint32_t f, const double *ops, uint64_t rkey, double *out) {
	const uint32_t n = f == LSYS_FN_RAN ? 2 : 3;
	const double site = ops[n - 1];
	const double u = lsys_rand_unit(rkey, site, 0);
	double v;
	switch (f) {
	case LSYS_FN_RAN: v = LSYS_MUL(ops[0], u); break;
	case LSYS_FN_UNIFORM: v = LSYS_ADD(ops[0], LSYS_MUL(LSYS_SUB(ops[1], ops[0]), u)); break;
	case LSYS_FN_NRAN: {
		const double u1 = LSYS_SUB(1.0, u), u2 = lsys_rand_unit(rkey, site, 1);
		const double r = __dsqrt_rn(LSYS_MUL(-2.0, lsys_log(u1)));
		const double z = LSYS_MUL(r, lsys_cos_deg(LSYS_MUL(360.0, u2)));
		v = LSYS_ADD(ops[0], LSYS_MUL(ops[1], z));
		break;
	}
	default: return false;
	}
	if (!lsys_isfinite(v)) return false;
	*out = v;
	return true;
}

// Expression e over slots, as Expr.EvalKey computes it with the module's
// random key rkey; false where EvalKey fails.
__device__ bool eval_expr(const Tables &T, int32_t e, const double *slots, uint64_t rkey, double *out) {
	const LsysExpr ex = T.exprs[e];
	const uint32_t *code = T.code + ex.code_start;
	const double *consts = T.consts + ex.const_start;
	double st[LSYS_MAX_STACK];
	int sp = 0;
	for (uint32_t pc = 0; pc < ex.code_len; pc++) {
		const uint32_t in = __ldg(&code[pc]);
		const uint32_t op = in & 0xff, arg = in >> 8;
		switch (op) {
		case LSYS_OP_CONST: st[sp++] = __ldg(&consts[arg]); break;
		case LSYS_OP_SLOT: st[sp++] = slots[arg]; break;
		case LSYS_OP_NEG: st[sp - 1] = -st[sp - 1]; break;
		case LSYS_OP_NOT: st[sp - 1] = st[sp - 1] == 0.0 ? 1.0 : 0.0; break;
		case LSYS_OP_BOOL: st[sp - 1] = st[sp - 1] != 0.0 ? 1.0 : 0.0; break;
		case LSYS_OP_ANDJUMP:
			if (st[sp - 1] == 0.0) pc = arg - 1;
			else sp--;
			break;
		case LSYS_OP_ORJUMP:
			if (st[sp - 1] != 0.0) pc = arg - 1;
			else sp--;
			break;
		case LSYS_OP_CALL: {
			double v;
			if (arg == LSYS_FN_RAN || arg == LSYS_FN_NRAN || arg == LSYS_FN_UNIFORM) {
				sp -= arg == LSYS_FN_RAN ? 1 : 2;
				if (!call_random(arg, &st[sp - 1], rkey, &v)) return false;
			} else if (arg == LSYS_FN_ATAN2 || arg == LSYS_FN_MIN || arg == LSYS_FN_MAX) {
				sp--;
				if (!call2(arg, st[sp - 1], st[sp], &v)) return false;
			} else if (!call1(arg, st[sp - 1], &v)) {
				return false;
			}
			st[sp - 1] = v;
			break;
		}
		default: {
			sp--;
			const double a = st[sp - 1], b = st[sp];
			double v;
			switch (op) {
			case LSYS_OP_ADD: v = LSYS_ADD(a, b); break;
			case LSYS_OP_SUB: v = LSYS_SUB(a, b); break;
			case LSYS_OP_MUL: v = LSYS_MUL(a, b); break;
			case LSYS_OP_DIV:
				if (b == 0.0) return false;
				v = LSYS_DIV(a, b);
				break;
			case LSYS_OP_POW:
				if (a < 0 && b != trunc(b)) return false;
				if (a == 0 && b < 0) return false;
				v = lsys_pow(a, b);
				break;
			case LSYS_OP_LT: v = a < b ? 1.0 : 0.0; break;
			case LSYS_OP_LE: v = a <= b ? 1.0 : 0.0; break;
			case LSYS_OP_GT: v = a > b ? 1.0 : 0.0; break;
			case LSYS_OP_GE: v = a >= b ? 1.0 : 0.0; break;
			case LSYS_OP_EQ: v = a == b ? 1.0 : 0.0; break;
			case LSYS_OP_NE: v = a != b ? 1.0 : 0.0; break;
			default: return false;
			}
			if (!lsys_isfinite(v)) return false;
			st[sp - 1] = v;
		}
		}
	}
	*out = st[0];
	return true;
}

// ---- Context (context.go) -------------------------------------------------

// Copies module j's parameters to slots[at:].
__device__ void bind_module(const Tables &T, const Str &S, uint32_t j, uint32_t a, double *slots, uint32_t at) {
	if (a == 0) return;
	const uint32_t p = param_offset(T, S, j);
	for (uint32_t q = 0; q < a; q++) slots[at + q] = S.params[p + q];
}

// The left context of module i, nearest module last; with bind, the matched
// modules' parameters go to slots[0:nleft].
__device__ bool ctx_left(const Tables &T, const Str &S, uint32_t i, const LsysRule &ru, double *slots, bool bind) {
	const uint8_t *want = T.bytes + ru.left_start;
	int64_t j = (int64_t)i - 1;
	uint32_t end = ru.nleft;
	for (int k = (int)ru.left_len - 1; k >= 0;) {
		if (j < 0) return false;
		const uint8_t s = S.syms[j];
		if (s == want[k]) {
			if (bind) {
				const uint32_t a = sym_arity(T, s);
				end -= a;
				bind_module(T, S, (uint32_t)j, a, slots, end);
			}
			k--;
			j--;
		} else if (s == ']') {
			const uint32_t m = S.match[j];
			if (m == LSYS_NO_MATCH) return false; // unbalanced: the step fails anyway
			j = (int64_t)m - 1;
		} else if (s == '[' || __ldg(&T.h->syms[s].ignore)) {
			j--;
		} else {
			return false;
		}
	}
	return true;
}

// The right context of module i, nearest module first; with bind, the
// matched modules' parameters go to slots[nleft+npred:].
__device__ bool ctx_right(const Tables &T, const Str &S, uint32_t i, const LsysRule &ru, double *slots, bool bind) {
	const uint8_t *want = T.bytes + ru.right_start;
	int64_t j = (int64_t)i + 1;
	uint32_t at = ru.nleft + ru.npred;
	for (uint32_t k = 0; k < ru.right_len;) {
		if (j >= (int64_t)S.n) return false;
		const uint8_t s = S.syms[j];
		if (s == want[k]) {
			if (bind) {
				const uint32_t a = sym_arity(T, s);
				bind_module(T, S, (uint32_t)j, a, slots, at);
				at += a;
			}
			k++;
			j++;
		} else if (s == '[') {
			const uint32_t m = S.match[j];
			if (m == LSYS_NO_MATCH) return false;
			j = (int64_t)m + 1;
		} else if (s == ']') {
			return false;
		} else if (__ldg(&T.h->syms[s].ignore)) {
			j++;
		} else {
			return false;
		}
	}
	return true;
}

// Whether rule ru applies to module i (parameters from po): 1 yes, 0 no, -1
// its condition failed to evaluate.
__device__ int match_rule(const Tables &T, const Str &S, const LsysRule &ru, uint32_t i, uint32_t po, uint64_t key,
			  double *slots) {
	const bool bind = ru.cond >= 0 && ru.nslots > 0;
	if (ru.left_len && !ctx_left(T, S, i, ru, slots, bind)) return 0;
	if (ru.right_len && !ctx_right(T, S, i, ru, slots, bind)) return 0;
	if (ru.cond < 0) return 1;
	for (uint32_t q = 0; q < ru.npred; q++) slots[ru.nleft + q] = S.params[po + q];
	double v;
	if (!eval_expr(T, ru.cond, slots, pg_hash64(key, (uint64_t)i), &v)) return -1;
	return v != 0.0;
}

// The production that rewrites module i, or LSYS_COPY (select.go's choose and
// draw); *failed when a condition fails to evaluate.
__device__ int32_t choose(const Tables &T, const Str &S, uint32_t i, uint32_t po, uint64_t key, double *slots,
			  bool *failed) {
	const uint8_t s = S.syms[i];
	const uint32_t start = __ldg(&T.h->syms[s].cand_start), nc = __ldg(&T.h->syms[s].ncand);
	const uint32_t *c = T.cands + start;
	for (uint32_t a = 0; a < nc; a++) {
		const int m = match_rule(T, S, T.rules[c[a]], i, po, key, slots);
		if (m < 0) {
			*failed = true;
			return LSYS_COPY;
		}
		if (!m) continue;
		if (!T.rules[c[a]].stochastic) return (int32_t)c[a];
		// Every stochastic production from here on that matches is a
		// candidate; weights add in float64 in source order.
		double total = 0.0;
		for (uint32_t b = a; b < nc; b++) {
			const LsysRule &ru = T.rules[c[b]];
			if (!ru.stochastic) continue;
			if (b > a) {
				const int mb = match_rule(T, S, ru, i, po, key, slots);
				if (mb < 0) {
					*failed = true;
					return LSYS_COPY;
				}
				if (!mb) continue;
			}
			total = LSYS_ADD(total, ru.prob);
		}
		if (!(total > 0.0)) return LSYS_COPY;
		const double u = (double)(pg_hash64(key, (uint64_t)i) >> 11) * 1.1102230246251565e-16; // 2^-53
		double cum = 0.0;
		int32_t last = (int32_t)c[a];
		for (uint32_t b = a; b < nc; b++) {
			const LsysRule &ru = T.rules[c[b]];
			if (!ru.stochastic) continue;
			if (b > a && match_rule(T, S, ru, i, po, key, slots) <= 0) continue; // as above: no error now
			cum = LSYS_ADD(cum, ru.prob);
			last = (int32_t)c[b];
			if (LSYS_DIV(cum, total) > u) return last;
		}
		return last;
	}
	return LSYS_COPY;
}
