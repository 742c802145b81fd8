package imgdiff

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

func TestMetricsJSON(t *testing.T) {
	tests := []struct {
		name string
		m    Metrics
		want string
	}{
		{
			name: "identical",
			m:    Metrics{PSNR: math.Inf(1), SSIM: 1, Width: 4, Height: 3},
			want: `{"mad":0,"psnr":null,"ssim":1,"max_diff":0,"width":4,"height":3,"identical":true}`,
		},
		{
			name: "different",
			m:    Metrics{MAD: 0.25, PSNR: 31.5, SSIM: 0.875, MaxDiff: 0.5, Width: 2, Height: 1},
			want: `{"mad":0.25,"psnr":31.5,"ssim":0.875,"max_diff":0.5,"width":2,"height":1,"identical":false}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Marshal = %s, want %s", got, tt.want)
			}
			// Through a pointer too, as when the metrics sit in a report.
			if _, err := json.Marshal(&tt.m); err != nil {
				t.Fatal(err)
			}
			var back Metrics
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			if back != tt.m {
				t.Errorf("round trip = %+v, want %+v", back, tt.m)
			}
		})
	}
}

func TestThresholdsCheck(t *testing.T) {
	m := Metrics{MAD: 0.0123, PSNR: 31.25, SSIM: 0.95}
	tests := []struct {
		name string
		t    Thresholds
		m    Metrics
		want []string
	}{
		{name: "nothing checked", t: Thresholds{}, m: m},
		{name: "all pass", t: Thresholds{MaxMAD: 0.02, MinPSNR: 30, MinSSIM: 0.9}, m: m},
		{name: "limits are inclusive", t: Thresholds{MaxMAD: 0.0123, MinPSNR: 31.25, MinSSIM: 0.95}, m: m},
		{
			name: "mad",
			t:    Thresholds{MaxMAD: 0.01},
			m:    m,
			want: []string{"mad 0.0123 > max 0.01"},
		},
		{
			name: "all fail",
			t:    Thresholds{MaxMAD: 0.01, MinPSNR: 40, MinSSIM: 0.99},
			m:    m,
			want: []string{"mad 0.0123 > max 0.01", "psnr 31.25 dB < min 40 dB", "ssim 0.95 < min 0.99"},
		},
		{
			name: "identical passes any psnr",
			t:    Thresholds{MinPSNR: 1000},
			m:    Metrics{PSNR: math.Inf(1), SSIM: 1},
		},
		{
			name: "nan fails",
			t:    Thresholds{MaxMAD: 0.01, MinSSIM: 0.5},
			m:    Metrics{MAD: math.NaN(), PSNR: 50, SSIM: math.NaN()},
			want: []string{"mad NaN > max 0.01", "ssim NaN < min 0.5"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.t.Check(tt.m)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Check = %q, want %q", got, tt.want)
			}
		})
	}
}
