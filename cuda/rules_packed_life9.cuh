// B/S rules on boards whose rows fill whole 128-cell segments (W a
// multiple of 128: no bits past W, no padding words), by 9-cell totals,
// with rows streamed into shared memory ahead of use. cuda/rules_packed.cu's
// pg_life_b3s23_w128_* (Life, its rule folded in) and pg_life_w128_* (any
// B/S rule) kernels run it; the layout, the launch (32 x 8 threads, a
// warp's strip of LP_STRIP rows down 128 words) and the firing counts are
// pg_life_step's.
//
// Rows: each warp has a ring of PG_LIFE9_RING rows in shared memory, which
// cp.async fills PG_LIFE9_RING - 1 rows ahead of the row the warp is
// summing, so a row's load latency is spent on the rows before it rather
// than stalling the warp (the stall that bound pg_life_step_b3s23: Nsight
// Compute's top stall, with 8 warps a scheduler). A slot holds the
// segment's 128 words and the word on each side of it, so a lane reads its
// quad's neighbour words from the slot: no shuffles.
//
// Sums: a row becomes its three-cell sums (west + cell + east, two bit
// planes) once; a cell's 3 x 3 total is its row's and the rows above and
// below summed, and Life is "the total is 3, or 4 with the cell alive"
// (TestLife9Formula holds the formula to Life on every neighbourhood).
// Another rule selects its births and survivals by T bit by bit
// (pg_life9_lut; TestLife9RuleFormula). A
// warp keeps three rows' sums in registers, and the row loop is unrolled by
// three with the rows' roles rotated, so no registers move between rows.
//
// On the H200 (16384^2 torus; stand-alone A/B of the kernels, ms a step):
// pg_life_step_b3s23 0.0327; the 9-cell sums with rows loaded into
// registers and shuffled (the same code without the ring) 0.0256; with the
// ring 0.0239 for rings of 4, 6 or 8 rows. Slower there: strips of 32 with a
// ring of 6 (0.0249), 3 blocks an SM with strips of 24 and a ring of 8
// (0.0242), strips of 12, 15, 18, 24 or 32 without the ring (0.0258-0.0341).
// HighLife (B36/S23), the same A/B: pg_life_step 0.0443, pg_life_w128_torus
// 0.0377 at 3 blocks an SM (80 registers, a few bytes spilled); 0.0444 at 4
// blocks (64 registers, 184 bytes spilled), 0.0410 with strips of 24.
#pragma once

#define PG_LIFE9_RING 4
#define PG_LIFE9_SLOT 136 // words: 3 of padding, west, 128 words, east, 3 of padding

// pg_life9_sums are the three-cell sums of a lane's 4 words: s = w ^ c ^ e
// (bit 0) and c = their majority (bit 1).
struct pg_life9_sums {
	uint32_t s[4], c[4];
};

// pg_life9_lane is what a lane needs to fetch its rows: its first word k;
// whether it holds words of the row (in); the word west of the segment
// (wi, fetched by lane 0: row[wpr - 1] at k == 0 on a torus, none on a
// plane); and the word east of its quad (ei, fetched by the segment's edge
// lane: lane 31, or the lane holding the row's last word, whose east is
// row[0] on a torus and none on a plane).
struct pg_life9_lane {
	int k, wi, ei;
	bool in, loadw, loade, edge;
};

// Asynchronous copies to shared memory (sm_80+): n of the size's bytes are
// read, the rest zero-filled (n = 0 writes zeros and reads nothing).
__device__ __forceinline__ void pg_life9_cp16(uint32_t *dst, const uint32_t *src, int n) {
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
		     "l"(src), "r"(n)
		     : "memory");
}

__device__ __forceinline__ void pg_life9_cp4(uint32_t *dst, const uint32_t *src, int n) {
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)),
		     "l"(src), "r"(n)
		     : "memory");
}

// pg_life9_ctx is a strip's fixed part: the lane, the state's board, the
// strip's first row and the last row it reads, the warp's ring, and the
// rule (LIFE folds Life's in instead).
struct pg_life9_ctx {
	pg_life9_lane ln;
	const uint32_t *board;
	int h, ws, y0, ylast;
	uint32_t *ring;
	uint32_t birth, keep; // keep: the survival set shifted up one (T counts the cell)
};

// pg_life9_fetch starts copying row t of the strip's sequence (board row
// y0 - 1 + t) into its ring slot as one commit group: rows outside the
// board wrap on a torus and are zeros on a plane, as are rows past ylast
// (the strip's last row below), whose groups keep the count of groups in
// flight the same.
template <bool TORUS>
__device__ __forceinline__ void pg_life9_fetch(const pg_life9_ctx &x, int t) {
	const pg_life9_lane &ln = x.ln;
	uint32_t *slot = x.ring + (t % PG_LIFE9_RING) * PG_LIFE9_SLOT;
	int r = x.y0 - 1 + t;
	bool ok = r <= x.ylast;
	if (r < 0)
		r += x.h, ok = ok && TORUS;
	else if (r >= x.h)
		r -= x.h, ok = ok && TORUS;
	const uint32_t *row = x.board + (ok ? r : 0) * x.ws;
	const int q = 4 + 4 * threadIdx.x; // the lane's quad in the slot
	if (ln.in) // lanes past the row write nothing and read what is there: their results are dropped
		pg_life9_cp16(slot + q, row + ln.k, ok ? 16 : 0);
	if (threadIdx.x == 0)
		pg_life9_cp4(slot + 3, row + (ln.loadw ? ln.wi : 0), ok && ln.loadw ? 4 : 0);
	if (ln.edge)
		pg_life9_cp4(slot + q + 4, row + (ln.loade ? ln.ei : 0), ok && ln.loade ? 4 : 0);
	asm volatile("cp.async.commit_group;" ::: "memory");
}

// pg_life9_take waits for row t of the strip's sequence (board row
// y0 - 1 + t) to land in its slot, makes its cells (v) and three-cell sums
// (hs), and starts fetching row t + RING - 1 into the slot of row t - 1.
template <bool TORUS>
__device__ __forceinline__ void pg_life9_take(const pg_life9_ctx &x, int t, uint4 &v, pg_life9_sums &hs) {
	asm volatile("cp.async.wait_group %0;" ::"n"(PG_LIFE9_RING - 2) : "memory");
	__syncwarp(); // the other lanes' copies are visible
	const uint32_t *slot = x.ring + (t % PG_LIFE9_RING) * PG_LIFE9_SLOT;
	const int q = 4 + 4 * threadIdx.x;
	v = *reinterpret_cast<const uint4 *>(slot + q);
	const uint32_t l = slot[q - 1], r = slot[q + 4];
	const uint32_t c[4] = {v.x, v.y, v.z, v.w};
	const uint32_t prev[4] = {l, v.x, v.y, v.z}, after[4] = {v.y, v.z, v.w, r};
#pragma unroll
	for (int i = 0; i < 4; i++) {
		const uint32_t w = __funnelshift_l(prev[i], c[i], 1), e = __funnelshift_r(c[i], after[i], 1);
		hs.s[i] = w ^ c[i] ^ e;
		hs.c[i] = (w & c[i]) | (e & (w ^ c[i]));
	}
	pg_life9_fetch<TORUS>(x, t + PG_LIFE9_RING - 1);
}

// pg_life9_total is the 3 x 3 total T of 32 cells from the three-cell sums
// of the rows above (a), at (m) and below (b) them, bit by bit: T = ones +
// 2 twos + 4 fours + 8 eights (at most 9, so eights excludes the others
// but ones).
struct pg_life9_total {
	uint32_t ones, twos, fours, eights;
};

__device__ __forceinline__ pg_life9_total pg_life9_sum(uint32_t sa, uint32_t ca, uint32_t sm, uint32_t cm, uint32_t sb,
	uint32_t cb) {
	const uint32_t ones = sa ^ sm ^ sb, c1 = (sa & sm) | (sb & (sa ^ sm));
	const uint32_t t = ca ^ cm ^ cb, u = (ca & cm) | (cb & (ca ^ cm));
	return {ones, t ^ c1, u ^ (t & c1), u & t & c1};
}

// pg_life9_next is Life's next state of 32 cells: a cell lives on where T is
// 3, or 4 and alive (T of 8 or 9 has neither twos nor fours alone, so
// neither test matches it).
__device__ __forceinline__ uint32_t pg_life9_next(pg_life9_total T, uint32_t alive) {
	return (T.ones & T.twos & ~T.fours) | (alive & T.fours & ~(T.ones | T.twos));
}

// pg_life9_sel is x ? a : b, bit by bit.
__device__ __forceinline__ uint32_t pg_life9_sel(uint32_t x, uint32_t a, uint32_t b) { return (a & x) | (b & ~x); }

// pg_life9_lut is, bit by bit, whether the 3 x 3 total T (bits t0..t3, at
// most 9) is in a rule's set: bit n of lut says whether T = n is. Selects
// between all-ones and all-zero masks down the bits of T: 9 selects.
__device__ __forceinline__ uint32_t pg_life9_lut(uint32_t lut, uint32_t t0, uint32_t t1, uint32_t t2, uint32_t t3) {
	uint32_t m[10];
#pragma unroll
	for (int n = 0; n < 10; n++)
		m[n] = 0u - ((lut >> n) & 1u);
	const uint32_t g0 = pg_life9_sel(t0, m[1], m[0]), g1 = pg_life9_sel(t0, m[3], m[2]);
	const uint32_t g2 = pg_life9_sel(t0, m[5], m[4]), g3 = pg_life9_sel(t0, m[7], m[6]);
	const uint32_t low = pg_life9_sel(t2, pg_life9_sel(t1, g3, g2), pg_life9_sel(t1, g1, g0)); // T < 8
	return pg_life9_sel(t3, pg_life9_sel(t0, m[9], m[8]), low);
}

// pg_life9_next_rule is any B/S rule's next state of 32 cells: born where
// the cell is dead and T (its neighbours) is in birth, kept where it is
// alive and T (its neighbours and itself) is in keep, the survival set
// shifted up by one.
__device__ __forceinline__ uint32_t pg_life9_next_rule(pg_life9_total T, uint32_t alive, uint32_t birth, uint32_t keep) {
	return pg_life9_sel(alive, pg_life9_lut(keep, T.ones, T.twos, T.fours, T.eights),
		pg_life9_lut(birth, T.ones, T.twos, T.fours, T.eights));
}

// pg_life9_out takes the next row of the sequence as the bottom row (row
// y + 1), writes row y's next state to op (rows top, mid and bottom's sums,
// mid's cells vmid), adds the cells that changed, and moves t and op on.
template <bool TORUS, bool LIFE>
__device__ __forceinline__ void pg_life9_out(const pg_life9_ctx &x, int &t, uint32_t *&op, const pg_life9_sums &top,
	const pg_life9_sums &mid, uint4 vmid, pg_life9_sums &bot, uint4 &vbot, unsigned int &changed) {
	pg_life9_take<TORUS>(x, t++, vbot, bot);
	const uint32_t c[4] = {vmid.x, vmid.y, vmid.z, vmid.w};
	uint32_t n[4];
#pragma unroll
	for (int i = 0; i < 4; i++) {
		const pg_life9_total T = pg_life9_sum(top.s[i], top.c[i], mid.s[i], mid.c[i], bot.s[i], bot.c[i]);
		n[i] = LIFE ? pg_life9_next(T, c[i]) : pg_life9_next_rule(T, c[i], x.birth, x.keep);
	}
	if (x.ln.in) {
		changed += __popc(n[0] ^ c[0]) + __popc(n[1] ^ c[1]) + __popc(n[2] ^ c[2]) + __popc(n[3] ^ c[3]);
		*reinterpret_cast<uint4 *>(op + x.ln.k) = make_uint4(n[0], n[1], n[2], n[3]);
	}
	op += x.ws;
}

// pg_life9_strip steps rows y0..y1-1 of one state's board (h rows of ws
// words) into out and returns the cells that changed.
template <bool TORUS, bool LIFE>
__device__ __forceinline__ unsigned int pg_life9_strip(const pg_life9_lane &ln, const uint32_t *__restrict__ board,
	uint32_t *__restrict__ out, int h, int ws, int y0, int y1, uint32_t *ring, uint32_t birth, uint32_t survive) {
	const pg_life9_ctx x = {ln, board, h, ws, y0, y1, ring, birth, survive << 1};
	__syncwarp(); // the previous strip's reads of the ring are done
	for (int t = 0; t < PG_LIFE9_RING - 1; t++)
		pg_life9_fetch<TORUS>(x, t);
	pg_life9_sums A, M, B;
	uint4 va, vm, vb;
	int t = 0;
	pg_life9_take<TORUS>(x, t++, va, A); // row y0 - 1
	pg_life9_take<TORUS>(x, t++, vm, M); // row y0
	unsigned int changed = 0;
	uint32_t *op = out + y0 * ws;
	int y = y0;
	for (; y + 3 <= y1; y += 3) { // the three rows' roles rotate
		pg_life9_out<TORUS, LIFE>(x, t, op, A, M, vm, B, vb, changed);
		pg_life9_out<TORUS, LIFE>(x, t, op, M, B, vb, A, va, changed);
		pg_life9_out<TORUS, LIFE>(x, t, op, B, A, va, M, vm, changed);
	}
	if (y < y1)
		pg_life9_out<TORUS, LIFE>(x, t, op, A, M, vm, B, vb, changed);
	if (y + 1 < y1)
		pg_life9_out<TORUS, LIFE>(x, t, op, M, B, vb, A, va, changed);
	asm volatile("cp.async.wait_group 0;" ::: "memory"); // no copy outlives the strip
	return changed;
}

// pg_life9_step is pg_life_step_body on 128-cell rows: the same strips,
// states and firing sums (pg_life_strips), pg_life9_strip for each strip.
template <bool TORUS, bool LIFE>
__device__ __forceinline__ void pg_life9_step(const uint32_t *__restrict__ cur, uint32_t *__restrict__ next,
	unsigned long long *__restrict__ fired, int32_t nstates, int32_t h, int32_t wpr, int32_t ws, int32_t step,
	int32_t steps, uint32_t birth, uint32_t survive) {
	__shared__ __align__(16) uint32_t rings[8][PG_LIFE9_RING * PG_LIFE9_SLOT];
	pg_life9_lane ln;
	ln.k = (blockIdx.x * 32 + threadIdx.x) * 4;
	ln.in = ln.k < ws;
	ln.wi = ln.k > 0 ? ln.k - 1 : (TORUS ? wpr - 1 : -1);
	ln.ei = ln.k + 4 < wpr ? ln.k + 4 : (TORUS ? 0 : -1);
	ln.loadw = ln.in && ln.wi >= 0;
	ln.loade = ln.in && ln.ei >= 0;
	ln.edge = ln.in && (threadIdx.x == 31 || ln.k + 4 == wpr);
	pg_life_strips(fired, nstates, h, step, steps, [&](int s, int y0, int y1) {
		return pg_life9_strip<TORUS, LIFE>(ln, cur + (long long)s * h * ws, next + (long long)s * h * ws, h, ws, y0,
			y1, rings[threadIdx.y], birth, survive);
	});
}
