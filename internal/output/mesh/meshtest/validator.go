package meshtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ValidateGLB runs the Khronos glTF validator on glb when it is installed —
// gltf_validator on PATH, or node with the npm package gltf-validator under
// GLTF_VALIDATOR_NODE_PATH or npm's global root (`npm install -g
// gltf-validator`, as .ci/run does) — and fails t on any error, and with
// noWarnings on any warning too. Where no validator can be found it logs
// so and returns: the tests that call it skip that check cleanly.
func ValidateGLB(t testing.TB, glb []byte, noWarnings bool) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "t.glb")
	if err := os.WriteFile(f, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	found, report, err := Validate(f, noWarnings)
	switch {
	case !found:
		t.Log("no glTF validator (gltf_validator, or node and npm's gltf-validator): skipped")
	case err != nil:
		t.Fatalf("%v\n%s", err, report)
	}
}

// Validate runs the Khronos glTF validator, as ValidateGLB finds it, on the
// glTF file at path: found is false where there is none; otherwise err
// says the file has errors (or, with noWarnings, warnings) or the validator
// failed, and report is what it printed.
func Validate(path string, noWarnings bool) (found bool, report []byte, err error) {
	if exe, err := exec.LookPath("gltf_validator"); err == nil {
		out, err := exec.Command(exe, "-r", "-o", path).CombinedOutput()
		bad := !bytes.Contains(out, []byte(`"numErrors": 0`)) || noWarnings && !bytes.Contains(out, []byte(`"numWarnings": 0`))
		if err == nil && bad {
			err = errors.New("issues reported")
		}
		if err != nil {
			return true, out, fmt.Errorf("gltf_validator: %w", err)
		}
		return true, out, nil
	}
	node, err := exec.LookPath("node")
	mods := nodeModules()
	if _, e := os.Stat(filepath.Join(mods, "gltf-validator")); err != nil || mods == "" || e != nil {
		return false, nil, nil
	}
	limit := "r.issues.numErrors"
	if noWarnings {
		limit += " + r.issues.numWarnings"
	}
	script := `const v = require('gltf-validator'); const fs = require('fs');
v.validateBytes(new Uint8Array(fs.readFileSync(process.argv[1]))).then(r => {
  console.log(JSON.stringify(r.issues)); process.exit(` + limit + ` > 0 ? 1 : 0);
}).catch(e => { console.error(e); process.exit(2); });`
	cmd := exec.Command(node, "-e", script, path)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return true, out, fmt.Errorf("gltf-validator: %w", err)
	}
	return true, out, nil
}

// nodeModules is where node finds gltf-validator: GLTF_VALIDATOR_NODE_PATH,
// else npm's global root, else "".
func nodeModules() string {
	if mods := os.Getenv("GLTF_VALIDATOR_NODE_PATH"); mods != "" {
		return mods
	}
	if npm, err := exec.LookPath("npm"); err == nil {
		if out, err := exec.Command(npm, "root", "-g").Output(); err == nil {
			return strings.TrimSpace(string(out))
		}
	}
	return ""
}
