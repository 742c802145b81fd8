package turtle

import (
	"strings"
	"testing"
)

func TestParseColorMap(t *testing.T) {
	pal, err := ParseColorMap("c.txt", []byte("// bark\n255 0 0\n\n  #00ff00 // green\n0\t0 255\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	if len(pal) != len(want) {
		t.Fatalf("%v, want %v", pal, want)
	}
	for i := range want {
		if pal[i] != want[i] {
			t.Errorf("colour %d: %v, want %v", i, pal[i], want[i])
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"255 0 0\n1 2\n", "c.txt:2:4: want three values"},
		{"255 0 0\n  1 2 256\n", "c.txt:2:7: \"256\": want an integer 0..255"},
		{"1 2 3 4\n", "c.txt:1:7: unexpected \"4\""},
		{"#12345\n", "c.txt:1:1: colour \"#12345\": want #rrggbb"},
		{"#12zz45\n", "c.txt:1:4: colour"},
		{"// nothing\n\n", "c.txt: no colours"},
		{"-1 0 0\n", "c.txt:1:1: \"-1\""},
	} {
		_, err := ParseColorMap("c.txt", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
	if _, err := ParseColorMap("c.txt", []byte(strings.Repeat("1 2 3\n", maxColor+2))); err == nil ||
		!strings.Contains(err.Error(), "more than 65536 colours") {
		t.Errorf("65537 colours: %v", err)
	}
}

// FuzzParseColorMap: no input crashes the parser; what it accepts is a
// non-empty list of colours in 0..1.
func FuzzParseColorMap(f *testing.F) {
	for _, s := range []string{"255 0 0\n", "#a0b0c0\n// x\n", "1 2\n", "\n\n", "1\t2\t3 // c\r\n#ffffff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pal, err := ParseColorMap("f", data)
		if err != nil {
			return
		}
		if len(pal) == 0 || len(pal) > maxColor+1 {
			t.Fatalf("%d colours accepted", len(pal))
		}
		for _, c := range pal {
			for _, x := range c {
				if !(x >= 0 && x <= 1) {
					t.Fatalf("colour %v out of 0..1", c)
				}
			}
		}
	})
}
