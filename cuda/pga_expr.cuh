// Part of pga.cu (included there, after its defines): the expression interpreter (expr.go).
#pragma once

// ---- Expressions ----

__device__ __forceinline__ double pga_unit(uint64_t bits) { return (double)(bits >> 11) * (1.0 / 9007199254740992.0); }

// DRY: evaluating for a bilateral query's re-derivation, which never asks
// one itself (the parser makes sure).
template <bool DRY> __device__ __noinline__ double pga_eval(const Prog &P, int off, const PgaItem &s) {
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
		case PGA_X_FRAME: st[sp++] = s.m[in.arg]; break;
		case PGA_X_SEED: st[sp++] = pga_unit(pg_hash64(s.seed, 0x5EED5EEDull)); break;
		case PGA_X_ATTR: st[sp++] = s.attr; break;
		case PGA_X_INDEX: st[sp++] = (double)s.index; break;
		case PGA_X_SIBLINGS: st[sp++] = (double)s.siblings; break;
		case PGA_X_QUERY: st[sp++] = pga_query(P, in.arg % 4, in.arg / 4, s) ? 1 : 0; break;
		case PGA_X_BILATERAL:
			// pga_ask answered the op's queries before the op ran.
			st[sp++] = (!DRY && (s.ask & PGA_ASK_VALID) && (s.ask >> (in.arg >> 7) & 1)) ? 1 : 0;
			break;
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
			case PGA_X_AND: v = (l != 0 && !isnan(l)) && (r != 0 && !isnan(r)) ? 1 : 0; break;
			case PGA_X_OR: v = (l != 0 && !isnan(l)) || (r != 0 && !isnan(r)) ? 1 : 0; break;
			default: v = __longlong_as_double(0x7ff8000000000000ll);
			}
			st[--sp - 1] = v;
		}
		}
	}
}

