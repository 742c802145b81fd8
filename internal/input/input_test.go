package input

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadFile(t *testing.T) {
	limit := Config.Limit()
	exact := bytes.Repeat([]byte("a"), int(limit))
	cases := []struct {
		name    string
		path    string
		kind    Kind
		want    []byte
		wantErr string // "" for success; a usage error containing it otherwise
	}{
		{"plain", writeFile(t, "a.yaml", []byte("seed: 1\n")), Config, []byte("seed: 1\n"), ""},
		{"bom dropped", writeFile(t, "b.yaml", []byte("\xEF\xBB\xBFseed: 1\n")), Config, []byte("seed: 1\n"), ""},
		{"bom only", writeFile(t, "c.yaml", bom), Config, []byte{}, ""},
		{"binary keeps bom", writeFile(t, "d.png", []byte("\xEF\xBB\xBFx")), Image, []byte("\xEF\xBB\xBFx"), ""},
		{"exactly the limit", writeFile(t, "e.yaml", exact), Config, exact, ""},
		{"over the limit", writeFile(t, "f.yaml", append(exact, 'b')), Config, nil, "larger than the 1 MiB limit for config files"},
		{"device over the limit", "/dev/zero", Config, nil, "/dev/zero: larger than the 1 MiB limit"},
		{"directory", t.TempDir(), Source, nil, "is a directory, want a file"},
		{"missing", filepath.Join(t.TempDir(), "nope"), Source, nil, "nope: no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadFile(context.Background(), c.path, c.kind)
			if c.wantErr != "" {
				if err == nil || !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want a usage error with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.want) {
				t.Fatalf("read %d bytes %.20q, want %d bytes %.20q", len(got), got, len(c.want), c.want)
			}
		})
	}
}

func TestReadPathStdin(t *testing.T) {
	ctx := context.Background()
	got, err := ReadPath(ctx, Stdin, strings.NewReader("\xEF\xBB\xBFaxiom F\n"), Source)
	if err != nil || string(got) != "axiom F\n" {
		t.Fatalf("got %q, %v; want the text without its BOM", got, err)
	}
	_, err = ReadPath(ctx, Stdin, io.LimitReader(zeros{}, Config.Limit()+10), Config)
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "standard input: larger than the 1 MiB limit") {
		t.Fatalf("err = %v, want standard input over the limit", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// cancelAfter cancels a context shortly after the call blocks, and checks
// that the call returns context.Canceled within a second of that.
func cancelAfter(t *testing.T, call func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- call(ctx) }()
	select {
	case err := <-done:
		t.Fatalf("returned before the cancel: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(time.Second):
		t.Fatal("still blocked a second after the cancel")
	}
}

func TestStdinReadCancelled(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	cancelAfter(t, func(ctx context.Context) error {
		_, err := ReadPath(ctx, Stdin, r, Genome)
		return err
	})
}

func TestLimits(t *testing.T) {
	// Every kind is bounded except Accum, whose header is checked instead;
	// an unbounded kind would read /dev/zero until memory runs out.
	for k := Genome; k < Accum; k++ {
		if l := k.Limit(); l <= 0 || l > 4<<30 {
			t.Errorf("%v: limit %d, want a bound of at most 4 GiB", k, l)
		}
		if k.String() == "input files" {
			t.Errorf("kind %d has no name", k)
		}
	}
}

func TestMissingIsNotExist(t *testing.T) {
	// Callers that look along a search path (cuburn's genome database)
	// tell a missing file from a broken one.
	_, err := ReadFile(context.Background(), filepath.Join(t.TempDir(), "x"), CuburnJSON)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrUsage) {
		t.Fatalf("err = %v, want fs.ErrNotExist and ErrUsage", err)
	}
}
