package flame

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (refused when CI is set)")

func TestCUDAIDsHeaderUpToDate(t *testing.T) {
	const path = "../../cuda/flame_ids.cuh"
	want := CUDAIDsHeader()
	if *update {
		if os.Getenv("CI") != "" {
			t.Fatal("-update is refused under CI")
		}
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run go test ./internal/flame -run TestCUDAIDs -update", path)
	}
}
