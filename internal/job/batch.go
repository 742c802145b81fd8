// Package job is what every generator command runs through. This part is
// the batch runner of the jobs that read one input file (lsys derive, pga
// city, forest disperse): several files, or a directory of them, run one
// after another as if each were given alone, with outputs named by the
// input. Item k of the batch (files in argument order, a directory's files
// in name order) belongs to shard k mod N, so the N runs of a job array
// write exactly the files of one run, each file once.
package job

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
	"github.com/procgen-dev/procgen/internal/shard"
)

// Warner is where a batch reports what it skips or what failed (stderr).
type Warner interface {
	Warnf(format string, args ...any)
}

// Item is one input of a batch.
type Item struct {
	Path string
	Name string // the file's name without its extension: fills %s in -o patterns
	Slot int    // position in the batch, for --shard
}

// Inputs expands the arguments of a job into its inputs: files as given,
// and for a directory its files whose extension is one of exts. It reports
// whether this is a batch (several inputs, or a directory) and refuses two
// inputs of one name, whose outputs would collide. Every error is a mistake
// in how the job was called.
func Inputs(job string, args []string, exts ...string) ([]Item, bool, error) {
	var items []Item
	batch := len(args) > 1
	add := func(path string) {
		base := filepath.Base(path)
		items = append(items, Item{Path: path, Name: strings.TrimSuffix(base, filepath.Ext(base)), Slot: len(items)})
	}
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil || !fi.IsDir() {
			add(arg) // a missing or unreadable file is the job's own usage error
			continue
		}
		batch = true
		found, err := dirInputs(job, arg, exts)
		if err != nil {
			return nil, false, err
		}
		for _, f := range found {
			add(f)
		}
	}
	if batch {
		seen := map[string]string{}
		for _, it := range items {
			if prev, ok := seen[it.Name]; ok {
				return nil, false, fmt.Errorf("%s: %s and %s have one name (%s): their outputs would collide; run them separately",
					job, prev, it.Path, it.Name)
			}
			seen[it.Name] = it.Path
		}
	}
	return items, batch, nil
}

// dirInputs is the files of directory dir whose extension is one of exts,
// in name order; none is an error.
func dirInputs(job, dir string, exts []string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", job, dir, output.DescribeFSError(err))
	}
	var found []string
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if !e.IsDir() && slices.Contains(exts, ext) {
			found = append(found, filepath.Join(dir, e.Name()))
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s: %s is a directory without %s files", job, dir, strings.Join(exts, " or "))
	}
	sort.Strings(found)
	return found, nil
}

// Own expands a job's arguments (Inputs) and keeps the items that are shard
// sh's. A single input with the shard from a job array's environment runs
// whole: an array whose tasks each name their own input is not a split
// batch. Every error is a mistake in how the job was called.
func Own(job string, args []string, sh shard.Shard, log Warner, exts ...string) (own []Item, batch bool, err error) {
	defer func() { err = AsUsage(err) }()
	items, batch, err := Inputs(job, args, exts...)
	if err != nil || !sh.Active() || (!batch && sh.FromEnv()) {
		return items, batch, err
	}
	own = shard.Owned(sh, items, func(it Item) int { return it.Slot })
	if len(own) == 0 {
		log.Warnf("%s: shard %s (from %s) owns none of the %d inputs: nothing to do", job, sh, sh.From, len(items))
	}
	return own, batch, nil
}

// Run runs one input after another. A failing input is reported and the
// batch goes on (as flame render does over a folder); the run fails at the
// end naming every input that failed, of total. Ctrl-C stops it at once.
func Run(ctx context.Context, job string, items []Item, total int, run func(Item) error, log Warner) error {
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
		log.Warnf("%s", msg)
		failures = append(failures, msg)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%s: %d of %d inputs failed:\n  %s", job, len(failures), total, strings.Join(failures, "\n  "))
	}
	return nil
}
