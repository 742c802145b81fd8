package kerneltest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// PTXType is the PTX parameter type a kernel parameter of kind k is
// declared with: pointers and 64-bit integers .u64, 32-bit integers .u32
// (nvcc writes int as .u32 too), floats .f32 and .f64.
func PTXType(k gpu.ParamKind) string {
	switch k {
	case gpu.PtrParam, gpu.U64Param, gpu.S64Param:
		return "u64"
	case gpu.U32Param, gpu.S32Param:
		return "u32"
	case gpu.F32Param:
		return "f32"
	case gpu.F64Param:
		return "f64"
	}
	return "?"
}

// ParsePTX returns each .entry's parameter types ("u32", "u64", ...) in
// PTX text; an entry in several PTX images must read alike in each.
func ParsePTX(ptx string) (map[string][]string, error) {
	entries := map[string][]string{}
	for rest := ptx; ; {
		i := strings.Index(rest, ".entry ")
		if i < 0 {
			return entries, nil
		}
		rest = rest[i+len(".entry "):]
		name, after, ok := strings.Cut(rest, "(")
		if !ok {
			return nil, fmt.Errorf("kerneltest: .entry without parameters at %.40q", rest)
		}
		name = strings.TrimSpace(name)
		params, tail, ok := strings.Cut(after, ")")
		if !ok {
			return nil, fmt.Errorf("kerneltest: .entry %s: unterminated parameters", name)
		}
		rest = tail
		types := []string{}
		for p := range strings.SplitSeq(params, ",") {
			f := strings.Fields(p)
			if len(f) == 0 {
				continue
			}
			if len(f) != 3 || f[0] != ".param" {
				return nil, fmt.Errorf("kerneltest: .entry %s: parameter %q is not a scalar", name, strings.TrimSpace(p))
			}
			types = append(types, strings.TrimPrefix(f[1], "."))
		}
		if old, ok := entries[name]; ok && !slices.Equal(old, types) {
			return nil, fmt.Errorf("kerneltest: .entry %s differs between PTX images", name)
		}
		entries[name] = types
	}
}

// FatbinEntries reads the PTX that `make kernels` embedded for family
// (internal/gpu/kernels/<family>.fatbin) with cuobjdump. ok is false when
// the fatbin or cuobjdump is missing: the kernels are not built here.
func FatbinEntries(root, family string) (entries map[string][]string, ok bool, err error) {
	fatbin := filepath.Join(root, "internal", "gpu", "kernels", family+".fatbin")
	if _, err := os.Stat(fatbin); err != nil {
		return nil, false, nil
	}
	tool, err := exec.LookPath("cuobjdump")
	if err != nil {
		return nil, false, nil
	}
	out, err := exec.Command(tool, "-ptx", fatbin).Output()
	if err != nil {
		return nil, false, fmt.Errorf("kerneltest: cuobjdump -ptx %s: %w", fatbin, err)
	}
	entries, err = ParsePTX(string(out))
	if err == nil && len(entries) == 0 {
		err = fmt.Errorf("kerneltest: no .entry in the PTX of %s", fatbin)
	}
	return entries, err == nil, err
}

// ComparePTX checks the kernels built into a family's fatbin against its C
// declarations: the same kernels by name (a C kernel without extern "C"
// has a mangled entry), and each one's parameter types.
func ComparePTX(family string, sigs map[string][]gpu.ParamKind, entries map[string][]string) []error {
	var errs []error
	names := make([]string, 0, len(sigs))
	for name := range sigs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		types, ok := entries[name]
		if !ok {
			errs = append(errs, fmt.Errorf("%s.%s: declared in C, no .entry %s in the built fatbin (extern \"C\" missing, or `make kernels` is stale)", family, name, name))
			continue
		}
		want := make([]string, len(sigs[name]))
		for i, k := range sigs[name] {
			want[i] = PTXType(k)
		}
		if !slices.Equal(types, want) {
			errs = append(errs, fmt.Errorf("%s.%s: the fatbin's PTX takes (%s), the C declaration (%s)", family, name,
				strings.Join(types, ", "), strings.Join(want, ", ")))
		}
	}
	for name := range entries {
		if _, ok := sigs[name]; !ok {
			errs = append(errs, fmt.Errorf("%s: the fatbin has .entry %s, which the preprocessed source does not declare", family, name))
		}
	}
	return errs
}
