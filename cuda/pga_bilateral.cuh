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

// pga_bilateral answers query q of s against what the link's ancestor
// derives for its target: it takes the newest record of the ancestor rule on
// s's lineage and derives from it again, depth first as the CPU does, only
// along chains that lead to the target, one frame per multi-output operator;
// targets s descends from (same rule and seed on its lineage) do not count.
__device__ __noinline__ bool pga_bilateral(const Prog &P, int q, int link, const PgaItem &s) {
	if (link < 0 || link >= P.nlinks || !P.anc || !P.st) return false;
	const PgaLink lk = P.links[link];
	int32_t root = s.anc;
	while (root != 0 && P.anc[root - 1].rule != lk.anc) root = P.anc[root - 1].anc;
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
	PgaItem cur = P.anc[root - 1];
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
				for (int32_t j = s.anc; j != 0 && j != root; j = P.anc[j - 1].anc) {
					if (P.anc[j - 1].rule == lk.target && P.anc[j - 1].seed == cur.seed) mine = true;
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
	if (P.tick && ticks) {
		const unsigned long long old = atomicAdd(&P.st->ticks, (unsigned long long)ticks);
		if (old + ticks > P.max_shapes) pga_fail(P.st, PGA_ERR_SHAPES, s.rule, 0);
	}
	return hit;
}
