package output

import (
	"bytes"
	"errors"
	"path/filepath"
	"strconv"
	"testing"
)

func TestWriteCSV(t *testing.T) {
	tests := []struct {
		name    string
		header  []string
		rows    func(emit func([]string) error) error
		want    string
		wantErr error // nil: success; errAny: any error
	}{
		{
			name:   "streamed grid",
			header: []string{"x", "y", "value"},
			rows: func(emit func([]string) error) error {
				for y := range 2 {
					for x := range 2 {
						rec := []string{strconv.Itoa(x), strconv.Itoa(y), strconv.Itoa(10*y + x)}
						if err := emit(rec); err != nil {
							return err
						}
					}
				}
				return nil
			},
			want: "x,y,value\n0,0,0\n1,0,1\n0,1,10\n1,1,11\n",
		},
		{
			name:   "quoting",
			header: []string{"rule", "note"},
			rows:   recordsFunc([][]string{{"F -> F[+F],F", `say "hi"`}}),
			want:   "rule,note\n\"F -> F[+F],F\",\"say \"\"hi\"\"\"\n",
		},
		{
			name: "no header, ragged allowed",
			rows: recordsFunc([][]string{{"a"}, {"b", "c"}}),
			want: "a\nb,c\n",
		},
		{
			name:    "ragged record",
			header:  []string{"a", "b"},
			rows:    recordsFunc([][]string{{"1", "2"}, {"3"}}),
			wantErr: errAny,
		},
		{
			name:    "rows error",
			header:  []string{"a"},
			rows:    func(emit func([]string) error) error { _ = emit([]string{"1"}); return errBoom },
			wantErr: errBoom,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t.csv")
			err := WriteCSV(path, tt.header, tt.rows)
			if tt.wantErr != nil {
				if err == nil || (tt.wantErr != errAny && !errors.Is(err, tt.wantErr)) {
					t.Fatalf("WriteCSV error = %v, want %v", err, tt.wantErr)
				}
				assertOnly(t, dir, false, "")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			assertFile(t, path, tt.want)

			var buf bytes.Buffer
			if err := EncodeCSV(&buf, tt.header, tt.rows); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("EncodeCSV = %q, want %q", buf.String(), tt.want)
			}
		})
	}
}

func TestWriteCSVRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	if err := WriteCSVRecords(path, []string{"k", "v"}, [][]string{{"a", "1"}, {"b", "2"}}); err != nil {
		t.Fatal(err)
	}
	assertFile(t, path, "k,v\na,1\nb,2\n")
}

// errAny marks a test case that expects some error without caring which.
var errAny = errors.New("any error")
