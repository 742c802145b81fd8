// Package input opens and reads every input file of procgen: bounded (each
// Kind has a limit), cancellable (Ctrl-C ends a wait for a FIFO's writer or
// a pipe's data within a second), with a directory refused and a UTF-8 byte
// order mark dropped from text, the same way for every command.
package input

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Stdin is the path that names standard input where a command takes it.
const Stdin = "-"

// ErrUsage is wrapped by every error that is the caller's mistake in naming
// an input: a missing or unreadable file, a directory, a file over its
// kind's limit. Commands report it as a usage error (exit 2).
var ErrUsage = errors.New("unusable input")

// usageError is an ErrUsage with its message and, for a failed open or
// stat, the system's error (fs.ErrNotExist ... stay testable).
type usageError struct {
	msg string
	err error
}

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == ErrUsage }
func (e *usageError) Unwrap() error        { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// tooBig is the error for an input over its kind's limit.
func tooBig(name string, k Kind) error {
	return usagef("%s: larger than the %s limit for %s (is it the right file?)", name, size(k.Limit()), k)
}

// size writes a limit in the largest binary unit that divides it.
func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// ReadFile reads the file at path whole: at most k.Limit() bytes, the byte
// order mark of a text kind dropped.
func ReadFile(ctx context.Context, path string, k Kind) ([]byte, error) {
	f, err := Open(ctx, path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, k)
}

// ReadPath is ReadFile, or Read of stdin where path is Stdin ("-"); name
// labels standard input in errors.
func ReadPath(ctx context.Context, path string, stdin io.Reader, k Kind) ([]byte, error) {
	if path == Stdin {
		return Read(ctx, stdin, "standard input", k)
	}
	return ReadFile(ctx, path, k)
}

// Read reads r whole under the same rules as ReadFile. r may block (a
// terminal, a pipe with a quiet writer): the read runs on its own goroutine
// and Read returns ctx's error as soon as ctx ends. The goroutine is then
// left blocked until r returns; the process is exiting by then.
func Read(ctx context.Context, r io.Reader, name string, k Kind) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := readAll(&limited{r: r, name: name, kind: k, left: k.Limit()}, k)
		done <- result{data, err}
	}()
	select {
	case res := <-done:
		return res.data, res.err
	case <-ctx.Done():
		return nil, fmt.Errorf("read %s: %w", name, ctx.Err())
	}
}

func readAll(r io.Reader, k Kind) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if k.text() {
		data = bytes.TrimPrefix(data, bom)
	}
	return data, nil
}

// File is an open input: reads stop with an error at the kind's limit and
// with ctx's error once ctx ends.
type File struct {
	f    *os.File
	r    io.Reader
	stop func() bool
}

// Open opens the input at path for reading. A FIFO's open waits for a
// writer: it runs on its own goroutine, and Open returns ctx's error as
// soon as ctx ends (the goroutine closes the file if a writer comes later).
// Reads then stop once ctx ends: a FIFO, pipe or device is read through the
// runtime's poller, whose pending read a deadline ends; a regular file is
// never blocked for long and its reads check ctx between chunks.
func Open(ctx context.Context, path string, k Kind) (*File, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, describe(path, err)
	}
	if fi.IsDir() {
		return nil, usagef("%s is a directory, want a file", path)
	}
	if fi.Mode().IsRegular() && fi.Size() > k.Limit() {
		return nil, tooBig(path, k)
	}
	f, err := openCancellable(ctx, path, fi.Mode().IsRegular())
	if err != nil {
		return nil, err
	}
	in := &File{f: f}
	in.stop = context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
	var r io.Reader = &limited{r: &ctxReader{ctx: ctx, f: f}, name: path, kind: k, left: k.Limit()}
	if k.text() {
		br := bufio.NewReader(r)
		if b, err := br.Peek(len(bom)); err == nil && bytes.Equal(b, bom) {
			_, _ = br.Discard(len(bom))
		} else if err != nil && !errors.Is(err, io.EOF) {
			in.Close()
			return nil, err
		}
		r = br
	}
	in.r = r
	return in, nil
}

// Read reads from the input; see Open.
func (in *File) Read(p []byte) (int, error) { return in.r.Read(p) }

// Close closes the input.
func (in *File) Close() error {
	in.stop()
	return in.f.Close()
}

func openCancellable(ctx context.Context, path string, regular bool) (*os.File, error) {
	if regular { // opening a regular file never waits
		f, err := os.Open(path)
		if err != nil {
			return nil, describe(path, err)
		}
		return f, nil
	}
	type result struct {
		f   *os.File
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		done <- result{f, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, describe(path, res.err)
		}
		return res.f, nil
	case <-ctx.Done():
		go func() {
			if res := <-done; res.f != nil {
				_ = res.f.Close()
			}
		}()
		return nil, fmt.Errorf("open %s: waiting for a writer: %w", path, ctx.Err())
	}
}

// describe turns an open or stat error into a usage error that says what
// is wrong with the path in words.
func describe(path string, err error) error {
	why := err
	switch {
	case errors.Is(err, fs.ErrNotExist):
		why = errors.New("no such file")
	case errors.Is(err, fs.ErrPermission):
		why = errors.New("permission denied")
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = pe.Err
		}
	}
	return &usageError{msg: fmt.Sprintf("%s: %v", path, why), err: err}
}

// limited reads at most left bytes of r and fails past them: one more byte
// is asked for, so a file of exactly the limit is read whole.
type limited struct {
	r    io.Reader
	name string
	kind Kind
	left int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, tooBig(l.name, l.kind)
	}
	if int64(len(p))-1 > l.left {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, tooBig(l.name, l.kind)
	}
	return n, err
}

// ctxReader stops reading f once ctx ends, whatever f is.
type ctxReader struct {
	ctx context.Context
	f   *os.File
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, fmt.Errorf("read %s: %w", c.f.Name(), err)
	}
	n, err := c.f.Read(p)
	if err != nil && c.ctx.Err() != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		err = fmt.Errorf("read %s: %w", c.f.Name(), c.ctx.Err())
	}
	return n, err
}

// Beside reads the files a container file names by URI (a GLB's external
// buffers): relative paths only (percent-escaped as URIs are), resolved
// against file's directory and read as kind k, so a file cannot reach out
// of its place by an absolute path or a scheme.
func Beside(ctx context.Context, file string, k Kind) func(uri string) ([]byte, error) {
	return func(uri string) ([]byte, error) {
		rel, err := url.PathUnescape(uri)
		if err != nil || strings.Contains(uri, ":") || path.IsAbs(rel) || filepath.IsAbs(rel) {
			return nil, fmt.Errorf("%q is not a relative path beside %s", uri, filepath.Base(file))
		}
		return ReadFile(ctx, filepath.Join(filepath.Dir(file), filepath.FromSlash(rel)), k)
	}
}
