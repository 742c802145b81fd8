package lsys_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/syntax"
)

func TestEncodeFormat(t *testing.T) {
	sys, err := syntax.Parse("e.l", []byte("axiom: A(1,0.5)F(-2)[+B(1e20,0.1,-0.25)]X\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := lsys.Axiom(sys)
	var buf bytes.Buffer
	if err := lsys.Encode(context.Background(), &buf, sys, s); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "A(1,0.5)F(-2)[+B(1e+20,0.1,-0.25)]X\n"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Values that integers cannot hold take the shortest float form.
	s.Params[0], s.Params[1] = 1e300, math.Nextafter(1, 2)
	buf.Reset()
	if err := lsys.Encode(context.Background(), &buf, sys, s); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.HasPrefix(got, "A(1e+300,1.0000000000000002)F(-2)") {
		t.Errorf("got %q", got)
	}
	// A string whose parameters do not fit its modules is refused.
	bad := &lsys.String{Syms: s.Syms, Params: s.Params[:2]}
	if err := lsys.Encode(context.Background(), &buf, sys, bad); err == nil {
		t.Error("a string short of parameters encoded without an error")
	}
}

// TestEncodeRoundTrip: every line the encoder writes reads back as an axiom
// that is the same string, parameters bit for bit.
func TestEncodeRoundTrip(t *testing.T) {
	checked := 0
	for seed := uint64(0); seed < 40; seed++ {
		src := randomSystem(seed)
		sys, err := syntax.Parse("r.l", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var buf bytes.Buffer
		enc := lsys.NewEncoder(&buf, sys)
		var want []*lsys.String
		_, err = lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 4, Seed: seed, MaxModules: 20000,
			OnStep: func(k int, s *lsys.String) error {
				want = append(want, &lsys.String{Syms: bytes.Clone(s.Syms), Params: append([]float64(nil), s.Params...)})
				return enc.Encode(context.Background(), s)
			}})
		if err != nil {
			continue // expression errors and limits: nothing to encode
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if len(lines) != len(want) {
			t.Fatalf("seed %d: %d lines for %d strings", seed, len(lines), len(want))
		}
		checked++
		for k, line := range lines {
			if want[k].Len() == 0 {
				continue // an empty string is no axiom
			}
			back, err := syntax.Parse("back.l", []byte("axiom: "+line+"\n"))
			if err != nil {
				t.Fatalf("seed %d, w%d %q: %v", seed, k, line, err)
			}
			got := lsys.Axiom(back)
			if !bytes.Equal(got.Syms, want[k].Syms) || len(got.Params) != len(want[k].Params) {
				t.Fatalf("seed %d, w%d: read back %q", seed, k, got.Syms)
			}
			for i, v := range got.Params {
				if v != want[k].Params[i] {
					t.Fatalf("seed %d, w%d: parameter %d reads back %v, want %v", seed, k, i, v, want[k].Params[i])
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d of 40 random systems derived 4 steps", checked)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n += len(p); w.n > 100<<10 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestEncodeStops: a long string stops at a cancelled context and at a
// failing writer, and a derivation stops at an OnStep error.
func TestEncodeStops(t *testing.T) {
	sys, err := syntax.Parse("k.l", []byte("axiom: F-F-F-F\nF -> FF-F-F-F-FF\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 5})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := lsys.Encode(ctx, &bytes.Buffer{}, sys, d.String); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	enc := lsys.NewEncoder(&failWriter{}, sys)
	if err := enc.Encode(context.Background(), d.String); err == nil || err.Error() != "disk full" {
		t.Errorf("failing writer: %v", err)
	}
	if err := enc.Encode(context.Background(), d.String); err == nil {
		t.Error("an encoder that failed wrote again")
	}
	stop := errors.New("stop")
	calls := 0
	_, err = lsys.CPU{}.Derive(context.Background(), sys, lsys.DeriveOptions{Steps: 5,
		OnStep: func(k int, s *lsys.String) error {
			if calls++; k == 2 {
				return stop
			}
			return nil
		}})
	if !errors.Is(err, stop) || calls != 3 {
		t.Errorf("OnStep error: %v after %d calls", err, calls)
	}
}

func TestStepStatsJSON(t *testing.T) {
	b, err := json.Marshal(lsys.StepStats{Step: 1, Modules: 2, Params: 3})
	if err != nil || string(b) != `{"step":1,"modules":2,"params":3}` {
		t.Errorf("%s %v", b, err)
	}
}
