package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/procgen-dev/procgen/internal/output"
	sharding "github.com/procgen-dev/procgen/internal/shard"
)

// Batches of inputs for the jobs that read one input file (lsys derive, pga
// city, forest disperse): several files, or a directory of them, run one
// after another as if each were given alone, with outputs named by the
// input. Item k of the batch (files in argument order, a directory's files
// in name order) belongs to shard k mod N, so the N runs of a job array
// write exactly the files of one run, each file once.

// batchItem is one input of a batch.
type batchItem struct {
	Path string
	Name string // the file's name without its extension: fills %s in -o patterns
	Slot int    // position in the batch, for --shard
}

// batchInputs expands the arguments of a job into its inputs: files as
// given, and for a directory its files whose extension is one of exts. It
// reports whether this is a batch (several inputs, or a directory) and
// refuses two inputs of one name, whose outputs would collide.
func batchInputs(job string, args []string, exts ...string) ([]batchItem, bool, error) {
	var items []batchItem
	batch := len(args) > 1
	add := func(path string) {
		base := filepath.Base(path)
		items = append(items, batchItem{Path: path, Name: strings.TrimSuffix(base, filepath.Ext(base)), Slot: len(items)})
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil || !fi.IsDir() {
			add(arg) // a missing or unreadable file is the job's own usage error
			continue
		}
		batch = true
		entries, err := os.ReadDir(arg)
		if err != nil {
			return nil, false, usageErrorf("%s: %s: %v", job, arg, describeFSError(err))
		}
		var found []string
		for _, e := range entries {
			ext := strings.ToLower(filepath.Ext(e.Name()))
			if !e.IsDir() && slices.Contains(exts, ext) {
				found = append(found, filepath.Join(arg, e.Name()))
			}
		}
		if len(found) == 0 {
			return nil, false, usageErrorf("%s: %s is a directory without %s files", job, arg, strings.Join(exts, " or "))
		}
		sort.Strings(found)
		for _, f := range found {
			add(f)
		}
	}
	if batch {
		seen := map[string]string{}
		for _, it := range items {
			if prev, ok := seen[it.Name]; ok {
				return nil, false, usageErrorf("%s: %s and %s have one name (%s): their outputs would collide; run them separately",
					job, prev, it.Path, it.Name)
			}
			seen[it.Name] = it.Path
		}
	}
	return items, batch, nil
}

// checkOutPattern checks an -o of a batch: a file name holding %s once,
// which each input's name replaces (%% is a literal %). Standard output
// cannot take several inputs' files.
func checkOutPattern(out string) error {
	if out == output.Stdout || isStream(out) {
		return usageErrorf("-o %s with several inputs: name a pattern such as out/%%s%s (%%s: each input's name)", out, filepath.Ext(out))
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
		return usageErrorf("-o %s: only %%s (the input's name) and %%%% may follow %% in a batch output", out)
	}
	if verbs != 1 {
		return usageErrorf("-o %s with several inputs: the name must hold %%s once (each input's name), e.g. out/%%s%s", out, filepath.Ext(out))
	}
	return nil
}

// expandOut is the -o pattern for one input.
func expandOut(pattern, name string) string {
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

// batchOutputs expands the -o patterns for every item this shard owns and
// checks the whole set before any work: two outputs on one file, an output
// on an input, a directory that cannot be made. Directories the patterns
// name are made as each item runs (makeOutDirs).
func (a *app) batchOutputs(items []batchItem, outs []string, inputs ...string) (map[int][]string, error) {
	for _, out := range outs {
		if err := checkOutPattern(out); err != nil {
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
			p := expandOut(out, it.Name)
			if prev, ok := claimed[filepath.Clean(p)]; ok {
				return nil, usageErrorf("%s and %s would both write %s: choose -o patterns that keep them apart", prev, it.Path, p)
			}
			claimed[filepath.Clean(p)] = it.Path
			byItem[it.Slot] = append(byItem[it.Slot], p)
			if dir := filepath.Dir(p); isDir(dir) {
				existing = append(existing, p)
			} else if err := output.ProbeCreatableDir(dir); err != nil {
				return nil, usageErrorf("-o %s: %v", out, err)
			}
		}
	}
	if _, err := a.planOutputs(inputs, existing...); err != nil {
		return nil, err
	}
	return byItem, nil
}

// makeOutDirs makes the directories of an item's outputs.
func makeOutDirs(paths []string) error {
	for _, p := range paths {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("%s: %w", filepath.Dir(p), describeFSError(err))
		}
	}
	return nil
}

// ownBatch expands a job's arguments (batchInputs) and keeps the items that
// are this shard's. A single input with the shard from a job array's
// environment runs whole: an array whose tasks each name their own input is
// not a split batch.
func (a *app) ownBatch(job string, args []string, sh shard, exts ...string) (own []batchItem, batch bool, err error) {
	items, batch, err := batchInputs(job, args, exts...)
	if err != nil || !sh.Active() || (!batch && sh.FromEnv()) {
		return items, batch, err
	}
	own = sharding.Owned(sh, items, func(it batchItem) int { return it.Slot })
	if len(own) == 0 {
		a.log.Warnf("%s: shard %s (from %s) owns none of the %d inputs: nothing to do", job, sh, sh.From, len(items))
	}
	return own, batch, nil
}

// runBatch runs one input after another. A failing input is reported and
// the batch goes on (as flame render does over a folder); the run fails at
// the end naming every input that failed. Ctrl-C stops it at once.
func (a *app) runBatch(ctx context.Context, job string, items []batchItem, total int, run func(batchItem) error) error {
	var failures []string
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := run(it)
		if err == nil {
			continue
		}
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			return err
		}
		msg := err.Error()
		if !strings.Contains(msg, it.Path) {
			msg = it.Path + ": " + msg
		}
		a.log.Warnf("%s", msg)
		failures = append(failures, msg)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%s: %d of %d inputs failed:\n  %s", job, len(failures), total, strings.Join(failures, "\n  "))
	}
	return nil
}
