package pgajob

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/input"
	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output/mesh"
	"github.com/procgen-dev/procgen/internal/pga"
)

// loadAssets reads every mesh (OBJ or GLB) the grammar's I operations name before any
// work: a missing, unreadable or malformed file is the grammar's error, at
// the operation's place (exit 2). Asset files are bounded as lsys surface
// files are (small inputs read whole).
func loadAssets(ctx context.Context, g *pga.Grammar) error {
	for i, a := range g.Assets {
		data, err := input.ReadFile(ctx, a.Path, input.Palette)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return job.AsUsage(fmt.Errorf("pga: %s: asset: %w", a.Pos, err))
		}
		var s *mesh.Shape
		if strings.EqualFold(filepath.Ext(a.Path), ".glb") {
			s, err = mesh.ReadGLB(a.Path, data, input.Beside(ctx, a.Path, input.Palette))
		} else {
			s, err = mesh.ReadOBJ(a.Path, bytes.NewReader(data))
		}
		if err == nil {
			err = g.SetAssetShape(i, s)
		}
		if err != nil {
			return job.AsUsage(fmt.Errorf("pga: %s: asset: %w", a.Pos, err))
		}
	}
	return nil
}
