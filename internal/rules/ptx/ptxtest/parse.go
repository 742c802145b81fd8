package ptxtest

import (
	"fmt"
	"strconv"
	"strings"
)

// inst is one instruction, with its guard.
type inst struct {
	pred string // guard register, "" for none
	neg  bool
	op   string
	args []string
}

// Kernel is one parsed kernel: its parameter names, instructions, labels
// and shared-memory layout.
type Kernel struct {
	name    string
	params  []string
	insts   []inst
	labels  map[string]int
	shared  map[string]uint64 // byte offsets
	sharedN int               // words
}

// Parse reads the kernel called name (its .entry) from a generated module.
func Parse(ptx, name string) (*Kernel, error) {
	k := &Kernel{name: name, labels: map[string]int{}, shared: map[string]uint64{}}
	start := strings.Index(ptx, ".entry "+name+"(")
	if start < 0 {
		return nil, fmt.Errorf("no kernel %s", name)
	}
	inBody := false
	for _, line := range strings.Split(ptx[start:], "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "//") || strings.HasPrefix(line, ".entry") || strings.HasPrefix(line, ".maxntid") ||
			line == ")" || strings.HasPrefix(line, ".reg"):
			continue
		case strings.HasPrefix(line, ".param"):
			f := strings.Fields(strings.TrimSuffix(line, ","))
			k.params = append(k.params, f[2])
			continue
		case line == "{":
			inBody = true
			continue
		case line == "}":
			return k, nil
		case strings.HasPrefix(line, ".shared"):
			f := strings.Fields(strings.TrimSuffix(line, ";"))
			decl := f[len(f)-1]
			n, per := 1, 1 // elements, words an element
			if f[len(f)-2] == ".u64" {
				per = 2
			}
			if i := strings.Index(decl, "["); i >= 0 {
				n, _ = strconv.Atoi(decl[i+1 : len(decl)-1])
				decl = decl[:i]
			}
			k.sharedN += k.sharedN % per // aligned
			k.shared[decl] = uint64(4 * k.sharedN)
			k.sharedN += n * per
			continue
		}
		if !inBody {
			continue
		}
		if strings.HasSuffix(line, ":") {
			k.labels[strings.TrimSuffix(line, ":")] = len(k.insts)
			continue
		}
		line = strings.TrimSuffix(line, ";")
		var in inst
		if strings.HasPrefix(line, "@") {
			sp := strings.IndexByte(line, ' ')
			in.pred, line = line[1:sp], line[sp+1:]
			if strings.HasPrefix(in.pred, "!") {
				in.neg, in.pred = true, in.pred[1:]
			}
		}
		sp := strings.IndexByte(line, ' ')
		if sp < 0 {
			in.op = line
		} else {
			in.op = line[:sp]
			in.args = splitArgs(line[sp+1:])
		}
		k.insts = append(k.insts, in)
	}
	return nil, fmt.Errorf("kernel %s does not end", name)
}

// splitArgs splits operands at commas outside braces.
func splitArgs(s string) []string {
	var out []string
	depth, from := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[from:i]))
				from = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[from:]))
}
