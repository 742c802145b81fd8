package golly

// Isotropic non-totalistic (Hensel) notation: a digit (the number of live
// neighbours in the Moore neighbourhood) followed by letters, each letter
// one arrangement of those neighbours up to rotation and reflection.
//
// A neighbourhood configuration is a byte, one bit per neighbour, in the
// order of neighbourOffsets: NW N NE W E SW S SE.

// neighbourOffsets are the Moore neighbours (dx, dy), y down, in bit order.
var neighbourOffsets = [8][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// henselLetters are the letters allowed after each neighbour count, in
// the order of Golly's table (its Help, "Non-totalistic rules"); a rule's
// letters for count n are a bit set over this order.
var henselLetters = [9]string{"", "ce", "ceaikn", "ceaiknjqry", "ceaiknjqrytwz", "ceaiknjqry", "ceaikn", "ce", ""}

// henselShape is one representative of each letter: three rows of the
// 3x3 neighbourhood, '1' a live neighbour, the centre '.'. Read off the
// pictures of Golly's table; the other members of a letter's class are
// its rotations and reflections.
func henselShape(n int, letter byte) string {
	return henselShapes[n][letter]
}

var henselShapes = [9]map[byte]string{
	1: {'c': "1..|...|...", 'e': ".1.|...|..."},
	2: {'c': "1.1|...|...", 'e': ".1.|1..|...", 'k': "1..|..1|...", 'a': "11.|...|...",
		'i': ".1.|...|.1.", 'n': "1..|...|..1"},
	3: {'c': "1.1|...|1..", 'e': ".1.|1.1|...", 'k': "1..|..1|.1.", 'a': "11.|1..|...",
		'i': "111|...|...", 'n': "1.1|..1|...", 'y': "1.1|...|.1.", 'q': "11.|...|..1",
		'j': "11.|..1|...", 'r': "11.|...|.1."},
	4: {'c': "1.1|...|1.1", 'e': ".1.|1.1|.1.", 'k': "1.1|1..|.1.", 'a': "111|..1|...",
		'i': "1.1|1.1|...", 'n': "111|...|1..", 'y': "1.1|..1|1..", 'q': "11.|1..|..1",
		'j': "11.|..1|.1.", 'r': "11.|1.1|...", 't': "111|...|.1.", 'w': "11.|..1|..1",
		'z': "11.|...|.11"},
	// 5..7 are the complements (in the neighbourhood) of 3..1: Golly's
	// table shows them so; henselClasses builds them that way.
}

// configOf turns a shape string into a configuration byte.
func configOf(shape string) uint8 {
	var cfg uint8
	k, bit := 0, 0
	for i := 0; i < len(shape); i++ {
		c := shape[i]
		if c == '|' {
			continue
		}
		if k != 4 { // the centre is no neighbour
			if c == '1' {
				cfg |= 1 << bit
			}
			bit++
		}
		k++
	}
	return cfg
}

// symmetries maps a configuration through the 8 symmetries of the square.
func symmetries(cfg uint8) [8]uint8 {
	var out [8]uint8
	for s := range 8 {
		var r uint8
		for b, o := range neighbourOffsets {
			if cfg&(1<<b) == 0 {
				continue
			}
			x, y := o[0], o[1]
			if s&4 != 0 {
				x = -x
			}
			for range s & 3 {
				x, y = -y, x
			}
			for nb, no := range neighbourOffsets {
				if no[0] == x && no[1] == y {
					r |= 1 << nb
				}
			}
		}
		out[s] = r
	}
	return out
}

// henselClasses returns, for count n, the set of configurations of each
// letter (in henselLetters order) as 256-bit sets.
func henselClasses(n int) [][4]uint64 {
	letters := henselLetters[n]
	classes := make([][4]uint64, len(letters))
	for i := range len(letters) {
		var rep uint8
		if n <= 4 {
			rep = configOf(henselShape(n, letters[i]))
		} else {
			rep = ^configOf(henselShape(8-n, letters[i]))
		}
		for _, c := range symmetries(rep) {
			classes[i][c>>6] |= 1 << (c & 63)
		}
	}
	return classes
}
