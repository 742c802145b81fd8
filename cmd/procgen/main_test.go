package main

import (
	"errors"
	"image"
	"image/color"
	_ "image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/procgen-dev/procgen/internal/gpu"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/output/mesh/meshtest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"procgen": func() { os.Exit(processMain()) },
		// procgen, then its peak RSS on stderr (TestMemoryEstimateRSS).
		"procgen-hwm": func() { code := processMain(); reportHWM(os.Stderr); os.Exit(code) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			// Keep the developer's own config and environment out of the tests.
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			// ... and its host calibration (devices --calibrate writes there).
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			// Commands that cannot work on this OS skip the script with it.
			env.Values[scriptTKey{}] = env.T()
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "cuda":
				return gpu.Probe().Available, nil
			case "strace":
				// Installed and allowed to trace (a container may forbid ptrace).
				return exec.Command("strace", "-qq", "-e", "trace=none", "true").Run() == nil, nil
			case "root":
				// Root writes into read-only directories: those tests use /proc.
				return os.Geteuid() == 0, nil
			}
			return false, errors.New("unknown condition " + strconv.Quote(cond))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mkpng":     cmdMkpng,
			"exits":     cmdExits,
			"mkfifo":    cmdMkfifo,
			"emptydir":  cmdEmptydir,
			"isdevice":  cmdIsdevice,
			"imgformat": cmdImgformat,
			"pnghas":    cmdPnghas,
			"pngtext":   cmdPngtext,
			"gltfvalid": cmdGltfvalid,
		},
	})
}

// cmdMkpng writes a PNG of one color: mkpng FILE WIDTH HEIGHT R G B.
func cmdMkpng(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 6 {
		ts.Fatalf("usage: mkpng FILE WIDTH HEIGHT R G B")
	}
	var n [5]int
	for i, s := range args[1:] {
		v, err := strconv.Atoi(s)
		ts.Check(err)
		n[i] = v
	}
	img := image.NewNRGBA(image.Rect(0, 0, n[0], n[1]))
	c := color.NRGBA{uint8(n[2]), uint8(n[3]), uint8(n[4]), 255}
	for y := range n[1] {
		for x := range n[0] {
			img.SetNRGBA(x, y, c)
		}
	}
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(png.Encode(f, img))
	ts.Check(f.Close())
}

// cmdGltfvalid runs the Khronos glTF validator on a file: gltfvalid FILE.
// It fails on any error the validator reports, and skips the rest of the
// script where no validator is installed.
func cmdGltfvalid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gltfvalid FILE")
	}
	found, report, err := meshtest.Validate(ts.MkAbs(args[0]), false)
	if !found {
		ts.Value(scriptTKey{}).(testscript.T).Skip("gltfvalid: no glTF validator (gltf_validator, or node and npm's gltf-validator)")
	}
	if err != nil {
		ts.Fatalf("%s: %v\n%s", args[0], err, report)
	}
}

// cmdExits runs a command and checks its exit code: exits CODE PROG ARGS...
// Its stdout and stderr are then checked like exec's.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// scriptTKey holds a script's testscript.T in its Env.Values.
type scriptTKey struct{}

// cmdMkfifo makes a named pipe: mkfifo PATH. Where there are none in the
// file system (Windows), it skips the script.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	err := makeFifo(ts.MkAbs(args[0]))
	if errors.Is(err, errors.ErrUnsupported) {
		ts.Value(scriptTKey{}).(testscript.T).Skip("mkfifo: no named pipes in the file system on " + runtime.GOOS)
	}
	ts.Check(err)
}

// cmdEmptydir checks that a directory exists and holds nothing, not even a
// hidden temporary file: emptydir DIR.
func cmdEmptydir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: emptydir DIR")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, e := range entries {
		ts.Fatalf("%s is not empty: it holds %s", args[0], e.Name())
	}
}

// cmdIsdevice checks that a path is (still) a character device: isdevice PATH.
func cmdIsdevice(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: isdevice PATH")
	}
	fi, err := os.Lstat(args[0])
	ts.Check(err)
	if is := fi.Mode()&os.ModeCharDevice != 0; is == neg {
		ts.Fatalf("%s: mode %v", args[0], fi.Mode())
	}
}

// cmdImgformat decodes an image and checks its format and, if given, its
// width: imgformat FILE png|jpeg [WIDTH].
func cmdImgformat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: imgformat FILE FORMAT [WIDTH]")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	img, format, err := image.Decode(f)
	ts.Check(err)
	if format != args[1] {
		ts.Fatalf("%s is %s, want %s", args[0], format, args[1])
	}
	if len(args) == 3 && strconv.Itoa(img.Bounds().Dx()) != args[2] {
		ts.Fatalf("%s is %d pixels wide, want %s", args[0], img.Bounds().Dx(), args[2])
	}
}

// cmdPnghas checks that some pixel of the image FILE is exactly the opaque
// colour R G B (with ! that none is): pnghas FILE R G B.
func cmdPnghas(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 4 {
		ts.Fatalf("usage: pnghas FILE R G B")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	img, _, err := image.Decode(f)
	ts.Check(err)
	var want color.NRGBA
	for k, p := range []*uint8{&want.R, &want.G, &want.B} {
		v, err := strconv.ParseUint(args[k+1], 10, 8)
		ts.Check(err)
		*p = uint8(v)
	}
	want.A = 255
	found := false
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y && !found; y++ {
		for x := b.Min.X; x < b.Max.X && !found; x++ {
			found = color.NRGBAModel.Convert(img.At(x, y)) == want
		}
	}
	if found == neg {
		ts.Fatalf("%s: pixel of colour %v found: %v", args[0], want, found)
	}
}

// cmdPngtext writes the text chunk KEY of the PNG FILE (tEXt, zTXt or iTXt)
// to OUT, so that a script can grep a compressed flam3_genome.
func cmdPngtext(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: pngtext FILE KEY OUT")
	}
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	text, err := output.ReadPNGText(f, 1<<24)
	ts.Check(err)
	v, ok := text[args[1]]
	if !ok {
		ts.Fatalf("%s has no %s text chunk", args[0], args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(v), 0o644))
}
