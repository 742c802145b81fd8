package gpu

import (
	"math/rand"
	"slices"
	"testing"
)

// A layout like a header-mirrored struct with bytes inside: no padding.
type wordsPacked struct {
	A   int32
	F   [3]float32
	IDs [8]uint8
	U   uint32
}

// One Go pads (a uint32 after a lone byte): WordsOf must fall back.
type wordsPadded struct {
	B byte
	U uint32
}

// TestWordsOfIsWords: WordsOf encodes exactly as Words, on a packed type
// (copied as memory), a padded one, a type of an odd number of bytes (both
// fall back to encoding/binary) and an empty slice.
func TestWordsOfIsWords(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	packed := make([]wordsPacked, 37)
	for i := range packed {
		p := &packed[i]
		p.A, p.U = rng.Int31()-1<<30, rng.Uint32()
		for k := range p.F {
			p.F[k] = rng.Float32()*2 - 1
		}
		for k := range p.IDs {
			p.IDs[k] = uint8(rng.Intn(256))
		}
	}
	if got, want := WordsOf(packed), Words(packed); !slices.Equal(got, want) {
		t.Fatalf("packed: WordsOf differs from Words (%d against %d words)", len(got), len(want))
	}
	padded := []wordsPadded{{1, 0xdeadbeef}, {255, 7}}
	if got, want := WordsOf(padded), Words(padded); !slices.Equal(got, want) || len(want) != 3 {
		t.Fatalf("padded: WordsOf %x, Words %x (want 3 words: 5 bytes each, packed)", got, want)
	}
	odd := [][3]uint8{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	if got, want := WordsOf(odd), Words(odd); !slices.Equal(got, want) {
		t.Fatalf("odd sizes: WordsOf %x, Words %x", got, want)
	}
	if got := WordsOf([]wordsPacked{}); len(got) != 0 {
		t.Fatalf("empty: %d words", len(got))
	}
}

// wordsGenome is shaped like flame's gpuGenome: mostly a palette.
type wordsGenome struct {
	N       [18]int32
	Palette [256][4]float32
}

// BenchmarkWordsOf: 512 genome-shaped values (2 MB), a batched launch's upload.
func BenchmarkWordsOf(b *testing.B) {
	vs := make([]wordsGenome, 512)
	b.Run("WordsOf", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			WordsOf(vs)
		}
	})
	b.Run("Words", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			Words(vs)
		}
	})
}
