package batch

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/lang"
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
		p, err := lang.Compile("stride.rules", []byte(src), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		for _, parts := range []int{0, 3} {
			if ok, msg := agrees(parts, p, 3, uint64(k), 3); !ok {
				t.Fatalf("parts %d:\n%s\n%s", parts, src, msg)
			}
		}
	}
}

// TestFusedProductsPlanned: the synthetic rule's four 2x2 products fuse,
// and a product read again afterwards does not.
func TestFusedProductsPlanned(t *testing.T) {
	count := func(p *bytecode.Program) int {
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
	if ok, msg := agrees(0, p, 5, 1, 3); !ok {
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
		for _, parts := range []int{0, 2} {
			if ok, msg := agrees(parts, p, 2, uint64(k), 4); !ok {
				t.Fatalf("%dx%d, parts %d: %s", w, h, parts, msg)
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
		if ok, msg := agrees(0, p, 2, uint64(k), 2); !ok {
			t.Fatalf("%s\n%s", src, msg)
		}
	}
}

// TestIfConversion: Life's precondition loses all its jumps (two && and
// two ||); a right operand that may fault (a division, a load through
// another index) keeps its jump; random && and || chains over such
// operands agree with the interpreter.
func TestIfConversion(t *testing.T) {
	jumps := func(code []uint32) int {
		n := 0
		for pc := 0; pc < len(code); pc++ {
			if op := int(code[pc] & 255); op == bytecode.OpJZ || op == bytecode.OpJMP {
				n++
			}
			if bytecode.HasImm(int(code[pc] & 255)) {
				pc++
			}
		}
		return n
	}
	p := compileConfig(t, "life.rules", map[string]string{"W": "40", "H": "30"})
	if n := jumps(p.Code) - jumps(ifConvert(p)); n != 6 {
		t.Errorf("life: %d jumps removed, want 6 (two && and two ||)", n)
	}
	start, end := ruleCode(p, 0)
	for pc := start; pc < p.Rules[0].BodyPC && pc < end; pc++ {
		if op := int(ifConvert(p)[pc] & 255); op == bytecode.OpJZ || op == bytecode.OpJMP {
			t.Errorf("life's precondition keeps a jump at %d", pc)
		}
		if bytecode.HasImm(int(p.Code[pc] & 255)) {
			pc++
		}
	}
	p = compileSrc(t, `state { int a[8] ~ uniform(-2, 2) int o[8] }
rule r over i in 0..8 when a[i] > 0 && 6 / a[(i + 1) % 8] > 1 || a[(i + 3) % 8] == 0 { o[i] = 1 }`)
	if n := jumps(p.Code) - jumps(ifConvert(p)); n != 0 {
		t.Errorf("faulting right operands: %d jumps removed, want 0", n)
	}
	r := rand.New(rand.NewPCG(7, 8))
	atoms := []string{"a[i] > 0", "a[i] == 1", "b[i] < 1", "6 / a[i] > 1", "a[(i + 1) % 9] != 0", "b[i] + a[i] == 2", "i % 3 == 0", "a[i]", "b[i] - 1", "a[i] * 2 + b[i]"}
	var expr func(d int) string
	expr = func(d int) string {
		if d == 0 || r.IntN(3) == 0 {
			return atoms[r.IntN(len(atoms))]
		}
		return "(" + expr(d-1) + []string{" && ", " || "}[r.IntN(2)] + expr(d-1) + ")"
	}
	for k := range 80 {
		src := `state { int a[9] ~ uniform(-1, 2) int b[9] ~ uniform(0, 2) int o[9] }
rule r over i in 0..9 when ` + expr(4) + ` { o[i] = o[i] + 1 }
rule s over i in 0..9 { let v = ` + expr(3) + `
  b[i] = v }`
		p := compileSrc(t, src)
		if ok, msg := agrees(0, p, 4, uint64(k), 3); !ok {
			t.Fatalf("%s\n%s", src, msg)
		}
	}
}

// TestDivisionByConstantZero: a constant divisor of 0 that the batch keeps
// as a number is still read lane by lane, so every lane faults as in the
// interpreter (program 3017 of 4,000 random programs found it).
func TestDivisionByConstantZero(t *testing.T) {
	p := compileSrc(t, `state {
  int f0[37] ~ uniform(-4, 7)
  int f1[30] ~ uniform(-4, 4)
  int f2[34] ~ uniform(-3, 2)
  float f3[40] ~ uniform(-4.0, 4.0)
}
rule r0 over i in 4..41
  when i
{
  f0[(((i * 13) || (f0[(i + 2) % 37] < f0[(f1[(i) % 30]) % 37]))) % 37] = abs(f2[(12) % 34])
  repeat 0 {
    f2[(((13 + f1[(i) % 30]) % 4)) % 34] += int((1.13 / f3[(i) % 40]))
  }
  f2[(int(float(f1[(f1[(i + 1) % 30]) % 30]))) % 34] += 8
  f3[(abs(min(f2[(f1[(7) % 30]) % 34], f1[(f1[(f2[(f2[(i) % 34]) % 34]) % 30]) % 30]))) % 40] += float(abs(14))
}
rule r1 over i in 3..34
  let v1 = (((i || f0[(2) % 37]) > max(f2[(f2[(-1) % 34]) % 34], i)) & (int(3.33) > 7))
  let v2 = int(f3[(i + 1) % 40])
  when 5
{
  f1[((int(f3[(f1[(5) % 30]) % 40]) != f2[(f2[(i + 1) % 34]) % 34])) % 30] = abs(abs(i))
  f3[(f2[((13 & f2[(f1[(f0[(f1[(v1) % 30]) % 37]) % 30]) % 34])) % 34]) % 40] += ((-3.24 - f3[(f2[(f2[(f2[(v2) % 34]) % 34]) % 34]) % 40]) + float(f0[(f0[(15) % 37]) % 37]))
  f0[((f0[(f1[(5) % 30]) % 37] <= min(f1[(f0[(5) % 37]) % 30], f0[(f0[(f0[(f0[(-4) % 37]) % 37]) % 37]) % 37]))) % 37] += v2
  f1[(f2[(i + 2) % 34]) % 30] = (int(-2.88) >> (f2[(v2) % 34] % 0))
  f3[(((f2[i] <= v1) > int(f3[(5) % 40]))) % 40] += float((v1 << f0[(f2[(v1) % 34]) % 37]))
  f0[(f2[(f1[(i) % 30]) % 34]) % 37] += 9
}`)
	for seed := range uint64(20) {
		if ok, msg := agrees(0, p, 4, seed, 3); !ok || msg != "fault" {
			t.Fatalf("seed %d: %v %s", seed, ok, msg)
		}
	}
}
