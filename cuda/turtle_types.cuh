// Structures the turtle interpreter shares between Go
// (internal/lsys/turtle/gpu_types.go, whose test checks every size, offset and
// command number against this header) and the kernels in turtle.cu.
// Fixed-size fields only.
#pragma once
#include <stdint.h>

// Turtle commands: the values of cmd in internal/lsys/turtle/program.go. The
// rotations follow the draw command in pairs, as there.
#define TC_NONE 0
#define TC_DRAW 1
#define TC_LEFT 2
#define TC_RIGHT 3
#define TC_PITCH_UP 4
#define TC_PITCH_DOWN 5
#define TC_ROLL_RIGHT 6
#define TC_ROLL_LEFT 7
#define TC_MOVE 8
#define TC_AROUND 9
#define TC_LEVEL 10
#define TC_PUSH 11
#define TC_POP 12
#define TC_THINNER 13
#define TC_THICKER 14
#define TC_COLOR 15
#define TC_POLY_START 16
#define TC_POLY_VERTEX 17
#define TC_POLY_END 18

#define TURTLE_MAX_LEVELS 32

// The run's constants: the system's defaults, the chunking and the shape of
// the min tree over chunk depths (level k has tree_len[k] entries from
// tree_off[k]; level 0 is the chunks' minimum depths).
struct TurtleProgram {
	double step, cos, sin, winc;
	double tropism[3];
	double elasticity;
	double width0;
	uint64_t n;      // modules
	int32_t chunk;   // modules per chunk: a power of two, at least 16
	int32_t nchunks;
	int32_t tropic;  // tropism bends the heading after each F and G
	int32_t levels;  // levels of the min tree
	int32_t move_vertices; // F and f add vertices to open polygons (the string holds a '{')
	int32_t pad;
	int32_t tree_off[TURTLE_MAX_LEVELS];
	int32_t tree_len[TURTLE_MAX_LEVELS];
	uint16_t table[256]; // per symbol: command | arity << 8
};

// What the survey learns about a chunk, and the offsets the scan gives it.
struct TurtleChunk {
	uint32_t segs, events, params, pushes; // pushes: '[' the chunk leaves open
	int32_t pops;      // ']' that close a '[' from before the chunk
	int32_t max_rel;   // deepest nesting relative to the chunk's start
	int32_t max_stack; // most states on the chunk's own stack at once
	int32_t last_pop;  // index in the chunk of the last ']' that closes a '[' from before it, or -1
	uint32_t seg_off, ev_off, ys_off, stack_off;
	uint64_t param_off;
	int32_t depth; // bracket depth at the chunk's start
	int32_t m;     // the least depth in the chunk: depth - pops
	int32_t level; // holds a '$'
	int32_t pad;
};

// Per-block sums of the survey's counts, scanned into block offsets.
struct TurtleSums {
	uint64_t params;
	uint32_t segs, events, ys, stack;
	int32_t delta; // pushes - pops
	int32_t level;
};

// What the host reads back after the scan, before it allocates the outputs.
struct TurtleTotals {
	uint64_t params;
	uint32_t segs, events, ys, stack;
	int32_t max_depth;
	int32_t level;     // some chunk holds a '$'
	int32_t bad_chunk; // the first chunk with a ']' that closes nothing, or INT32_MAX
	int32_t pad;
};

// A turtle transform: a frame (position and the H, L, U axes, in the frame of
// where it starts) with the width update w -> max(w + wadd, wmin) and the
// colour update (set to cv when cset, else add cv, saturating). An absolute
// turtle state is the transform from the origin frame with constant updates
// (wadd = -inf, cset = 1).
struct TurtleXform {
	double p[3], h[3], l[3], u[3];
	double wadd, wmin;
	int32_t cset, cv;
	int32_t pad[2];
};

// A turtle saved by '[' on a chunk's own stack.
struct TurtleState {
	double p[3], h[3], l[3], u[3];
	double width;
	int32_t color, pad;
};

// Geometry in the layout of the Go types Segment, Polygon and [3]float32, so
// that the host copies it straight into its slices.
struct TurtleSegment {
	float a[3], b[3];
	float width;
	uint16_t color, pad;
};

struct TurtlePolygon {
	int32_t first, count;
	uint16_t color, pad;
};

// A polygon command: the turtle's position, and color | kind << 16 with kind
// 0 for '{', 1 for '.', 2 for '}'.
struct TurtleEvent {
	float p[3];
	uint32_t color_kind;
};

// Bounds of end points and vertices, the widest width, and whether any of
// them is not finite.
struct TurtleBox {
	float lo[3], hi[3];
	float wmax;
	int32_t nonfinite;
};
