// Section 4 of turtle.cu (included there, at its end): polygons assembled
// from the emitted events, and the bounds of everything.
#pragma once

// ---- 4. Polygons and bounds ---------------------------------------------------

__device__ __forceinline__ uint32_t ev_kind(const TurtleEvent *ev, uint32_t i) { return __ldg(&ev[i].color_kind) >> 16; }

// same_point: events a and b are at one position, within 1e-5 of the
// coordinates (at least 1): a '.' after a move and the move's own vertex come
// from different scans here and may round apart. The CPU's samePoint in
// polygons.go is the twin; a NaN is never the same.
__device__ __forceinline__ bool same_point(const TurtleEvent *ev, int a, int b) {
#pragma unroll
	for (int k = 0; k < 3; k++) {
		const float x = ev[a].p[k], y = ev[b].p[k];
		const float m = fmaxf(1.0f, fmaxf(fabsf(x), fabsf(y)));
		if (!(fabsf(x - y) <= 1e-5f * m)) return false;
	}
	return true;
}

// delta[i]: +1 for '{', -1 for '}', 0 for '.'; scanned, the brace depth before each event.
extern "C" __global__ void __launch_bounds__(256)
turtle_ev_delta(const TurtleEvent *__restrict__ ev, uint32_t n, uint32_t *delta) {
	const uint32_t i = blockIdx.x * 256 + threadIdx.x;
	if (i >= n) return;
	const uint32_t k = ev_kind(ev, i);
	delta[i] = k == 0 ? 1u : k == 2 ? 0xffffffffu : 0u;
}

// For each '}': the '{' it closes (walking back over nested polygons) and its
// vertices. vcount[j] is the vertex count where event j closes a polygon of
// at least three vertices, else 0; pflag[j] is 1 there. bad: the first '}'
// that closes nothing (starts at UINT32_MAX).
extern "C" __global__ void __launch_bounds__(256)
turtle_poly_count(const TurtleEvent *__restrict__ ev, uint32_t n, const uint32_t *__restrict__ depth,
		  uint32_t *vcount, uint32_t *pflag, int32_t *open, uint32_t *bad) {
	const uint32_t j = blockIdx.x * 256 + threadIdx.x;
	if (j >= n) return;
	uint32_t cnt = 0;
	int o = -1;
	if (ev_kind(ev, j) == 2) {
		if ((int32_t)depth[j] <= 0) {
			atomicMin(bad, j);
		} else {
			// A vertex where the previous one is adds nothing: count them
			// all, less each one equal to its predecessor.
			int next = -1;
			for (int i = (int)j - 1, rel = 0; i >= 0; i--) {
				const uint32_t k = ev_kind(ev, i);
				if (k == 2) rel++;
				else if (k == 0) {
					if (rel == 0) {
						o = i;
						break;
					}
					rel--;
				} else if (rel == 0) {
					cnt++;
					if (next >= 0 && same_point(ev, i, next)) cnt--;
					next = i;
				}
			}
		}
	}
	const bool ok = o >= 0 && cnt >= 3;
	vcount[j] = ok ? cnt : 0;
	pflag[j] = ok;
	open[j] = o;
}

// Writes each polygon at its index (pidx: the scanned pflag) with its
// vertices from vert_off (the scanned vcount); boxes[block] bounds them.
extern "C" __global__ void __launch_bounds__(TT_WALK_THREADS)
turtle_poly_write(const TurtleEvent *__restrict__ ev, uint32_t n, const uint32_t *__restrict__ vcount,
		  const uint32_t *__restrict__ vert_off, const uint32_t *__restrict__ pidx,
		  const int32_t *__restrict__ open, TurtlePolygon *polys, float *verts, TurtleBox *boxes) {
	const uint32_t j = blockIdx.x * TT_WALK_THREADS + threadIdx.x;
	Box box = box_empty();
	if (j < n && vcount[j] > 0) {
		const uint32_t first = vert_off[j];
		TurtlePolygon *pg = polys + pidx[j];
		pg->first = (int32_t)first, pg->count = (int32_t)vcount[j];
		pg->color = (uint16_t)(ev[j].color_kind & 0xffff), pg->pad = 0;
		float *w = verts + 3 * (size_t)first;
		int prev = -1;
		for (uint32_t i = open[j] + 1, rel = 0; i < j; i++) {
			const uint32_t k = ev_kind(ev, i);
			if (k == 0) rel++;
			else if (k == 2) rel--;
			else if (rel == 0) {
				const bool dup = prev >= 0 && same_point(ev, i, prev);
				prev = (int)i;
				if (dup) continue;
				const float x = ev[i].p[0], y = ev[i].p[1], z = ev[i].p[2];
				w[0] = x, w[1] = y, w[2] = z;
				w += 3;
				box.add(x, y, z);
			}
		}
	}
	box_store(box, boxes + blockIdx.x);
}

// One block: merges n boxes into out.
extern "C" __global__ void __launch_bounds__(256)
turtle_bounds(const TurtleBox *__restrict__ boxes, uint32_t n, TurtleBox *out) {
	Box b = box_empty();
	for (uint32_t i = threadIdx.x; i < n; i += 256) {
		Box y = box_empty();
#pragma unroll
		for (int k = 0; k < 3; k++) y.lo[k] = boxes[i].lo[k], y.hi[k] = boxes[i].hi[k];
		y.w = boxes[i].wmax;
		y.nan = boxes[i].nonfinite ? __int_as_float(0x7fc00000) : 0.0f;
		b.merge(y);
	}
	box_store(b, out);
}
