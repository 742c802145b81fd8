package pga

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/pga/skeleton"
)

// cgalFace is one face of CGAL's skeleton: the contour edge a->b that
// sweeps it and its corners.
type cgalFace struct {
	a, b    [2]float64
	corners [][2]float64
}

// cgalSkeleton is CGAL's answer for one polygon (ok false: CGAL gave none).
type cgalSkeleton struct {
	ok    bool
	faces []cgalFace
	maxT  float64
	// insets are the areas of CGAL's offset polygons at cgalInsets,
	// outsets those of the polygon grown by them.
	insets, outsets []float64
}

// cgalInsets are the distances (m) at which the insets are compared.
var cgalInsets = []float64{0.5, 1.5, 3, 5}

// TestSkeletonAgainstCGAL compares the straight skeleton's roof with
// CGAL's (bin/cgal-skeleton, built by scripts/cgal-skeleton.sh; the test
// skips without it, or set PROCGEN_CGAL_SKELETON to another build): for
// every polygon the heights of the two roofs (the distance of a point to
// the line of the edge whose face holds it) agree to a micrometre on a grid
// of points inside it, and so do the roofs' tops. The polygons are the
// rounded-arm lots that once stopped the wavefront, the L, U and courtyard
// lots of scripts/polygon-lots.sh, and random star-shaped polygons with
// many reflex corners, all rounded to millimetres.
func TestSkeletonAgainstCGAL(t *testing.T) {
	exe := os.Getenv("PROCGEN_CGAL_SKELETON")
	if exe == "" {
		exe = "../../bin/cgal-skeleton"
	}
	if _, err := os.Stat(exe); err != nil {
		t.Skipf("no CGAL reference (%v): scripts/cgal-skeleton.sh builds it", err)
	}
	polys := cgalPolys()
	in := cgalRequest(polys)
	cmd := exec.Command(exe)
	cmd.Stdin = in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	refs, err := parseCGAL(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != len(polys) {
		t.Fatalf("CGAL answered %d polygons of %d", len(refs), len(polys))
	}
	compared, oursFailed := 0, 0
	var cgalFailed []string
	worst, worstName, worstTop, worstTopName := 0.0, "", 0.0, ""
	worstInset, worstInsetName := 0.0, ""
	worstOutset, worstOutsetName := 0.0, ""
	for i, p := range polys {
		ours, err := skeleton.Compute(p.rings[0], p.rings[1:], nil)
		ref := refs[i]
		switch {
		case err != nil && ref.ok:
			oursFailed++
			t.Errorf("%s: CGAL builds a skeleton, ours fails: %v", p.name, err)
			continue
		case !ref.ok:
			cgalFailed = append(cgalFailed, p.name)
			continue
		}
		compared++
		// The skeleton takes edges within a sine of 1e-6 of antiparallel
		// as a spike (skeleton.bisect), which moves events by up to that
		// much of the polygon's size.
		tol := 1e-6 * diameter(p.rings[0])
		top := math.Abs(ours.MaxT() - ref.maxT)
		if top > worstTop {
			worstTop, worstTopName = top, p.name
		}
		if top > tol {
			t.Errorf("%s: roof top %.9g, CGAL's %.9g", p.name, ours.MaxT(), ref.maxT)
		}
		if len(ref.insets) != len(cgalInsets) {
			t.Fatalf("%s: %d inset areas from CGAL, want %d", p.name, len(ref.insets), len(cgalInsets))
		}
		if diff, at := insetDifference(t, p, ref, tol); diff > worstInset {
			worstInset, worstInsetName = diff, fmt.Sprintf("%s at %g m", p.name, at)
		}
		if diff, at := outsetDifference(t, p.name, p.rings, ref, tol); diff > worstOutset {
			worstOutset, worstOutsetName = diff, fmt.Sprintf("%s at %g m", p.name, at)
		}
		d, missed := roofDifference(p.rings, ours, ref)
		if missed > 0 {
			t.Errorf("%s: %d sample points in no face of one of the skeletons", p.name, missed)
		}
		if d > worst {
			worst, worstName = d, p.name
		}
		if d > tol {
			t.Errorf("%s: the roofs differ by %.3g m at some point", p.name, d)
		}
	}
	t.Logf("%d polygons compared with CGAL (CGAL could not skeletonize %v; ours could not %d); largest difference "+
		"of the tops %.3g m (%s), of the heights at sample points %.3g m (%s), of the insets' areas %.3g m^2 (%s), of the outsets' %.3g m^2 (%s)",
		compared, cgalFailed, oursFailed, worstTop, worstTopName, worst, worstName, worstInset, worstInsetName,
		worstOutset, worstOutsetName)
	if compared < len(polys)*9/10 {
		t.Errorf("only %d of %d polygons compared", compared, len(polys))
	}
}

// cgalPoly is a polygon TestSkeletonAgainstCGAL hands CGAL: its outer ring,
// then its holes.
type cgalPoly struct {
	name  string
	rings [][][2]float64
}

// cgalPolys is what TestSkeletonAgainstCGAL compares: three rounded arms
// of real footprints, lots of the three shapes (L, courtyard, U) turned at
// random, and random star-shaped rings, to the millimetre.
func cgalPolys() []cgalPoly {
	var polys []cgalPoly
	for i, p := range [][][2]float64{
		{{2504.483, 110.934}, {2521.722, 88.969}, {2529.512, 95.083}, {2517.962, 109.799}, {2532.05, 120.856}, {2526.361, 128.105}},
		{{2055.001, 459.82}, {2059.052, 489.24}, {2031.065, 493.093}, {2029.564, 482.189}, {2047.255, 479.753}, {2046.207, 472.142}, {2028.516, 474.578}, {2027.014, 463.673}},
		{{1145.911, 2219.488}, {1163.102, 2200.05}, {1169.711, 2205.895}, {1159.046, 2217.954}, {1172.326, 2229.699}, {1165.8, 2237.079}},
	} {
		polys = append(polys, cgalPoly{fmt.Sprintf("rounded arm %d", i), [][][2]float64{p}})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	mm := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	n := 600
	if testing.Short() {
		n = 150
	}
	for k := range n {
		w, d := 24+6*rng.Float64(), 24+6*rng.Float64()
		a, b := 8+4*rng.Float64(), 8+4*rng.Float64()
		outer, holes := lotShape(k%3, w, d, a, b)
		turn := 2 * math.Pi * rng.Float64()
		c, s := math.Cos(turn), math.Sin(turn)
		place := func(ring [][2]float64) [][2]float64 {
			out := make([][2]float64, len(ring))
			for i, p := range ring {
				out[i] = [2]float64{mm(500 + p[0]*c - p[1]*s), mm(500 + p[0]*s + p[1]*c)}
			}
			return out
		}
		rings := [][][2]float64{place(outer)}
		for _, h := range holes {
			rings = append(rings, place(h))
		}
		polys = append(polys, cgalPoly{fmt.Sprintf("lot %d", k), rings})
	}
	for k := range n {
		m := 5 + rng.IntN(26)
		angles := make([]float64, m)
		for i := range angles {
			angles[i] = 2 * math.Pi * rng.Float64()
		}
		sort.Float64s(angles)
		ring := make([][2]float64, 0, m)
		for i, th := range angles {
			if i > 0 && th-angles[i-1] < 1e-3 {
				continue
			}
			r := 5 + 15*rng.Float64()
			ring = append(ring, [2]float64{mm(100 + r*math.Cos(th)), mm(100 + r*math.Sin(th))})
		}
		polys = append(polys, cgalPoly{fmt.Sprintf("star %d", k), [][][2]float64{ring}})
	}
	return polys
}

// cgalRequest is the reference program's input: the inset distances, then
// each polygon's rings.
func cgalRequest(polys []cgalPoly) *bytes.Buffer {
	in := &bytes.Buffer{}
	fmt.Fprintf(in, "D %d", len(cgalInsets))
	for _, d := range cgalInsets {
		fmt.Fprintf(in, " %g", d)
	}
	fmt.Fprintln(in)
	for _, p := range polys {
		fmt.Fprintf(in, "P %d\n", len(p.rings))
		for _, r := range p.rings {
			fmt.Fprintf(in, "%d\n", len(r))
			for _, v := range r {
				fmt.Fprintf(in, "%.3f %.3f\n", v[0], v[1])
			}
		}
	}
	return in
}

// insetDifference holds skeleton.Offset at each of cgalInsets to CGAL's
// inset areas (each edge may lie tol off CGAL's) and returns the largest
// difference and the distance it is at.
func insetDifference(t *testing.T, p cgalPoly, ref cgalSkeleton, tol float64) (worst, at float64) {
	t.Helper()
	for k, dist := range cgalInsets {
		pieces, err := skeleton.Offset(p.rings[0], p.rings[1:], dist)
		if err != nil {
			t.Errorf("%s: inset %g: %v", p.name, dist, err)
			continue
		}
		area := 0.0 // twice the area
		for _, pc := range pieces {
			area += ringArea(pc.Outer)
			for _, h := range pc.Holes {
				area += ringArea(h) // clockwise: negative
			}
		}
		area /= 2
		diff := math.Abs(area - ref.insets[k])
		if diff > worst {
			worst, at = diff, dist
		}
		// The inset's edges may each lie tol off CGAL's.
		if diff > tol*perimeter(p.rings) {
			t.Errorf("%s: inset %g m has area %.9g, CGAL's %.9g", p.name, dist, area, ref.insets[k])
		}
	}
	return worst, at
}

// outsetDifference holds skeleton.Outset at each of cgalInsets to CGAL's
// grown polygon: the areas agree (each edge may lie tol off CGAL's), and
// the polygon and Outset's strips cover the grown area. It returns the
// largest difference of the areas and the distance where it was.
func outsetDifference(t *testing.T, name string, rings [][][2]float64, ref cgalSkeleton, tol float64) (float64, float64) {
	t.Helper()
	if len(ref.outsets) != len(cgalInsets) {
		t.Fatalf("%s: %d outset areas from CGAL, want %d", name, len(ref.outsets), len(cgalInsets))
	}
	orig := 0.0 // twice the polygon's area
	for k, r := range rings {
		a := math.Abs(ringArea(r))
		if k > 0 {
			a = -a
		}
		orig += a
	}
	worst, at := 0.0, 0.0
	for k, dist := range cgalInsets {
		grown, strips, err := skeleton.Outset(rings[0], rings[1:], dist)
		if err != nil {
			t.Errorf("%s: outset %g: %v", name, dist, err)
			continue
		}
		area, tiles := 0.0, orig // twice the areas
		for _, pc := range grown {
			area += ringArea(pc.Outer)
			for _, h := range pc.Holes {
				area += ringArea(h)
			}
		}
		for _, st := range strips {
			if st != nil {
				tiles += ringArea(st)
			}
		}
		area, tiles = area/2, tiles/2
		diff := math.Abs(area - ref.outsets[k])
		if diff > worst {
			worst, at = diff, dist
		}
		if diff > tol*perimeter(rings) {
			t.Errorf("%s: outset %g m has area %.9g, CGAL's %.9g", name, dist, area, ref.outsets[k])
		}
		if math.Abs(tiles-area) > 1e-9*area {
			t.Errorf("%s: outset %g m: the polygon and its strips cover %.9g of %.9g", name, dist, tiles, area)
		}
	}
	return worst, at
}

// parseCGAL reads bin/cgal-skeleton's output.
func parseCGAL(out []byte) ([]cgalSkeleton, error) {
	var res []cgalSkeleton
	cur := cgalSkeleton{ok: true}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		nums := make([]float64, len(f)-1)
		for i, s := range f[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("cgal-skeleton: %q: %v", sc.Text(), err)
			}
			nums[i] = v
		}
		switch f[0] {
		case "E":
			cur.ok = false
		case "END":
			res = append(res, cur)
			cur = cgalSkeleton{ok: true}
		case "N":
			cur.maxT = math.Max(cur.maxT, nums[2])
		case "A":
			cur.insets = append(cur.insets, nums[1])
		case "O":
			cur.outsets = append(cur.outsets, nums[1])
		case "F":
			face := cgalFace{a: [2]float64{nums[0], nums[1]}, b: [2]float64{nums[2], nums[3]}}
			for i := range int(nums[4]) {
				face.corners = append(face.corners, [2]float64{nums[5+2*i], nums[6+2*i]})
			}
			cur.faces = append(cur.faces, face)
		default:
			return nil, fmt.Errorf("cgal-skeleton: unexpected line %q", sc.Text())
		}
	}
	return res, sc.Err()
}

// roofDifference samples a grid of points inside the polygon and returns
// the largest difference between the two skeletons' heights there, and
// how many points lay in no face of one of them.
func roofDifference(rings [][][2]float64, ours *skeleton.Skeleton, ref cgalSkeleton) (float64, int) {
	lo, hi := ringBox(rings[0])
	worst, missed := 0.0, 0
	const n = 40
	for i := range n {
		for j := range n {
			// Off the grid's regular lattice, so that points seldom sit on
			// face boundaries (where either face's height is the same).
			p := [2]float64{lo[0] + (hi[0]-lo[0])*(float64(i)+0.37)/n, lo[1] + (hi[1]-lo[1])*(float64(j)+0.61)/n}
			if !skeleton.Inside(p, rings[0]) {
				continue
			}
			hole := false
			for _, h := range rings[1:] {
				hole = hole || skeleton.Inside(p, h)
			}
			if hole {
				continue
			}
			h1, ok1 := oursHeight(ours, p)
			h2, ok2 := cgalHeight(ref, p)
			if !ok1 || !ok2 {
				missed++
				continue
			}
			worst = math.Max(worst, math.Abs(h1-h2))
		}
	}
	return worst, missed
}

func oursHeight(s *skeleton.Skeleton, p [2]float64) (float64, bool) {
	for _, f := range s.Faces {
		ring := make([][2]float64, len(f.Nodes))
		for i, k := range f.Nodes {
			ring[i] = s.Nodes[k].P
		}
		if skeleton.Inside(p, ring) {
			return lineDistance(p, ring[0], ring[1]), true
		}
	}
	return 0, false
}

func cgalHeight(s cgalSkeleton, p [2]float64) (float64, bool) {
	for _, f := range s.faces {
		if skeleton.Inside(p, f.corners) {
			return lineDistance(p, f.a, f.b), true
		}
	}
	return 0, false
}

// diameter is the diagonal of ring's bounding box.
func diameter(ring [][2]float64) float64 {
	lo, hi := ringBox(ring)
	return math.Hypot(hi[0]-lo[0], hi[1]-lo[1])
}

// perimeter is the length of every ring.
func perimeter(rings [][][2]float64) float64 {
	l := 0.0
	for _, r := range rings {
		for i, p := range r {
			q := r[(i+1)%len(r)]
			l += math.Hypot(q[0]-p[0], q[1]-p[1])
		}
	}
	return l
}

// lineDistance is p's distance to the line through a and b.
func lineDistance(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	return math.Abs((p[0]-a[0])*dy-(p[1]-a[1])*dx) / math.Hypot(dx, dy)
}
