// Package rng holds the counter-based random numbers every backend shares:
// the n-th number of a stream is a pure function of (seed, n), so threads need
// no shared state and the CPU and GPU backends draw identical values. The CUDA
// twin is pg_hash64 in cuda/common.cuh; internal/gpu's tests check they agree.
package rng

// Hash64 mixes seed and counter with splitmix64's finaliser over
// seed + (counter+1)·φ·2^64.
func Hash64(seed, counter uint64) uint64 {
	z := seed + (counter+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Key derives a sub-stream seed from a parent seed and a list of
// coordinates (step, position, ...), so a value can be keyed by where it is
// used rather than by the order in which values are drawn.
func Key(seed uint64, coords ...uint64) uint64 {
	k := seed
	for _, c := range coords {
		k = Hash64(k, c)
	}
	return k
}

// Float64 maps a 64-bit draw to [0, 1) using its top 53 bits.
func Float64(bits uint64) float64 { return float64(bits>>11) * (1.0 / (1 << 53)) }

// Float32 maps a 64-bit draw to [0, 1) using its top 24 bits.
func Float32(bits uint64) float32 { return float32(bits>>40) * (1.0 / (1 << 24)) }

// Stream is a fast sequential generator for hot loops (splitmix64: one add
// and one Hash64-style mix per draw). Seed each worker's stream with Key so
// results do not depend on scheduling. The CUDA twin is PgRng in
// cuda/common.cuh.
type Stream struct{ state uint64 }

// NewStream starts a stream at seed.
func NewStream(seed uint64) Stream { return Stream{state: seed} }

// Uint64 returns the next draw.
func (s *Stream) Uint64() uint64 {
	s.state += 0x9E3779B97F4A7C15
	z := s.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Float64 returns the next draw in [0, 1).
func (s *Stream) Float64() float64 { return Float64(s.Uint64()) }

// Uint32 returns the next draw's top 32 bits.
func (s *Stream) Uint32() uint32 { return uint32(s.Uint64() >> 32) }
