package rules

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestStrideRegistersMatchInterpreter: index arithmetic that the batch
// evaluator keeps as base and stride (batch_kinds.go) -- products, sums,
// truncated and Euclidean division by constants of either sign, loads
// through the results, branches on values the same in every lane -- over
// ranges that start anywhere and span many batches, agrees with the
// interpreter, whole and split.
func TestStrideRegistersMatchInterpreter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	nz := func(lo, hi int) int {
		for {
			if v := lo + r.IntN(hi-lo+1); v != 0 {
				return v
			}
		}
	}
	for k := range 60 {
		lo := r.IntN(700) - 300
		n := 1 + r.IntN(1500)
		src := fmt.Sprintf(`
state {
  int a[%[1]d] ~ uniform(-3, 5)
  int out[%[2]d]
  int acc[%[2]d]
  float g[%[2]d] ~ uniform(-2.0, 2.0)
  float h[%[2]d]
}
rule r over k in %[3]d..%[4]d
  let x = (k * %[5]d + %[6]d) / %[7]d
  let y = (k * %[5]d + %[6]d) %% %[8]d
  let z = -k / %[9]d + (k - %[3]d) / %[2]d
  when ((k / %[10]d) %% 2 == 0) || a[(k * %[5]d) %% %[1]d] > %[11]d
{
  out[k - %[3]d] = a[(x + y + z) %% %[1]d] + x * 3 - y
  h[k - %[3]d] = g[k - %[3]d] * 0.5 + g[(k + 1 - %[3]d) %% %[2]d] * -1.25
  if %[12]d > 0 {
    acc[(k - %[3]d + 1) %% %[2]d] += a[((k - %[3]d) / 7) %% %[1]d]
  }
}
`, 1+r.IntN(600), n, lo, lo+n, nz(-5, 5), r.IntN(2000)-1000, nz(-600, 600), nz(-600, 600),
			nz(-300, 300), nz(1, 400), r.IntN(6)-2, r.IntN(3)-1)
		p, err := Compile("stride.rules", []byte(src), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		for _, path := range []CPU{{Path: PathBatch}, {Path: PathBatch, parts: 3, minSplit: 1}} {
			if ok, msg := pathAgrees(path, p, 3, uint64(k), Options{Steps: 3}); !ok {
				t.Fatalf("path %+v:\n%s\n%s", path, src, msg)
			}
		}
	}
}

// TestFusedProductsPlanned: the synthetic rule's four 2x2 products fuse,
// and a product read again afterwards does not.
func TestFusedProductsPlanned(t *testing.T) {
	count := func(p *Program) int {
		n := 0
		for _, f := range planFMA(p, jumpTargets(p)) {
			if f {
				n++
			}
		}
		return n
	}
	if n := count(compileConfig(t, "synthetic.rules", nil)); n != 4 {
		t.Errorf("synthetic: %d fused products, want 4", n)
	}
	p := compileSrc(t, `state { float a[4] ~ uniform(-1.0, 1.0) float o[4] }
rule r over i in 0..4 {
  let s = a[i] * a[(i + 1) % 4]
  o[i] = s + a[(i + 2) % 4] * 2.0
  a[i] = s
}`)
	if n := count(p); n != 0 {
		t.Errorf("a product read again: %d fused products, want 0", n)
	}
	if ok, msg := pathAgrees(CPU{Path: PathBatch}, p, 5, 1, Options{Steps: 3}); !ok {
		t.Error(msg)
	}
}

// TestBoardsOfEveryWidthMatchInterpreter: Life on boards whose rows start
// anywhere in a batch (the column, the row and the wrapped neighbours are
// two pieces there) agrees with the interpreter, whole and split; a
// stencil index past the array is the interpreter's fault too.
func TestBoardsOfEveryWidthMatchInterpreter(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 25 {
		w, h := 1+r.IntN(600), 1+r.IntN(9)
		p := compileConfig(t, "life.rules", map[string]string{"W": fmt.Sprint(w), "H": fmt.Sprint(h)})
		for _, path := range []CPU{{Path: PathBatch}, {Path: PathBatch, parts: 2, minSplit: 1}} {
			if ok, msg := pathAgrees(path, p, 2, uint64(k), Options{Steps: 4}); !ok {
				t.Fatalf("%dx%d, path %+v: %s", w, h, path, msg)
			}
		}
	}
	for k := range 20 {
		n, m := 1+r.IntN(900), 1+r.IntN(300)
		src := fmt.Sprintf(`state { int a[%[1]d] ~ uniform(0, 3) int o[%[2]d] }
rule s over k in 0..%[2]d {
  o[k] = a[(k + %[3]d) %% %[1]d] + a[(k - 1) %% %[1]d] + a[(k / %[4]d) %% %[1]d] + a[k %% %[5]d]
}`, m, n, r.IntN(50), 1+r.IntN(300), 1+r.IntN(2*m))
		p := compileSrc(t, src)
		if ok, msg := pathAgrees(CPU{Path: PathBatch}, p, 2, uint64(k), Options{Steps: 2}); !ok {
			t.Fatalf("%s\n%s", src, msg)
		}
	}
}
