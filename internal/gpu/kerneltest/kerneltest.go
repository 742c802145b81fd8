// Package kerneltest checks the Go declarations of kernels (gpu.Kernel)
// against the kernels' C declarations in cuda/*.cu: the parameter count,
// order and C type class of each, and that every __global__ kernel of a
// family is declared or explicitly listed as unused. The sources go through
// the host C preprocessor first, so kernels whose names or parameter lists
// come from macros are seen as nvcc sees them; where `make kernels` has built
// the fatbins and cuobjdump is at hand, the PTX entries in them are checked
// against the same C declarations. For tests only; no GPU needed.
package kerneltest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// Owners maps each kernel family (cuda/<family>.cu) to the package whose
// test checks its declarations with Check.
func Owners() map[string]string {
	return map[string]string{
		"flame": "internal/flame", "flame_accum": "internal/flame", "flame_vartest": "internal/flame",
		"flame_plugins": "internal/flame", "flame3d": "internal/flame", "forest": "internal/forest", "forest_fft": "internal/forest", "forest_fit": "internal/forest/fit",
		"lsys": "internal/lsys", "lsys_tree": "internal/lsys",
		"turtle":       "internal/lsys/turtle",
		"pga":          "internal/pga",
		"rules":        "internal/rules",
		"rules_packed": "internal/rules/lifepack",
		"prims":        "internal/gpu",
		"selftest":     "internal/gpu",
	}
}

// Root is the repository root: the nearest directory above the working
// directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("kerneltest: no go.mod above the working directory")
		}
		dir = up
	}
}

// Check checks decls, the kernels declared by package pkg (as in Owners),
// against the C declarations of pkg's families. unused names kernels of
// those families that no Go code launches.
func Check(t testing.TB, pkg string, decls []gpu.KernelDecl, unused []string) {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	var families []string
	for f, p := range Owners() {
		if p == pkg {
			families = append(families, f)
		}
	}
	sort.Strings(families)
	if len(families) == 0 || len(decls) == 0 {
		t.Fatalf("kerneltest: package %s owns families %v and declares %d kernels: nothing to check", pkg, families, len(decls))
	}
	all := map[string]map[string][]gpu.ParamKind{} // family -> kernel -> C parameters
	for _, f := range families {
		sigs, err := FamilySignatures(root, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(sigs) == 0 {
			t.Fatalf("kerneltest: no __global__ kernels found in cuda/%s.cu", f)
		}
		all[f] = sigs
		// The built kernels too, where they are here (CI runs `make kernels`
		// before the cuda tests): what the GPU gets must match the source.
		entries, ok, err := FatbinEntries(root, f)
		switch {
		case err != nil:
			t.Error(err)
		case ok:
			for _, err := range ComparePTX(f, sigs, entries) {
				t.Error(err)
			}
		default:
			t.Logf("kerneltest: cuda/%s.cu checked against its source only (no built fatbin or no cuobjdump)", f)
		}
		// The vector-reduction PTX variant (Makefile VRED_FAMILIES), where built.
		if b, err := os.ReadFile(filepath.Join(root, "internal", "gpu", "kernels", f+".vred.ptx")); err == nil {
			entries, err := ParsePTX(string(b))
			if err != nil {
				t.Error(err)
			}
			for _, err := range ComparePTX(f+".vred", sigs, entries) {
				t.Error(err)
			}
		}
	}
	for _, err := range Compare(all, decls, unused) {
		t.Error(err)
	}
}

// Compare returns every difference between the C signatures (family ->
// kernel -> parameters) and the declarations, and every kernel neither
// declared nor listed in unused.
func Compare(sigs map[string]map[string][]gpu.ParamKind, decls []gpu.KernelDecl, unused []string) []error {
	var errs []error
	declared := map[string]bool{}
	for _, d := range decls {
		family, name := d.Ident()
		id := family + "." + name
		declared[id] = true
		want, err := d.Params()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fam, ok := sigs[family]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: family %q is not one this package owns", id, family))
			continue
		}
		got, ok := fam[name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: no __global__ kernel of that name in cuda/%s.cu", id, family))
			continue
		}
		if e := diff(want, got); e != "" {
			errs = append(errs, fmt.Errorf("%s: Go declares (%s), C declares (%s): %s", id, list(want), list(got), e))
		}
	}
	for _, u := range unused {
		if declared[u] {
			errs = append(errs, fmt.Errorf("%s is declared and also listed as unused", u))
		}
	}
	for family, fam := range sigs {
		for name := range fam {
			id := family + "." + name
			if !declared[id] && !slices.Contains(unused, id) {
				errs = append(errs, fmt.Errorf("%s: a __global__ kernel with no Go declaration (declare it, or list it as unused)", id))
			}
		}
	}
	for _, u := range unused {
		family, name, _ := strings.Cut(u, ".")
		if _, ok := sigs[family][name]; !ok {
			errs = append(errs, fmt.Errorf("%s is listed as unused but no such kernel exists", u))
		}
	}
	return errs
}

func diff(want, got []gpu.ParamKind) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("parameter %d is %v in Go, %v in C", i, want[i], got[i])
		}
	}
	if len(want) != len(got) {
		return fmt.Sprintf("%d parameters in Go, %d in C", len(want), len(got))
	}
	return ""
}

func list(ks []gpu.ParamKind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, ", ")
}

// FamilySignatures preprocesses cuda/<family>.cu with the host C++
// preprocessor (CXX, else c++) and returns its __global__ kernels'
// parameter lists. System headers the host lacks (cooperative_groups.h) are
// stubbed empty: only macros matter here.
func FamilySignatures(root, family string) (map[string][]gpu.ParamKind, error) {
	stub, err := os.MkdirTemp("", "kerneltest")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stub)
	if err := os.WriteFile(filepath.Join(stub, "cooperative_groups.h"), nil, 0o644); err != nil {
		return nil, err
	}
	cxx := os.Getenv("CXX")
	if cxx == "" {
		cxx = "c++"
	}
	src := filepath.Join(root, "cuda", family+".cu")
	out, err := exec.Command(cxx, "-E", "-P", "-x", "c++", "-I", filepath.Join(root, "cuda"), "-I", stub, src).Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		return nil, fmt.Errorf("kerneltest: preprocess %s: %w\n%s", src, err, msg)
	}
	return Parse(string(out))
}
