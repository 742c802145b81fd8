package lsysjob

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/lsys"
	"github.com/procgen-dev/procgen/internal/lsys/turtle"
)

// Report is the JSON statistics output.
type Report struct {
	System     string           `json:"system"`
	Source     string           `json:"source"`
	Backend    string           `json:"backend"`
	Seed       uint64           `json:"seed"`
	Steps      []lsys.StepStats `json:"steps"`
	Total      int64            `json:"total_modules"`
	Final      int64            `json:"final_modules"`
	Geometry   *turtle.Stats    `json:"geometry,omitempty"`
	DeriveMS   float64          `json:"derive_ms"`
	InterpMS   float64          `json:"interpret_ms,omitempty"`
	ModulesPMS float64          `json:"derive_modules_per_ms"`
	setsWidth  bool             // the interpreted string holds '!' or '#'
	text       text             // for .txt outputs
}

func backendName(dev *gpu.Device) string {
	if dev == nil {
		return "cpu"
	}
	return "cuda: " + dev.Info().Name
}

// writeStats prints the per-step lengths and the totals as a table.
func writeStats(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "step\tmodules\tparameters\t\n")
	for _, s := range r.Steps {
		fmt.Fprintf(tw, "%d\t%d\t%d\t\n", s.Step, s.Modules, s.Params)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "total modules written (|w_0|+...+|w_n|): %d\nderivation: %.2f ms on %s (%.0f modules/ms)\n",
		r.Total, r.DeriveMS, r.Backend, r.ModulesPMS)
	if err == nil && r.Geometry != nil {
		_, err = fmt.Fprintf(w, "geometry: %d segments, %d polygons, max depth %d; interpretation %.2f ms\n",
			r.Geometry.Segments, r.Geometry.Polygons, r.Geometry.MaxDepth, r.InterpMS)
	}
	return err
}
