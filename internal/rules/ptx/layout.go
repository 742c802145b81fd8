package ptx

// Schedule is how the GPU maps (state, index) pairs to threads.
type Schedule string

const (
	// Simple is the paper's Algorithms 1 and 2: a thread block per state,
	// looping over the value range.
	Simple Schedule = "simple"
	// Compact is Algorithms 3 and 4: a warp per state, 32 states per block,
	// the enabled (index, state) pairs compacted in shared memory.
	Compact Schedule = "compact"
)

// Layout is how the GPU lays states out in memory (the paper's Figure 6).
type Layout string

const (
	LayoutA Layout = "A" // each state contiguous
	LayoutB Layout = "B" // transposed: word w of every state together
	LayoutC Layout = "C" // interleaved: 32-word blocks of every state together
)

// Launch shapes, shared by the generated kernels and the interpreter
// kernels of cuda/rules.cu: they match cuda/rules_types.cuh, which
// rules' TestRulesGPUTypesMatchHeader checks.
const (
	CompactBlock = 1024 // threads a block of compact (32 states)
	CompactSmall = 8    // states (warps) a block of compact with few states
	SimpleBlock  = 256  // threads a block of simple (one state)
)

// PadWords is a state's size on the GPU: a whole number of 32-word blocks,
// which layout C interleaves.
func PadWords(w int) int { return (w + 31) &^ 31 }
