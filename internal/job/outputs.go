package job

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/output"
)

// CheckPattern checks an -o of a batch: a file name holding %s once, which
// each input's name replaces (%% is a literal %). Standard output cannot
// take several inputs' files. Every error is a mistake in how the job was
// called.
func CheckPattern(out string) error {
	if out == output.Stdout || isStream(out) {
		return fmt.Errorf("-o %s with several inputs: name a pattern such as out/%%s%s (%%s: each input's name)", out, filepath.Ext(out))
	}
	verbs := 0
	for i := 0; i < len(out); i++ {
		if out[i] != '%' {
			continue
		}
		if i+1 < len(out) && out[i+1] == '%' {
			i++
			continue
		}
		if i+1 < len(out) && out[i+1] == 's' {
			verbs++
			i++
			continue
		}
		return fmt.Errorf("-o %s: only %%s (the input's name) and %%%% may follow %% in a batch output", out)
	}
	if verbs != 1 {
		return fmt.Errorf("-o %s with several inputs: the name must hold %%s once (each input's name), e.g. out/%%s%s", out, filepath.Ext(out))
	}
	return nil
}

// isStream says whether path is (or links to) a character device, FIFO or
// socket.
func isStream(path string) bool {
	t, err := output.Resolve(path)
	return err == nil && t.Kind == output.KindStream
}

// Expand is the -o pattern for the input of name name.
func Expand(pattern, name string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch {
		case pattern[i] == '%' && i+1 < len(pattern) && pattern[i+1] == '%':
			b.WriteByte('%')
			i++
		case pattern[i] == '%' && i+1 < len(pattern) && pattern[i+1] == 's':
			b.WriteString(name)
			i++
		default:
			b.WriteByte(pattern[i])
		}
	}
	return b.String()
}

// Outputs expands the -o patterns outs for every item and checks the whole
// set before any work: two outputs on one file, an output on an input (the
// items, and inputs all items share), a directory that cannot be made. It
// returns each item's outputs by slot; directories the patterns name are
// made as each item runs (MakeDirs). Every error is a mistake in how the
// job was called.
func Outputs(items []Item, outs []string, inputs ...string) (map[int][]string, error) {
	byItem, err := outputs(items, outs, inputs...)
	return byItem, AsUsage(err) // every error is a mistake in how the job was called
}

func outputs(items []Item, outs []string, inputs ...string) (map[int][]string, error) {
	for _, out := range outs {
		if err := CheckPattern(out); err != nil {
			return nil, err
		}
	}
	for _, it := range items {
		inputs = append(inputs, it.Path)
	}
	byItem := map[int][]string{}
	claimed := map[string]string{}
	var existing []string // outputs in directories that exist, which may hold links
	for _, it := range items {
		for _, out := range outs {
			p := Expand(out, it.Name)
			if prev, ok := claimed[filepath.Clean(p)]; ok {
				return nil, fmt.Errorf("%s and %s would both write %s: choose -o patterns that keep them apart", prev, it.Path, p)
			}
			claimed[filepath.Clean(p)] = it.Path
			byItem[it.Slot] = append(byItem[it.Slot], p)
			if dir := filepath.Dir(p); IsDir(dir) {
				existing = append(existing, p)
			} else if err := output.ProbeCreatableDir(dir); err != nil {
				return nil, fmt.Errorf("-o %s: %v", out, err)
			}
		}
	}
	// The plan only checks: the items' own runs write their files.
	p := output.NewPlan(nil)
	for _, out := range existing {
		if _, err := p.Add(out); err != nil {
			return nil, err
		}
	}
	if err := p.RefuseInputs(inputs...); err != nil {
		return nil, err
	}
	return byItem, nil
}

// IsDir says whether p is (or links to) a directory.
func IsDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// SafeName keeps the characters safe in a file name on every system and
// makes the others '_': flame's per-genome images and forest's per-species
// layers are named from user text this way.
func SafeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// FormatOf is the format an output is written in: its extension in lower
// case, or stdoutFormat for standard output, a device, FIFO or descriptor
// (which have no extension to go by).
func FormatOf(out, stdoutFormat string) string {
	if out == output.Stdout || IsStream(out) {
		return stdoutFormat
	}
	return strings.ToLower(filepath.Ext(out))
}

// MakeDirs makes the directories of an item's outputs.
func MakeDirs(paths []string) error {
	for _, p := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("%s: %w", filepath.Dir(p), output.DescribeFSError(err))
		}
	}
	return nil
}
