package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

func TestExitCodeOf(t *testing.T) {
	epipe := &fs.PathError{Op: "write", Path: "-", Err: syscall.EPIPE}
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"plain", errors.New("x"), exitFailure},
		{"usage", usageErrorf("bad"), exitUsage},
		{"broken pipe", fmt.Errorf("lsys: %w", epipe), exitBrokenPipe},
		// The signal explains the closed pipe, not the other way round.
		{"interrupted pipe", fmt.Errorf("interrupted: %w (%w)", context.Canceled, epipe), exitInterrupted},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("%s: exitCode(%v) = %d, want %d", tc.name, tc.err, got, tc.want)
		}
	}
}

// A panic becomes exit 1 with one grep-able line, then the stack.
func TestRecoverInternal(t *testing.T) {
	var stderr bytes.Buffer
	code := func() (code int) {
		defer recoverInternal(&stderr, &code)
		panic("index out of range\n[3]")
	}()
	if code != exitFailure {
		t.Errorf("code %d, want %d", code, exitFailure)
	}
	first, rest, _ := strings.Cut(stderr.String(), "\n")
	if first != "procgen: internal error (a bug, please report it): index out of range [3]" {
		t.Errorf("first line %q", first)
	}
	if !strings.Contains(rest, "TestRecoverInternal") {
		t.Errorf("no stack after the line:\n%s", rest)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// pipeWatch notes EPIPE only: other write errors are the commands' to report.
func TestPipeWatch(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{syscall.ENOSPC, false},
		{&fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}, true},
	} {
		p := &pipeWatch{w: failWriter{tc.err}}
		_, err := p.Write([]byte("x"))
		if !errors.Is(err, tc.err) || p.broken.Load() != tc.want {
			t.Errorf("%v: err %v, broken %v", tc.err, err, p.broken.Load())
		}
	}
}
