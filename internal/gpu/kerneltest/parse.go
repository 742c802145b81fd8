package kerneltest

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// Parse finds every __global__ function in preprocessed CUDA source and
// returns its parameter kinds by name. A kernel declared twice must be
// declared alike.
func Parse(src string) (map[string][]gpu.ParamKind, error) {
	sigs := map[string][]gpu.ParamKind{}
	for rest := src; ; {
		i := strings.Index(rest, "__global__")
		if i < 0 {
			return sigs, nil
		}
		rest = rest[i+len("__global__"):]
		if len(rest) > 0 && isIdent(rune(rest[0])) {
			continue // a longer identifier
		}
		name, params, tail, err := declaration(rest)
		if err != nil {
			return nil, err
		}
		rest = tail
		kinds := make([]gpu.ParamKind, 0, len(params))
		for _, p := range params {
			k, err := cKind(p)
			if err != nil {
				return nil, fmt.Errorf("kernel %s: %w", name, err)
			}
			kinds = append(kinds, k)
		}
		if old, ok := sigs[name]; ok && !slices.Equal(old, kinds) {
			return nil, fmt.Errorf("kernel %s is declared twice, differently", name)
		}
		sigs[name] = kinds
	}
}

// declaration reads `[void] [__launch_bounds__(...)] name(params)` and
// returns the name, the parameters split at top-level commas, and the rest.
func declaration(s string) (name string, params []string, rest string, err error) {
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		id := ident(s)
		if id == "" {
			return "", nil, "", fmt.Errorf("kerneltest: __global__ followed by %.40q", s)
		}
		s = s[len(id):]
		switch id {
		case "void", "static", "inline", "__noinline__", "__forceinline__":
			continue
		case "__launch_bounds__":
			_, s, err = balanced(strings.TrimLeftFunc(s, unicode.IsSpace))
			if err != nil {
				return "", nil, "", err
			}
			continue
		}
		inner, rest, err := balanced(strings.TrimLeftFunc(s, unicode.IsSpace))
		if err != nil {
			return "", nil, "", fmt.Errorf("kerneltest: kernel %s: %w", id, err)
		}
		return id, splitTop(inner), rest, nil
	}
}

// balanced returns what is inside the parentheses s starts with, and what follows them.
func balanced(s string) (inner, rest string, err error) {
	if !strings.HasPrefix(s, "(") {
		return "", "", fmt.Errorf("expected ( at %.40q", s)
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], nil
			}
		}
	}
	return "", "", fmt.Errorf("unbalanced parentheses at %.40q", s)
}

func splitTop(s string) []string {
	if strings.TrimSpace(s) == "" || strings.TrimSpace(s) == "void" {
		return nil
	}
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

func isIdent(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func ident(s string) string {
	for i, r := range s {
		if !isIdent(r) {
			return s[:i]
		}
	}
	return s
}

// cType maps a scalar C type, its words sorted, to its kind.
func cType(words string) (gpu.ParamKind, bool) {
	switch words {
	case "int", "int32_t", "int signed", "signed":
		return gpu.S32Param, true
	case "unsigned", "int unsigned", "uint32_t":
		return gpu.U32Param, true
	case "long long", "int64_t":
		return gpu.S64Param, true
	case "long long unsigned", "uint64_t", "size_t":
		return gpu.U64Param, true
	case "float":
		return gpu.F32Param, true
	case "double":
		return gpu.F64Param, true
	}
	return 0, false
}

// cKind classifies one C parameter declaration such as
// `const float *__restrict__ hist` or `uint32_t n`.
func cKind(p string) (gpu.ParamKind, error) {
	if strings.Contains(p, "*") {
		return gpu.PtrParam, nil
	}
	var words []string
	for _, w := range strings.Fields(p) {
		if w != "const" && w != "volatile" && w != "__restrict__" {
			words = append(words, w)
		}
	}
	if len(words) > 1 {
		if last := words[len(words)-1]; !slices.Contains([]string{"int", "unsigned", "signed", "long"}, last) {
			if _, isType := cType(last); !isType {
				words = words[:len(words)-1] // the parameter's name
			}
		}
	}
	slices.Sort(words)
	k, ok := cType(strings.Join(words, " "))
	if !ok {
		return 0, fmt.Errorf("parameter %q: not a pointer or a 32/64-bit scalar", strings.TrimSpace(p))
	}
	return k, nil
}
