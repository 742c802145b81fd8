package fit

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteSpecies writes estimates as a species file forest disperse reads
// (forest.ParseSpecies), one entry per estimate, with each parameter's
// interval as a comment, and NB's k as the clumping of realised counts.
// header lines become comments at the top.
func WriteSpecies(w io.Writer, header []string, est []*Estimate) error {
	var b strings.Builder
	for _, h := range header {
		fmt.Fprintf(&b, "# %s\n", h)
	}
	b.WriteString("species:\n")
	for _, e := range est {
		s := e.Species
		fmt.Fprintf(&b, "  %s:\n", strconv.Quote(s.Name))
		fmt.Fprintf(&b, "    # log-likelihood %.6g, AIC %.6g, %s counts\n", e.LL, e.AIC, e.Counts)
		fmt.Fprintf(&b, "    kernel: %s\n", s.Kernel)
		kind := "profile interval"
		if e.Bootstrap > 0 {
			kind = fmt.Sprintf("profile interval, cut-off from %d bootstrap samples", e.Bootstrap)
		}
		interval := map[string]string{}
		for _, p := range e.Params {
			interval[p.Name] = fmt.Sprintf("  # 95%% %s %s", kind, p.Interval())
		}
		fmt.Fprintf(&b, "    str: %s%s\n", num(s.STR), interval["str"])
		fmt.Fprintf(&b, "    beta: %s%s\n", num(s.Beta), interval["beta"])
		fam, err := familyOf(s.Kernel)
		if err != nil {
			return err
		}
		// The family's own keys, whatever coordinates the search used.
		for i, v := range fam.get(s) {
			fmt.Fprintf(&b, "    %s: %s%s\n", fam.names[i], num(v), interval[fam.names[i]])
		}
		fmt.Fprintf(&b, "    min_dbh: %s\n", num(s.MinDBH))
		if e.Counts == NegBinom {
			// The NB's k, which forest disperse --realize draws its counts
			// with, so that a fitted file realises the model it came from.
			fmt.Fprintf(&b, "    clumping: %s%s\n", num(e.K), interval["k"])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// num writes a parameter with every digit float64 needs, so that the file
// gives disperse the very model the fit found.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Interval is "[lo, hi]", with "<=" or ">=" where it reached the search
// box.
func (p Param) Interval() string {
	lo, hi := fmt.Sprintf("%.4g", p.Lo), fmt.Sprintf("%.4g", p.Hi)
	if p.LoOpen {
		lo = "<=" + lo
	}
	if p.HiOpen {
		hi = ">=" + hi
	}
	return "[" + lo + ", " + hi + "]"
}
