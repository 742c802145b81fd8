package rules

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lifeC is the plain C loop: one byte per cell, one thread, B3/S23
// on a w x h torus; it reads the board from a file and prints the CPU
// nanoseconds its generations took (process CPU clock, so other processes
// on a shared machine do not count).
const lifeC = `#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static void life(unsigned char *cells, unsigned char *next, int w, int h, int gens) {
  for (int g = 0; g < gens; g++) {
    for (int y = 0; y < h; y++) {
      int up = (y == 0 ? h - 1 : y - 1) * w, mid = y * w, down = (y == h - 1 ? 0 : y + 1) * w;
      for (int x = 0; x < w; x++) {
        int l = x == 0 ? w - 1 : x - 1, r = x == w - 1 ? 0 : x + 1;
        int n = cells[up + l] + cells[up + x] + cells[up + r] + cells[mid + l] + cells[mid + r] +
                cells[down + l] + cells[down + x] + cells[down + r];
        next[mid + x] = n == 3 || (n == 2 && cells[mid + x] == 1);
      }
    }
    unsigned char *t = cells; cells = next; next = t;
  }
  fwrite(cells, 1, (size_t)w * h, stdout);
}
int main(int argc, char **argv) {
  if (argc != 5) return 2;
  int w = atoi(argv[2]), h = atoi(argv[3]), gens = atoi(argv[4]);
  unsigned char *a = malloc((size_t)w * h), *b = malloc((size_t)w * h);
  FILE *f = fopen(argv[1], "rb");
  if (!f || fread(a, 1, (size_t)w * h, f) != (size_t)w * h) return 1;
  struct timespec t0, t1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  life(a, b, w, h, gens);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
  fprintf(stderr, "%lld\n", (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec));
  return 0;
}
`

// buildLifeC compiles lifeC with gcc -O2 into dir; "" when there is no gcc.
func buildLifeC(tb testing.TB, dir string) string {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return ""
	}
	src, bin := filepath.Join(dir, "life.c"), filepath.Join(dir, "life")
	if err := os.WriteFile(src, []byte(lifeC), 0o644); err != nil {
		tb.Fatal(err)
	}
	if out, err := exec.Command(gcc, "-O2", "-o", bin, src).CombinedOutput(); err != nil {
		tb.Fatalf("gcc: %v\n%s", err, out)
	}
	return bin
}

// runLifeC runs the C loop on cells; the board it ends with and the CPU
// nanoseconds of its generations.
func runLifeC(tb testing.TB, bin, dir string, cells []byte, w, h, gens int) ([]byte, int64) {
	in := filepath.Join(dir, "board")
	if err := os.WriteFile(in, cells, 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, in, fmt.Sprint(w), fmt.Sprint(h), fmt.Sprint(gens))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("life.c: %v\n%s", err, stderr.String())
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(stderr.String()), 10, 64)
	if err != nil {
		tb.Fatalf("life.c: %v", err)
	}
	return out, ns
}

// TestLifeCMatchesLoop: the C benchmark helper computes the boards the Go
// loop does (skipped without gcc).
func TestLifeCMatchesLoop(t *testing.T) {
	dir := t.TempDir()
	bin := buildLifeC(t, dir)
	if bin == "" {
		t.Skip("no gcc")
	}
	const w, h, gens = 37, 23, 30
	p := compileConfig(t, "life.rules", map[string]string{"W": fmt.Sprint(w), "H": fmt.Sprint(h)})
	st := Generate(p, 1, 9)
	cells := make([]byte, w*h)
	for k, v := range field(p, st, 0, "c") {
		cells[k] = byte(v)
	}
	got, _ := runLifeC(t, bin, dir, cells, w, h, gens)
	want := lifeLoop(cells, make([]byte, w*h), w, h, gens)
	if string(got) != string(want) {
		t.Fatal("the C loop and the Go loop end in different boards")
	}
}
