package output

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// jpegComments lists the COM segments before the scan of a JPEG, read
// from the segment structure (ITU T.81 B.2), and the marker that follows
// the last one.
func jpegSegments(t *testing.T, data []byte) (comments []string, markers []byte) {
	t.Helper()
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		t.Fatal("no SOI")
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			t.Fatalf("no marker at %d", i)
		}
		m, n := data[i+1], int(data[i+2])<<8|int(data[i+3])
		markers = append(markers, m)
		if m == 0xfe {
			comments = append(comments, string(data[i+4:i+2+n]))
		}
		if m == 0xda {
			break
		}
		i += 2 + n
	}
	return comments, markers
}

// The comments are whole COM segments right after SOI, the image still
// decodes (Go's reader and OpenImageIO's, which reports the first comment
// as the image description), and the pixels are those of a plain encode.
func TestJPEGComments(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	comments := []string{"flam3_version: procgen test", "flam3_genome: <flame name=\"x\">\n</flame>\n", ""}
	var b, plain bytes.Buffer
	if err := EncodeJPEGComments(context.Background(), &b, img, 90, comments); err != nil {
		t.Fatal(err)
	}
	if err := EncodeJPEG(context.Background(), &plain, img, 90); err != nil {
		t.Fatal(err)
	}
	got, markers := jpegSegments(t, b.Bytes())
	if strings.Join(got, "|") != strings.Join(comments, "|") || markers[0] != 0xfe || markers[3] == 0xfe {
		t.Fatalf("comments %q (markers % x), want %q first", got, markers, comments)
	}
	// Removing the segments gives the plain file back: nothing else moved.
	var segs int
	for _, c := range comments {
		segs += 4 + len(c)
	}
	if !bytes.Equal(append(b.Bytes()[:2:2], b.Bytes()[2+segs:]...), plain.Bytes()) {
		t.Error("the file without its comments differs from a plain encode")
	}
	if _, err := jpeg.Decode(bytes.NewReader(b.Bytes())); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c.jpg")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	info := toolOutput(t, "openimageio-tools", "oiiotool", "--info", "-v", path)
	if !strings.Contains(info, `ImageDescription: "flam3_version: procgen test"`) {
		t.Errorf("oiiotool does not see the first comment:\n%s", info)
	}
	if px := oiioPixels(t, path); len(px) != 40*30 {
		t.Errorf("oiiotool read %d pixels, want %d", len(px), 40*30)
	}
}

// flam3-render writes its genome and figures as COM segments of
// "key: value", no NUL, before the quantisation tables: procgen's
// comments have the same form.
func TestJPEGCommentsAsFlam3(t *testing.T) {
	bin, err := exec.LookPath("flam3-render")
	if err != nil {
		t.Skip("flam3-render not on PATH (apt-get install flam3-utils)")
	}
	dir := t.TempDir()
	genome := `<flame size="8 6" center="0 0" scale="2" quality="1" oversample="1" filter="0.5">
<xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/><xform weight="1" color="1" linear="1" coefs="0.5 0 0 0.5 0.5 0"/>
<color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/></flame>`
	cmd := exec.Command(bin)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(genome)
	cmd.Env = append(os.Environ(), "format=jpg", "prefix=f.")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("flam3-render: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "f.00000.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	theirs, _ := jpegSegments(t, data)
	keys := map[string]bool{}
	for _, c := range theirs {
		key, val, ok := strings.Cut(c, ": ")
		if !ok || strings.ContainsRune(c, 0) {
			t.Fatalf("flam3 comment %q is not \"key: value\"", c)
		}
		keys[key] = true
		if key == "flam3_genome" && !strings.HasPrefix(val, "<flame ") {
			t.Errorf("flam3's genome comment starts %q", val[:min(len(val), 20)])
		}
	}
	for _, k := range []string{"flam3_version", "flam3_samples", "flam3_genome"} {
		if !keys[k] {
			t.Errorf("flam3-render wrote no %s comment (comments: %q)", k, theirs)
		}
	}
}

func TestJPEGCommentTooLong(t *testing.T) {
	var b bytes.Buffer
	err := EncodeJPEGComments(context.Background(), &b, image.NewGray(image.Rect(0, 0, 2, 2)), 90,
		[]string{strings.Repeat("x", JPEGMaxComment+1)})
	if err == nil || b.Len() != 0 {
		t.Errorf("a comment over 64 KiB: err %v, %d bytes written", err, b.Len())
	}
}
