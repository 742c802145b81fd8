package progtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
	"github.com/procgen-dev/procgen/internal/rules/lang"
)

// CompileConfig compiles the shipped rule file configs/rules/NAME with
// defines, failing t when it cannot. The file is looked for from the
// working directory upwards: a package's directory (go test) or the
// repository root (a test binary run on the GPU machine). The program
// records the path as found, relative ("../../configs/rules/life.rules"),
// which generated code embeds.
func CompileConfig(t testing.TB, name string, defines map[string]string) *bytecode.Program {
	t.Helper()
	rel := filepath.Join("configs", "rules", name)
	path := rel
	for up := 0; up < 8; up++ {
		if _, err := os.Stat(path); err == nil {
			break
		}
		path = filepath.Join("..", path)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	p, err := lang.Compile(path, src, defines)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// CompileSrc compiles src as the rule file "test.rules", failing t when it
// cannot.
func CompileSrc(t testing.TB, src string) *bytecode.Program {
	t.Helper()
	p, err := lang.Compile("test.rules", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
