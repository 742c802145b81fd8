// Part of pga.cu (included there, after pga_run.cuh): bilateral queries (bilateral_eval.go).
#pragma once

// ---- Bilateral queries ----

// The query's test of shape a against solid b (matches in bilateral_eval.go).
__device__ bool obb_matches(int q, const Obb &a, const Obb &b) {
	if (q == PGA_Q_INSIDE) return obb_inside(a, b);
	bool overlap, touch;
	obb_contact(a, b, overlap, touch);
	return (q == PGA_Q_OVERLAPS && overlap) || (q == PGA_Q_TOUCHES && touch && !overlap);
}

// Ancestor records are written once, by the thread of the shape that
// entered the rule, before its children exist; other blocks read them
// through L2 (__ldcg), never a line their L1 kept from before the write.
__device__ __forceinline__ int32_t anc_rule(const Prog &P, int32_t i) { return __ldcg(&P.anc[i - 1].rule); }
__device__ __forceinline__ int32_t anc_up(const Prog &P, int32_t i) { return __ldcg(&P.anc[i - 1].anc); }
__device__ __forceinline__ uint64_t anc_seed(const Prog &P, int32_t i) {
	return (uint64_t)__ldcg((const unsigned long long *)&P.anc[i - 1].seed);
}
__device__ __forceinline__ void anc_load(const Prog &P, int32_t i, PgaItem &r) {
	const unsigned long long *src = (const unsigned long long *)(P.anc + i - 1);
	unsigned long long *dst = (unsigned long long *)&r;
	for (int w = 0; w < (int)(sizeof(PgaItem) / 8); w++) dst[w] = __ldcg(src + w);
}

// pga_bilateral answers query q of s against what the link's ancestor
// derives for its target: it takes the newest record of the ancestor rule on
// s's lineage and derives from it again, depth first as the CPU does, only
// along chains that lead to the target, one frame per multi-output operator;
// targets s descends from (same rule and seed on its lineage) do not count.
__device__ __noinline__ bool pga_bilateral(const Prog &P, int q, int link, const PgaItem &s) {
	if (link < 0 || link >= P.nlinks || !P.anc || !P.st) return false;
	const PgaLink lk = P.links[link];
	int32_t root = s.anc;
	while (root != 0 && anc_rule(P, root) != lk.anc) root = anc_up(P, root);
	if (root == 0) return false;
	Obb me, b;
	shape_obb(s, me);
	Prog D = P;
	D.dry_link = link;
	D.phase = P.rule_phase[lk.anc];
	const Limits L = {P.max_shapes, P.max_depth};
	const uint32_t bit = 1u << link;
	PgaItem frame[PGA_MAX_RELATED_SPLITS];
	uint32_t next[PGA_MAX_RELATED_SPLITS], count[PGA_MAX_RELATED_SPLITS];
	int sp = 0;
	PgaItem cur;
	anc_load(P, root, cur);
	uint32_t ticks = 0;
	bool hit = false;
	for (;;) {
		uint32_t n = 0;
		int term = 0;
		const int r = pga_run<true>(D, L, P.st, cur, n, term, ticks);
		if (r == RUN_ERR) break;
		if (r == RUN_TARGET || (r == RUN_TERM && lk.target_kind == PGA_TARGET_TERMINAL && term == lk.target)) {
			bool mine = false;
			if (lk.target_kind == PGA_TARGET_RULE) {
				for (int32_t j = s.anc; j != 0 && j != root; j = anc_up(P, j)) {
					if (anc_rule(P, j) == lk.target && anc_seed(P, j) == cur.seed) mine = true;
				}
			}
			if (!mine) {
				shape_obb(cur, b);
				if (obb_matches(q, me, b)) {
					hit = true;
					break;
				}
			}
		} else if (r == RUN_SPLIT) {
			if (sp == PGA_MAX_RELATED_SPLITS) {
				pga_fail(P.st, PGA_ERR_RELATED_DEEP, cur.rule, link * 4 + q);
				break;
			}
			frame[sp] = cur;
			next[sp] = 0;
			count[sp] = n;
			sp++;
		}
		// The next output, depth first, whose chain leads to the target.
		bool more = false;
		while (sp > 0 && !more) {
			const int t = sp - 1;
			while (next[t] < count[t] && !more) {
				pga_child<true>(D, frame[t], next[t]++, cur);
				more = (D.reach[cur.chain] & bit) != 0;
			}
			if (!more) sp--;
		}
		if (!more) break;
	}
	if (ticks) {
		const unsigned long long old = atomicAdd(&P.st->ticks, (unsigned long long)ticks);
		if (old + ticks > P.max_shapes) pga_fail(P.st, PGA_ERR_SHAPES, s.rule, 0);
	}
	return hit;
}

// pga_ask answers the bilateral queries of the operator s is at (pga_run
// returned RUN_ASK) into s.ask, bit k for the query in slot k; the schedulers
// call it between runs, so no re-derivation nests inside pga_run.
__device__ __noinline__ void pga_ask(const Prog &P, PgaItem &s) {
	const uint32_t e = P.op_bil[P.chains[s.chain].op0 + s.pc];
	uint32_t bits = PGA_ASK_VALID;
	for (uint32_t k = 0; k < (e & 0xff); k++) {
		const uint32_t q = P.bil_list[(e >> 8) + k];
		if (pga_bilateral(P, (int)(q % 4), (int)(q / 4), s)) bits |= 1u << k;
	}
	s.ask = bits;
}
