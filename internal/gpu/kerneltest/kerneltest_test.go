package kerneltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// TestOwnersCoverEveryFamily: every cuda/*.cu has an owner, and each owner
// package has a test that calls Check for itself, so no family's kernels go
// unchecked.
func TestOwnersCoverEveryFamily(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	cus, err := filepath.Glob(filepath.Join(root, "cuda", "*.cu"))
	if err != nil || len(cus) == 0 {
		t.Fatalf("no cuda/*.cu (%v)", err)
	}
	owners := Owners()
	for _, cu := range cus {
		family := strings.TrimSuffix(filepath.Base(cu), ".cu")
		if _, ok := owners[family]; !ok {
			t.Errorf("cuda/%s.cu has no owner package in Owners", family)
		}
	}
	for family, pkg := range owners {
		if _, err := os.Stat(filepath.Join(root, "cuda", family+".cu")); err != nil {
			t.Errorf("Owners lists %s, which has no cuda/%s.cu", family, family)
		}
		tests, _ := filepath.Glob(filepath.Join(root, pkg, "*_test.go"))
		call := `kerneltest.Check(t, "` + pkg + `"`
		found := false
		for _, f := range tests {
			b, err := os.ReadFile(f)
			if err == nil && strings.Contains(string(b), call) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s owns %s but no test of it calls %s...)", pkg, family, call)
		}
	}
}

// TestEveryFamilyParses: each family preprocesses and declares kernels.
func TestEveryFamilyParses(t *testing.T) {
	if _, err := exec.LookPath("c++"); err != nil && os.Getenv("CXX") == "" {
		t.Skip("no host C++ compiler to preprocess with")
	}
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	for family := range Owners() {
		sigs, err := FamilySignatures(root, family)
		if err != nil {
			t.Fatal(err)
		}
		if len(sigs) == 0 {
			t.Errorf("cuda/%s.cu: no kernels found", family)
		}
	}
}

func TestParse(t *testing.T) {
	const src = `
static __device__ int helper(int x) { return x; }
extern "C" __global__ void __launch_bounds__(256, 2)
k_one(const float *__restrict__ a, unsigned long long n, int m, unsigned b, double s, float f, const Op::In *in) {}
extern "C" { __global__ void k_two(uint32_t x, int64_t y, uint64_t z, size_t w, unsigned int u) {} }
extern "C" __global__ void k_none(void) {}
__global__ void k_one(const float *a, unsigned long long n, int m, unsigned b, double s, float f, const Op::In *in);
`
	got, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]gpu.ParamKind{
		"k_one":  {gpu.PtrParam, gpu.U64Param, gpu.S32Param, gpu.U32Param, gpu.F64Param, gpu.F32Param, gpu.PtrParam},
		"k_two":  {gpu.U32Param, gpu.S64Param, gpu.U64Param, gpu.U64Param, gpu.U32Param},
		"k_none": nil,
	}
	if len(got) != len(want) {
		t.Fatalf("Parse found %v, want %v", got, want)
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || !slices.Equal(g, w) {
			t.Errorf("%s: got %v, want %v", name, g, w)
		}
	}
	for _, bad := range []string{
		`__global__ void k(Struct s) {}`,                          // a struct by value
		`__global__ void k(uint8_t c) {}`,                         // too narrow
		`__global__ void k(int a) {} __global__ void k(float a);`, // declared twice, differently
		`__global__ void k(int a`,                                 // unbalanced
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
}

// Parameter structs: only their types matter here (exported fields, as
// nothing reads them).
type argsA struct {
	P gpu.Ptr
	N uint32
}

type argsB struct {
	P gpu.Ptr
	N int32
}

type argsC struct {
	P    gpu.Ptr
	N    uint32
	More argsA
}

func TestCompare(t *testing.T) {
	sigs := map[string]map[string][]gpu.ParamKind{"fam": {
		"a":    {gpu.PtrParam, gpu.U32Param},
		"c":    {gpu.PtrParam, gpu.U32Param, gpu.PtrParam, gpu.U32Param},
		"idle": {gpu.F32Param},
	}}
	ok := []gpu.KernelDecl{gpu.Kernel[argsA]{Family: "fam", Name: "a"}, gpu.Kernel[argsC]{Family: "fam", Name: "c"}}
	if errs := Compare(sigs, ok, []string{"fam.idle"}); len(errs) != 0 {
		t.Errorf("matching declarations: %v", errs)
	}
	for _, c := range []struct {
		name   string
		decls  []gpu.KernelDecl
		unused []string
		want   string
	}{
		{"signedness", []gpu.KernelDecl{gpu.Kernel[argsB]{Family: "fam", Name: "a"}, ok[1]}, []string{"fam.idle"},
			"parameter 1 is s32 in Go, u32 in C"},
		{"count", []gpu.KernelDecl{ok[0], gpu.Kernel[argsA]{Family: "fam", Name: "c"}}, []string{"fam.idle"},
			"2 parameters in Go, 4 in C"},
		{"undeclared", ok, nil, "fam.idle: a __global__ kernel with no Go declaration"},
		{"no such kernel", append(ok, gpu.Kernel[argsA]{Family: "fam", Name: "gone"}), []string{"fam.idle"},
			"no __global__ kernel of that name"},
		{"other family", append(ok, gpu.Kernel[argsA]{Family: "else", Name: "a"}), []string{"fam.idle"},
			"not one this package owns"},
		{"stale unused", ok, []string{"fam.idle", "fam.old"}, "fam.old is listed as unused but no such kernel"},
		{"bad struct", append(ok, gpu.Kernel[struct{ S string }]{Family: "fam", Name: "idle"}), nil, "not a Ptr"},
	} {
		errs := Compare(sigs, c.decls, c.unused)
		found := false
		for _, err := range errs {
			found = found || strings.Contains(err.Error(), c.want)
		}
		if !found {
			t.Errorf("%s: errors %v, want one saying %q", c.name, errs, c.want)
		}
	}
}

func TestParsePTX(t *testing.T) {
	const ptx = `
.visible .entry k_one(
	.param .u64 k_one_param_0,
	.param .u32 k_one_param_1,
	.param .f64 k_one_param_2
)
{ ret; }
.visible .entry k_none()
{ ret; }
.visible .entry k_one(
	.param .u64 k_one_param_0,
	.param .u32 k_one_param_1,
	.param .f64 k_one_param_2
)
`
	got, err := ParsePTX(ptx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got["k_one"], []string{"u64", "u32", "f64"}) || len(got["k_none"]) != 0 || len(got) != 2 {
		t.Errorf("ParsePTX = %v", got)
	}
	if _, err := ParsePTX(".entry k(\n.param .align 8 .b8 k_param_0[16]\n)"); err == nil {
		t.Error("ParsePTX accepted a struct by value")
	}
	sigs := map[string][]gpu.ParamKind{
		"k_one":  {gpu.PtrParam, gpu.S32Param, gpu.F64Param},
		"k_none": nil,
	}
	if errs := ComparePTX("fam", sigs, got); len(errs) != 0 {
		t.Errorf("matching PTX: %v", errs)
	}
	for name, c := range map[string]struct {
		sigs map[string][]gpu.ParamKind
		want string
	}{
		"type":     {map[string][]gpu.ParamKind{"k_one": {gpu.PtrParam, gpu.U64Param, gpu.F64Param}, "k_none": nil}, "the fatbin's PTX takes"},
		"mangled":  {map[string][]gpu.ParamKind{"k_one": sigs["k_one"], "k_none": nil, "k_three": nil}, "no .entry k_three"},
		"no C one": {map[string][]gpu.ParamKind{"k_one": sigs["k_one"]}, "does not declare"},
	} {
		errs := ComparePTX("fam", c.sigs, got)
		found := false
		for _, err := range errs {
			found = found || strings.Contains(err.Error(), c.want)
		}
		if !found {
			t.Errorf("%s: errors %v, want one saying %q", name, errs, c.want)
		}
	}
}
