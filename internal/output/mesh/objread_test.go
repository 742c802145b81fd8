package mesh

import (
	"strings"
	"testing"
)

func TestReadOBJ(t *testing.T) {
	s, err := ReadOBJ("q.obj", strings.NewReader("# a quad\nv 0 0 0\nv 1 0 0\nvn 0 0 1\nv 1 1 0\nv 0 1 0\ng leaf\nf 1//1 2//1 3//1 4//1\nf -4 -3/1 -2/1/1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Positions) != 4 || len(s.FaceSizes) != 2 || s.FaceSizes[0] != 4 || s.FaceSizes[1] != 3 ||
		s.Faces[4] != 0 || s.Faces[6] != 2 {
		t.Fatalf("%+v", s)
	}
	for _, tc := range []struct{ src, want string }{
		{"v 0 0\n", "q.obj:1:1: v needs x y z"},
		{"v 0 0 x\n", "q.obj:1:7: expected a finite number"},
		{"v 0 0 0\nv 1 0 0\nf 1 2 3\n", "q.obj:3:7: vertex 3 out of range"},
		{"v 0 0 0\n  f 1 1\n", "q.obj:2:3: f needs three or more corners"},
		{"v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 0\n", "q.obj:4:7: expected a vertex number"},
		{"v 0 0 0\n", "q.obj: no faces"},
	} {
		_, err := ReadOBJ("q.obj", strings.NewReader(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %s", tc.src, err, tc.want)
		}
	}
}

// FuzzReadOBJ: no input crashes the reader, and what it accepts is a
// shape whose faces index its positions.
func FuzzReadOBJ(f *testing.F) {
	for _, s := range []string{"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "v 1e39 0 0\n", "f -1 -2 -3\n", "v 0 0 0\nf 1/2/3 1 1 1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := ReadOBJ("f.obj", strings.NewReader(src))
		if err != nil {
			return
		}
		at := 0
		for _, n := range s.FaceSizes {
			if n < 3 {
				t.Fatalf("face of %d corners", n)
			}
			for _, v := range s.Faces[at : at+int(n)] {
				if v < 0 || int(v) >= len(s.Positions) {
					t.Fatalf("index %d of %d positions", v, len(s.Positions))
				}
			}
			at += int(n)
		}
		if at != len(s.Faces) {
			t.Fatalf("%d indices for sizes summing to %d", len(s.Faces), at)
		}
	})
}
