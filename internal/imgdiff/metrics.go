package imgdiff

import (
	"encoding/json"
	"fmt"
	"math"
)

// Metrics describe how far apart two images are. Channel differences are
// on a 0..1 scale, taken over R, G, B and A of every pixel in straight
// alpha.
type Metrics struct {
	// MAD is the mean absolute channel difference, 0..1.
	MAD float64 `json:"mad"`
	// PSNR is the peak signal-to-noise ratio in dB over R, G, B and A with
	// peak 1: -10·log10(mean squared difference). It is +Inf for identical
	// images; see MarshalJSON for how that is written.
	PSNR float64 `json:"psnr"`
	// SSIM is the mean structural similarity of the images' luma
	// (Rec. 709, composited over black), 1 for identical images. Windows
	// are 11x11 Gaussians (sigma 1.5) lying wholly inside the image; an
	// image smaller than that in either direction gets one SSIM computed
	// from global statistics.
	SSIM float64 `json:"ssim"`
	// MaxDiff is the largest absolute channel difference, 0..1.
	MaxDiff float64 `json:"max_diff"`
	Width   int     `json:"width"`
	Height  int     `json:"height"`
}

// Identical reports whether the images had no differing channel value.
func (m Metrics) Identical() bool { return math.IsInf(m.PSNR, 1) }

// metricsJSON is the wire form: JSON has no infinity, so the +Inf PSNR of
// identical images is written as null next to an explicit "identical": true,
// which a CI script can test without knowing that convention.
type metricsJSON struct {
	MAD       float64  `json:"mad"`
	PSNR      *float64 `json:"psnr"`
	SSIM      float64  `json:"ssim"`
	MaxDiff   float64  `json:"max_diff"`
	Width     int      `json:"width"`
	Height    int      `json:"height"`
	Identical bool     `json:"identical"`
}

// MarshalJSON writes the fields under their JSON tags plus "identical";
// for identical images "psnr" is null, as JSON cannot hold +Inf.
func (m Metrics) MarshalJSON() ([]byte, error) {
	w := metricsJSON{MAD: m.MAD, SSIM: m.SSIM, MaxDiff: m.MaxDiff, Width: m.Width, Height: m.Height, Identical: m.Identical()}
	if !w.Identical {
		w.PSNR = &m.PSNR
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads what MarshalJSON writes; a null "psnr" reads as +Inf.
func (m *Metrics) UnmarshalJSON(data []byte) error {
	var w metricsJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*m = Metrics{MAD: w.MAD, PSNR: math.Inf(1), SSIM: w.SSIM, MaxDiff: w.MaxDiff, Width: w.Width, Height: w.Height}
	if w.PSNR != nil {
		m.PSNR = *w.PSNR
	}
	return nil
}

// Thresholds are the limits a comparison must meet to pass. A zero field is
// not checked.
type Thresholds struct {
	MaxMAD  float64 `json:"max_mad"`
	MinPSNR float64 `json:"min_psnr"`
	MinSSIM float64 `json:"min_ssim"`
}

// Check returns one line per threshold m violates, such as
// "mad 0.0123 > max 0.01"; none means m passes. The comparisons are
// written so that a NaN metric fails rather than slipping through.
func (t Thresholds) Check(m Metrics) []string {
	var out []string
	if t.MaxMAD != 0 && !(m.MAD <= t.MaxMAD) {
		out = append(out, fmt.Sprintf("mad %.6g > max %g", m.MAD, t.MaxMAD))
	}
	if t.MinPSNR != 0 && !(m.PSNR >= t.MinPSNR) {
		out = append(out, fmt.Sprintf("psnr %.6g dB < min %g dB", m.PSNR, t.MinPSNR))
	}
	if t.MinSSIM != 0 && !(m.SSIM >= t.MinSSIM) {
		out = append(out, fmt.Sprintf("ssim %.6g < min %g", m.SSIM, t.MinSSIM))
	}
	return out
}
