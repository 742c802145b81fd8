package ptxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Assemble writes module to dir/name.ptx and assembles it with ptxas (the
// path to the tool) for sm_90: nil when ptxas takes it, else an error with
// the first lines of what ptxas said.
func Assemble(ptxas, dir, name, module string) error {
	path := filepath.Join(dir, name+".ptx")
	if err := os.WriteFile(path, []byte(module), 0o644); err != nil {
		return err
	}
	out, err := exec.Command(ptxas, "-arch=sm_90", "-o", filepath.Join(dir, name+".cubin"), path).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ptxas: %v\n%s", err, firstLines(string(out), 20))
	}
	return nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
