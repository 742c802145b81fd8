// Two-state outer-totalistic rules on the Moore neighbourhood (Life and
// every other B/S rule of Golly's notation without Hensel letters), 32 cells
// a word. internal/rules/lifepack drives it; its pack.go holds the Go twin
// of the same bit logic (the test oracle that runs without a GPU).
//
// Layout: cell x of row y of state s is bit x % 32 of word
// (s * h + y) * ws + x / 32. A row holds wpr = ceil(W / 32) words of cells
// and is ws = wpr rounded up to 4 words long (16-byte aligned, so a lane
// reads 4 words at once); the bits past W in its last word (tail = W - 32
// (wpr - 1) cells are valid, 1..32) and the padding words are 0 and stay 0.
// A torus wraps rows and columns; a bounded plane reads the cells outside
// as dead.
//
// One launch per step (pg_life_step, below). The eight
// neighbour counts of 32 cells are summed bit-sliced (full and half adders
// over whole words, Knuth TAOCP 7.1.3), so a step costs a few dozen logic
// instructions per 32 cells; the rule is a birth and a survival mask over
// the counts 0..8. fired[s * steps + step] gets the number of cells of
// state s that changed in this step (the rules engine's firings: the
// notation's one rule fires where the next state differs).
#include "common.cuh"

#define LP_THREADS 256

#define LP_FULL 0xffffffffu

// pg_life_quad is 4 words of one row: a lane's share.
struct pg_life_quad {
	uint32_t w[4], c[4], e[4]; // west neighbours, the cells, east neighbours
};

// pg_life_raw is one row as a lane loads it: its 4 words (k..k+3, 0 past
// the row), and the words only it reads from memory: west, the word before
// its quad (lane 0; row[wpr - 1] at k == 0 on a torus), east, the word after
// it (lane 31), and row[0] for the lane holding the row's last word (the
// torus wrap).
struct pg_life_raw {
	uint4 v;
	uint32_t w, e, z;
};

// pg_life_load reads a row's words for this lane, all before any shuffle
// needs them: loaded after the shuffles, the edge words' latency came on top
// of the quad's, and the any-rule kernel took 0.0487 ms a step against
// 0.0449 (HighLife, H200; Life's kernel is the same either way).
//
// Measured slower than this kernel on the H200 (Life, 16384^2 torus, 0.0328
// ms a step here; all at 64 registers or fewer unless said, none spilling):
// a row fetched a turn ahead, its edge words included (0.0354; 0.0424 at 84
// registers); each row's west+centre+east sum made once and three rows'
// sums added (the 3 x 3 total, 54 registers: 0.0341, HighLife 3 % faster);
// 2 words a lane, 46-58 registers, 5 blocks an SM (0.040-0.042); strips of
// 8, 12, 24 or 32 rows (0.037-0.051: fewer warps in flight, or more halo);
// rows staged in shared memory by cp.async, 2 to 8 rows ahead, strips of 8
// to 32 (0.036-0.045; 73-100 registers, or spills at 64); L2 eviction hints
// (loads evict-first, stores evict-last, or either: 0.036-0.038); the
// topology a template parameter with the row loop unrolled by three (no
// register moves between rows: 0.0329 at 64 registers with spills, 0.038
// at 90); two steps a pass (temporal blocking: the board read and written
// once for two steps, the edge lanes computing the extra words step 2
// needs; 80-104 registers: 0.0318-0.0321 ms a step, the same as one step a
// pass with half the memory traffic). A plain copy of the board takes
// 0.0182 ms (3.7 TB/s), so the step is bound by its instructions and
// registers rather than by memory.
__device__ __forceinline__ pg_life_raw pg_life_load(const uint32_t *__restrict__ row, int k, int wpr, int ws, bool torus) {
	pg_life_raw x;
	x.v = k < ws ? *reinterpret_cast<const uint4 *>(row + k) : make_uint4(0, 0, 0, 0);
	x.w = 0, x.e = 0, x.z = 0;
	if (k == 0) {
		if (torus)
			x.w = row[wpr - 1];
	} else if (threadIdx.x == 0 && k < ws)
		x.w = row[k - 1];
	if (threadIdx.x == 31 && k + 4 < ws)
		x.e = row[k + 4];
	const int last = wpr - 1 - k;
	if (torus && last >= 0 && last < 4)
		x.z = row[0];
	return x;
}

// pg_life_row aligns the neighbours of a row's words k..k+3 (x, as
// pg_life_load read them) to their bits: w holds cell x - 1 at bit x % 32,
// e cell x + 1. A warp's 32 lanes hold 128 consecutive words of the row
// (lanes past the row hold 0 and store nothing), so the words beside a
// lane's come from the lanes beside it; only the warp's edge lanes and the
// row's ends take the words pg_life_load read for them.
__device__ __forceinline__ pg_life_quad pg_life_row(pg_life_raw x, int k, int wpr, int ws, int tail, bool torus) {
	const int lane = threadIdx.x;
	const uint4 v = x.v;
	pg_life_quad q;
	q.c[0] = v.x, q.c[1] = v.y, q.c[2] = v.z, q.c[3] = v.w;
	uint32_t l = __shfl_up_sync(LP_FULL, v.w, 1), r = __shfl_down_sync(LP_FULL, v.x, 1);
	if (k == 0) // cell W - 1's bit at bit 31 (torus), else dead
		l = torus ? x.w << (32 - tail) : 0u;
	else if (lane == 0 && k < ws)
		l = x.w;
	if (lane == 31) // the shuffle gave lane 31 its own word
		r = x.e;
	const uint32_t prev[4] = {l, q.c[0], q.c[1], q.c[2]}, after[4] = {q.c[1], q.c[2], q.c[3], r};
#pragma unroll
	for (int i = 0; i < 4; i++) {
		q.w[i] = __funnelshift_l(prev[i], q.c[i], 1); // (c << 1) | (prev >> 31)
		q.e[i] = __funnelshift_r(q.c[i], after[i], 1); // (c >> 1) | (after << 31): 0 past the row
	}
	const int last = wpr - 1 - k; // the row's last word, if it is this lane's
	if (torus && last >= 0 && last < 4) {
		const uint32_t wrap = (x.z & 1u) << (tail - 1); // cell 0 after cell W - 1
#pragma unroll
		for (int i = 0; i < 4; i++)
			if (i == last)
				q.e[i] |= wrap;
	}
	return q;
}

// pg_life_count sums the eight neighbour words bit-sliced (full and half
// adders over whole words): count = o + 2 b1 + 4 b2 + 8 b3.
__device__ __forceinline__ void pg_life_count(uint32_t aw, uint32_t ac, uint32_t ae, uint32_t mw, uint32_t me,
	uint32_t bw, uint32_t bc, uint32_t be, uint32_t &o, uint32_t &b1, uint32_t &b2, uint32_t &b3) {
	const uint32_t s0 = aw ^ ac ^ ae, c0 = (aw & ac) | (ae & (aw ^ ac));
	const uint32_t s1 = bw ^ bc ^ be, c1 = (bw & bc) | (be & (bw ^ bc));
	const uint32_t s2 = mw ^ me, c2 = mw & me;
	o = s0 ^ s1 ^ s2;
	const uint32_t oc = (s0 & s1) | (s2 & (s0 ^ s1));
	const uint32_t t = c0 ^ c1 ^ c2, tc = (c0 & c1) | (c2 & (c0 ^ c1));
	b1 = t ^ oc;
	const uint32_t tc2 = t & oc;
	b2 = tc ^ tc2;
	b3 = tc & tc2;
}

// pg_life_masks are a rule's 18 masks, all ones or all zeros, made once a
// thread: m[n] for a birth at n neighbours, m[9 + n] for survival.
struct pg_life_masks {
	uint32_t m[18];
};

__device__ __forceinline__ pg_life_masks pg_life_masks_of(uint32_t birth, uint32_t survive) {
	pg_life_masks r;
#pragma unroll
	for (int n = 0; n < 9; n++) {
		r.m[n] = 0u - ((birth >> n) & 1u);
		r.m[9 + n] = 0u - ((survive >> n) & 1u);
	}
	return r;
}

// pg_life_next applies a rule to the 32 cells c: LIFE is B3/S23, folded at
// compile time to a few instructions; otherwise the rule's masks select
// the counts (minterm 0 excludes count 8, the only count with b3 set).
template <bool LIFE>
__device__ __forceinline__ uint32_t pg_life_next(uint32_t c, uint32_t o, uint32_t b1, uint32_t b2, uint32_t b3,
	const pg_life_masks &k) {
	if (LIFE) // 3 neighbours, or 2 and alive
		return b1 & ~b2 & ~b3 & (o | c);
	const uint32_t l0 = ~b2 & ~b1, l1 = ~b2 & b1, l2 = b2 & ~b1, l3 = b2 & b1;
	const uint32_t m[8] = {l0 & ~o & ~b3, l0 & o, l1 & ~o, l1 & o, l2 & ~o, l2 & o, l3 & ~o, l3 & o};
	uint32_t born = k.m[8] & b3, stays = k.m[17] & b3;
#pragma unroll
	for (int n = 0; n < 8; n++) {
		born |= k.m[n] & m[n];
		stays |= k.m[9 + n] & m[n];
	}
	return (c & stays) | (~c & born);
}

// pg_life_step: a block is 32 x 8 threads. threadIdx.x is 4 words of a
// 128-word segment of a row (blockIdx.x the segment), threadIdx.y one of 8
// strips of LP_STRIP rows (blockIdx.y the group of strips, looping over
// them past gridDim.y): a warp walks its strip down 128 word columns,
// keeping the rows above and beside in registers, so each row is read
// about once, 512 bytes a warp at a time; pg_life_strips hands out the
// strips and sums the changes.
#define LP_STRIP 16

// pg_life_strips runs strip(s, y0, y1), which steps rows y0..y1-1 of state
// s and returns the cells that changed, for the strip of each of the
// block's 8 warps (threadIdx.y; blockIdx.y the group of 8, looping past
// gridDim.y), and adds the changes to fired: a warp's lanes share a strip,
// and so a state, so their changes are summed in registers, a block's
// warps in shared memory, and one atomic per state a block adds them.
template <typename F>
__device__ __forceinline__ void pg_life_strips(unsigned long long *__restrict__ fired, int32_t nstates, int32_t h,
	int32_t step, int32_t steps, F strip) {
	__shared__ unsigned int wsum[8];
	__shared__ int wstate[8];
	const int sps = (h + LP_STRIP - 1) / LP_STRIP; // strips a state
	const int strips = sps * nstates;              // the host keeps states x rows under 2^31
	for (int base = blockIdx.y * 8; base < strips; base += gridDim.y * 8) {
		const int st = base + threadIdx.y; // the same for the warp's lanes
		int s = -1;
		unsigned int changed = 0;
		if (st < strips) {
			s = st / sps;
			const int y0 = (st - s * sps) * LP_STRIP;
			changed = strip(s, y0, min(y0 + LP_STRIP, h));
		}
		const unsigned int c = __reduce_add_sync(LP_FULL, changed);
		if (threadIdx.x == 0) {
			wsum[threadIdx.y] = c;
			wstate[threadIdx.y] = s;
		}
		__syncthreads();
		if (threadIdx.x == 0 && threadIdx.y == 0) {
			// The 8 strips' states rise: add each run of one state once.
			for (int j = 0; j < 8;) {
				const int sj = wstate[j];
				unsigned long long sum = 0;
				for (; j < 8 && wstate[j] == sj; j++)
					sum += wsum[j];
				if (sj >= 0 && sum != 0)
					atomicAdd(&fired[(long long)sj * steps + step], sum);
			}
		}
		__syncthreads();
	}
}

template <bool LIFE>
__device__ __forceinline__ void pg_life_step_body(const uint32_t *__restrict__ cur, uint32_t *__restrict__ next,
	unsigned long long *__restrict__ fired, int32_t nstates, int32_t h, int32_t wpr, int32_t ws, int32_t tail,
	int32_t torus, uint32_t birth, uint32_t survive, int32_t step, int32_t steps) {
	const int k = (blockIdx.x * 32 + threadIdx.x) * 4;
	const bool tor = torus != 0;
	const pg_life_masks masks = pg_life_masks_of(birth, survive);
	uint32_t keep[4]; // the cells of each word: none past the row, tail bits in its last word
#pragma unroll
	for (int i = 0; i < 4; i++)
		keep[i] = k + i < wpr - 1 ? ~0u : (k + i == wpr - 1 ? (tail < 32 ? (1u << tail) - 1u : ~0u) : 0u);
	pg_life_strips(fired, nstates, h, step, steps, [&](int s, int y0, int y1) {
		const uint32_t *board = cur + (long long)s * h * ws;
		uint32_t *out = next + (long long)s * h * ws;
		unsigned int changed = 0;
		pg_life_quad a = {}, m;
		const int yu = y0 > 0 ? y0 - 1 : (tor ? h - 1 : -1);
		if (yu >= 0)
			a = pg_life_row(pg_life_load(board + yu * ws, k, wpr, ws, tor), k, wpr, ws, tail, tor);
		m = pg_life_row(pg_life_load(board + y0 * ws, k, wpr, ws, tor), k, wpr, ws, tail, tor);
		for (int y = y0; y < y1; y++) {
			const int yd = y + 1 < h ? y + 1 : (tor ? 0 : -1);
			pg_life_quad b = {};
			if (yd >= 0)
				b = pg_life_row(pg_life_load(board + yd * ws, k, wpr, ws, tor), k, wpr, ws, tail, tor);
			uint32_t nx[4];
#pragma unroll
			for (int i = 0; i < 4; i++) {
				uint32_t o, b1, b2, b3;
				pg_life_count(a.w[i], a.c[i], a.e[i], m.w[i], m.e[i], b.w[i], b.c[i], b.e[i], o, b1, b2, b3);
				nx[i] = pg_life_next<LIFE>(m.c[i], o, b1, b2, b3, masks) & keep[i];
				changed += __popc(nx[i] ^ m.c[i]);
			}
			if (k < ws)
				*reinterpret_cast<uint4 *>(out + y * ws + k) = make_uint4(nx[0], nx[1], nx[2], nx[3]);
			a = m;
			m = b;
		}
		return changed;
	});
}

#define PG_LIFE_STEP_PARAMS                                                                                        \
	const uint32_t *__restrict__ cur, uint32_t *__restrict__ next, unsigned long long *__restrict__ fired,         \
		int32_t nstates, int32_t h, int32_t wpr, int32_t ws, int32_t tail, int32_t torus, uint32_t birth,       \
		uint32_t survive, int32_t step, int32_t steps

// pg_life_step runs any B/S rule; pg_life_step_b3s23 is Conway's Life.
extern "C" __global__ void __launch_bounds__(LP_THREADS) pg_life_step(PG_LIFE_STEP_PARAMS) {
	pg_life_step_body<false>(cur, next, fired, nstates, h, wpr, ws, tail, torus, birth, survive, step, steps);
}

extern "C" __global__ void __launch_bounds__(LP_THREADS) pg_life_step_b3s23(PG_LIFE_STEP_PARAMS) {
	pg_life_step_body<true>(cur, next, fired, nstates, h, wpr, ws, tail, torus, birth, survive, step, steps);
}

#include "rules_packed_life9.cuh"

// pg_life_b3s23_w128_torus and _plane run Life on boards whose width is a
// multiple of 128 cells (rules_packed_life9.cuh): tail, birth and survive
// are unused. 4 blocks an SM (64 registers, no spills) fill the H200 with
// one wave of a 16384-row board's 512 blocks.
extern "C" __global__ void __launch_bounds__(LP_THREADS, 4) pg_life_b3s23_w128_torus(PG_LIFE_STEP_PARAMS) {
	pg_life9_step<true, true>(cur, next, fired, nstates, h, wpr, ws, step, steps, birth, survive);
}

extern "C" __global__ void __launch_bounds__(LP_THREADS, 4) pg_life_b3s23_w128_plane(PG_LIFE_STEP_PARAMS) {
	pg_life9_step<false, true>(cur, next, fired, nstates, h, wpr, ws, step, steps, birth, survive);
}

// pg_life_w128_torus and _plane run any other B/S rule on such boards (tail
// is unused): 3 blocks an SM, whose 80 registers hold the rule's masks,
// against 4 for Life.
extern "C" __global__ void __launch_bounds__(LP_THREADS, 3) pg_life_w128_torus(PG_LIFE_STEP_PARAMS) {
	pg_life9_step<true, false>(cur, next, fired, nstates, h, wpr, ws, step, steps, birth, survive);
}

extern "C" __global__ void __launch_bounds__(LP_THREADS, 3) pg_life_w128_plane(PG_LIFE_STEP_PARAMS) {
	pg_life9_step<false, false>(cur, next, fired, nstates, h, wpr, ws, step, steps, birth, survive);
}

// pg_life_population adds the live cells of nquads x 4 packed words (the
// states' every word: the padding and the bits past a row's cells are 0)
// to *out: --record's reductions of a two-state board are functions of it.
// A grid-stride loop, a warp's sum by shuffles, a block's in shared memory,
// one atomic a block.
extern "C" __global__ void __launch_bounds__(LP_THREADS)
	pg_life_population(const uint32_t *__restrict__ board, int64_t nquads, unsigned long long *__restrict__ out) {
	__shared__ unsigned long long wsum[LP_THREADS / 32];
	unsigned long long n = 0;
	const int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nquads; i += stride) {
		const uint4 v = reinterpret_cast<const uint4 *>(board)[i];
		n += __popc(v.x) + __popc(v.y) + __popc(v.z) + __popc(v.w);
	}
	for (int o = 16; o > 0; o >>= 1)
		n += __shfl_down_sync(LP_FULL, n, o);
	if ((threadIdx.x & 31) == 0)
		wsum[threadIdx.x / 32] = n;
	__syncthreads();
	if (threadIdx.x == 0) {
		unsigned long long s = 0;
		for (int w = 0; w < LP_THREADS / 32; w++)
			s += wsum[w];
		if (s != 0)
			atomicAdd(out, s);
	}
}
