package cuburn

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/procgen-dev/procgen/internal/flame"

	"github.com/procgen-dev/procgen/internal/input"
)

// Profile is a cuburn render profile (profiles/*.json): output size,
// samples per pixel, frame timing, and multipliers of the genome's filter
// values.
type Profile struct {
	Width, Height int
	// SPP is the base samples per pixel (times the genome's camera.spp): our
	// quality.
	SPP float64
	FPS float64
	// Duration is the seconds of one unit of cuburn's abstract time: an edge
	// of blend.duration d lasts Duration·d seconds.
	Duration float64
	// FrameWidth scales the motion-blur window (1: one frame's time; 0: none).
	FrameWidth float64
	// Start and End select frames as cuburn's profile does (Python slices
	// of the 1-based frame list: frames[:End] then [Start:]); nil is unset.
	Start, End *int
	// Skip renders every (Skip+1)th frame.
	Skip int
	// Shard, when positive, packs frames into video files in cuburn and
	// makes it ignore Start, End and Skip; here only the latter applies.
	Shard float64
	// Filters multiply the genome's filter values, by dotted key
	// ("logscale.brightness").
	Filters map[string]float64
	// Output is the profile's output type (jpeg, png, tiff, x264 ...), for
	// information: the command's -o decides.
	Output string
	// TemporalSamples is the genomes per frame's motion-blur window
	// (cuburn's fixed 1024).
	TemporalSamples int
}

// cbTemporalSamples is cuburn's DevInfo.ntemporal_samples.
const cbTemporalSamples = 1024

// DefaultProfile is cuburn's default profile (specs.profile and its
// builtin 720p): 1280x720, 2000 samples per pixel, 24 fps, 30 s per unit.
func DefaultProfile() Profile {
	return Profile{Width: 1280, Height: 720, SPP: 2000, FPS: 24, Duration: 30, FrameWidth: 1,
		Output: "jpeg", TemporalSamples: cbTemporalSamples, Filters: map[string]float64{}}
}

// ReadProfile reads a profile file; see ParseProfile.
func ReadProfile(path string) (Profile, error) {
	data, err := input.ReadFile(context.Background(), path, input.CuburnJSON)
	if err != nil {
		return Profile{}, fmt.Errorf("flame: %w", err)
	}
	return ParseProfile(data, path)
}

// ParseProfile reads a cuburn profile over the defaults. Unknown keys
// and values of the wrong type are errors with file:line:col.
func ParseProfile(data []byte, name string) (Profile, error) {
	p := DefaultProfile()
	d, err := parseJSON(data, name)
	if err != nil {
		return p, err
	}
	root := d.root
	if root.kind != jObj {
		return p, root.errf("a profile must be an object, got %s", root.kind)
	}
	if t := root.get("type"); t != nil && (t.kind != jStr || t.str != "profile") {
		return p, t.errf(`want "type": "profile"`)
	}
	var leaves []cbLeaf
	cbFlatten(root, "", &leaves)
	for _, l := range leaves {
		s := cbProfileSpec.lookup(strings.Split(l.key, "."))
		if s == nil {
			return p, l.val.errf("unknown profile key %q", l.key)
		}
		if s.kind != cbProfVal {
			continue
		}
		v := l.val
		if v.kind == jNull {
			continue
		}
		if v.kind != jNum {
			return p, v.errf("%s must be a number, got %s", l.key, v.kind)
		}
		f := v.num
		whole := func(lo, hi float64) (int, error) {
			if f != math.Trunc(f) || f < lo || f > hi {
				return 0, v.errf("%s %g: want a whole number in %g..%g", l.key, f, lo, hi)
			}
			return int(f), nil
		}
		positive := func() error {
			if !(f > 0) {
				return v.errf("%s %g: want a positive number", l.key, f)
			}
			return nil
		}
		switch l.key {
		case "width":
			p.Width, err = whole(1, flame.MaxImageSide)
		case "height":
			p.Height, err = whole(1, flame.MaxImageSide)
		case "spp":
			p.SPP, err = f, positive()
		case "fps":
			p.FPS, err = f, positive()
		case "duration":
			p.Duration, err = f, positive()
		case "frame_width":
			p.FrameWidth = f
			if f < 0 {
				err = v.errf("frame_width %g: want 0 or more", f)
			}
		case "start", "end":
			var n int
			n, err = whole(-maxAnimFramesCB, maxAnimFramesCB)
			if l.key == "start" {
				p.Start = &n
			} else {
				p.End = &n
			}
		case "skip":
			p.Skip, err = whole(0, maxAnimFramesCB)
		case "shard":
			p.Shard = f
			if f < 0 {
				err = v.errf("shard %g: want 0 or more", f)
			}
		default: // filters.NAME.PARAM
			p.Filters[strings.TrimPrefix(l.key, "filters.")] = f
		}
		if err != nil {
			return p, err
		}
	}
	if o := root.get("output"); o != nil {
		if t := o.get("type"); t != nil && t.kind == jStr {
			p.Output = t.str
		}
	}
	return p, nil
}

// maxAnimFramesCB bounds frame numbers in profiles.
const maxAnimFramesCB = 1 << 30

// filter is the profile's multiplier for a genome filter value.
func (p *Profile) filter(key string) float64 {
	if f, ok := p.Filters[key]; ok {
		return f
	}
	return 1
}

// FrameCount is cuburn's frame count for an animation of blend duration d:
// round(fps · duration · d) (Python 2 rounds halves away from zero).
func (p *Profile) FrameCount(d float64) int {
	return int(math.Round(p.FPS * p.Duration * d))
}

// FrameTimes is cuburn's enumerate_times for n frames: frame i (1-based)
// is centred at (i - 0.5)/n; without Shard, End, then Start, then Skip
// select frames as Python slices do. It returns the times and frame
// numbers.
func (p *Profile) FrameTimes(n int) (times []float64, numbers []int) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i + 1
	}
	if p.Shard <= 0 {
		if p.End != nil {
			idx = idx[:pySliceIndex(*p.End, len(idx))]
		}
		if p.Start != nil {
			idx = idx[pySliceIndex(*p.Start, len(idx)):]
		}
		var kept []int
		for i := 0; i < len(idx); i += p.Skip + 1 {
			kept = append(kept, idx[i])
		}
		idx = kept
	}
	for _, i := range idx {
		times = append(times, (float64(i)-0.5)/float64(n))
		numbers = append(numbers, i)
	}
	return times, numbers
}

// pySliceIndex is a Python slice bound i on a list of n.
func pySliceIndex(i, n int) int {
	if i < 0 {
		i += n
	}
	return min(max(i, 0), n)
}
