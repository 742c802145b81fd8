package golly

import (
	"testing"
)

// Facts about Life and its relatives, independent of any program: a
// glider is a period-4 spaceship moving one cell diagonally, the LWSS a
// period-4 c/2 orthogonal one, the pulsar a period-3 oscillator of 48, 56
// and 72 cells, the Gosper gun adds a 5-cell glider every 30 generations
// from its 36 cells (bgolly 3.3: 41, 46, 51, 56 at 30..120).

func TestGliderTorus(t *testing.T) {
	p, st := start(t, "B3/S23:T16,12", 0, 0, gliderRLE, 2, 3)
	b0 := boardOf(p, st)
	b := step(t, p, st, 4)
	for k, v := range b0.cells {
		x, y := (k%16+1)%16, (k/16+1)%12
		if b.cells[y*16+x] != v {
			t.Fatalf("after 4 steps the glider is not the start moved by (1, 1): cell (%d, %d)", x, y)
		}
	}
	// Around the torus: 48 steps move it by (12, 12), back to the start
	// in y and 12 columns on in x; 4*16*3 = 192 steps close both.
	b = step(t, p, st, 188)
	for k := range b.cells {
		if b.cells[k] != b0.cells[k] {
			t.Fatalf("after 192 steps on a 16x12 torus the glider is not back: cell %d", k)
		}
	}
}

func TestLWSSPlane(t *testing.T) {
	p, st := start(t, "B3/S23", 40, 20, lwssRLE, 30, 8)
	b0 := boardOf(p, st)
	b := step(t, p, st, 8)
	for k, v := range b0.cells {
		x, y := k%40-4, k/40
		if v != 0 && b.cells[y*40+x] != 1 {
			t.Fatalf("after 8 steps the LWSS is not the start moved 4 cells left: cell (%d, %d)", x, y)
		}
	}
	if b.population() != 9 {
		t.Fatalf("LWSS population %d after 8 steps, want 9", b.population())
	}
}

func TestPulsar(t *testing.T) {
	p, st := start(t, "B3/S23", 21, 21, pulsarRLE, 4, 4)
	b0 := boardOf(p, st)
	for i, want := range []int{56, 72, 48, 56, 72, 48} {
		if got := step(t, p, st, 1).population(); got != want {
			t.Fatalf("pulsar generation %d: %d cells, want %d", i+1, got, want)
		}
	}
	for k, v := range boardOf(p, st).cells {
		if v != b0.cells[k] {
			t.Fatal("the pulsar is not back after 6 generations")
		}
	}
}

func TestGosperGun(t *testing.T) {
	p, st := start(t, "B3/S23", 80, 80, gosperRLE, 1, 1)
	if got := boardOf(p, st).population(); got != 36 {
		t.Fatalf("gun generation 0: %d cells, want 36", got)
	}
	for k := 1; k <= 4; k++ {
		if got, want := step(t, p, st, 30).population(), 36+5*k; got != want {
			t.Fatalf("gun generation %d: %d cells, want %d", 30*k, got, want)
		}
	}
}

// TestLifeForms: the forms of one rule compile to programs that agree.
func TestLifeForms(t *testing.T) {
	var ref board
	for i, n := range []string{"B3/S23:T40,40", "23/3:T40,40", "R1,C0,M0,S2..3,B3..3,NM:T40,40", "1,3,3,3,4:T40,40", "B3/S2aceikn3:T40,40"} {
		p, st := start(t, n, 0, 0, gosperRLE, 0, 0)
		b := step(t, p, st, 50)
		if i == 0 {
			ref = b
			continue
		}
		for k := range b.cells {
			if b.cells[k] != ref.cells[k] {
				t.Fatalf("%s differs from B3/S23 after 50 steps at cell %d", n, k)
			}
		}
	}
}
