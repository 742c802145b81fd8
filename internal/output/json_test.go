package output

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEncodeJSON(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		want    string
		wantErr bool
	}{
		{
			name: "indented with trailing newline",
			v: struct {
				Name  string `json:"name"`
				Sizes []int  `json:"sizes"`
			}{"tree", []int{1, 2}},
			want: "{\n  \"name\": \"tree\",\n  \"sizes\": [\n    1,\n    2\n  ]\n}\n",
		},
		{name: "html characters kept", v: "F[+F]<&>", want: "\"F[+F]<&>\"\n"},
		{name: "scalar", v: 1.5, want: "1.5\n"},
		{name: "unsupported value", v: math.Inf(1), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := EncodeJSON(&buf, tt.v)
			if tt.wantErr {
				if err == nil {
					t.Fatal("EncodeJSON succeeded")
				}
			} else if err != nil {
				t.Fatal(err)
			} else if buf.String() != tt.want {
				t.Errorf("EncodeJSON = %q, want %q", buf.String(), tt.want)
			}

			dir := t.TempDir()
			path := filepath.Join(dir, "v.json")
			err = WriteJSON(path, tt.v)
			if tt.wantErr {
				if err == nil {
					t.Fatal("WriteJSON succeeded")
				}
				assertOnly(t, dir, false, "")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			assertFile(t, path, tt.want)
		})
	}
}

func assertFile(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s:\n%s\nwant:\n%s", filepath.Base(path), got, want)
	}
	if strings.Contains(string(got), "\r") {
		t.Errorf("%s contains CR", path)
	}
}
