package output

import (
	"path/filepath"
	"strings"
)

// MTLPath is where a mesh's material library goes beside objPath: the same
// name with the extension replaced by .mtl. The plan checks it with the
// run's other outputs, so it lives here rather than in output/mesh.
func MTLPath(objPath string) string {
	return strings.TrimSuffix(objPath, filepath.Ext(objPath)) + ".mtl"
}
