// Command mathgen prints the constants of internal/lsys's deterministic math
// functions as a Go const block (for mathconst.go) and as C #defines (for
// cuda/lsys_math_consts.cuh).
package main

import (
	"fmt"
	"os"

	"github.com/procgen-dev/procgen/internal/lsys/internal/mathgen"
)

func main() {
	if err := mathgen.Print(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mathgen:", err)
		os.Exit(1)
	}
}
