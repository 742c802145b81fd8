package rulesjob

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/golly"
	"github.com/procgen-dev/procgen/internal/rules/pattern"
)

// ruleChoice is where the rules come from: a rule file, or a Golly
// notation (--rule, or the rule line of an RLE --states file).
type ruleChoice struct {
	path     string      // the rule file; "" for a notation
	notation *golly.Rule // nil for a rule file
	name     string      // the file, or "rule B3/S23": in messages and the JSON document
	// patternRule is the --states pattern's rule line, which gives a
	// Golly .rule file its grid (WireWorld:T64,64).
	patternRule string
}

// chooseRule decides the rules of a run: the rule file, --rule, or the
// RLE pattern's `rule =` line (Golly's B3/S23 when it has none). --rule
// and a pattern's rule that differ are a usage error; a rule file with a
// pattern that names a rule is run as asked, with a warning (a rule file
// is not a notation, so procgen cannot tell whether they agree).
func chooseRule(env *job.Env, file string, o Options) (ruleChoice, error) {
	given := strings.TrimSpace(o.Rule)
	if file != "" && given != "" {
		return ruleChoice{}, job.Usagef("both a rule file (%s) and --rule %s: give one", file, given)
	}
	rleRule, line, err := patternRule(o.States)
	if err != nil {
		return ruleChoice{}, err
	}
	if file != "" {
		named := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		if rleRule != "" && !(isTable(file) && strings.Split(rleRule, ":")[0] == named) {
			env.Log.Warnf("%s:%d names rule = %s, but the rules come from %s (run the pattern's rule with --rule %s and no rule file)",
				o.States, line, rleRule, file, rleRule)
		}
		return ruleChoice{path: file, name: file, patternRule: rleRule}, nil
	}
	var r golly.Rule
	switch {
	case given != "":
		if r, err = golly.Parse(given); err != nil {
			return ruleChoice{}, job.Usagef("--rule: %v", err)
		}
		if rleRule != "" {
			pr, err := golly.Parse(rleRule)
			if err != nil {
				return ruleChoice{}, job.Usagef("%s:%d: %v", o.States, line, err)
			}
			if !r.SameRule(pr) {
				return ruleChoice{}, job.Usagef("--rule %s conflicts with %s:%d, rule = %s: give the pattern's rule, or leave out --rule to run it", r, o.States, line, pr)
			}
			if r.Topo.W == 0 {
				r.Topo = pr.Topo // the pattern's grid, where --rule names none
			}
		}
	case rleRule != "":
		if r, err = golly.Parse(rleRule); err != nil {
			return ruleChoice{}, job.Usagef("%s:%d: %v", o.States, line, err)
		}
		env.Log.Debugf("rules: %s's rule = %s", o.States, r)
	case isRLE(o.States) || pattern.Format(o.States) != "":
		r, _ = golly.Parse("B3/S23") // Golly's rule for a pattern that names none
		env.Log.Debugf("rules: %s names no rule: B3/S23, as Golly reads it", o.States)
	default:
		return ruleChoice{}, job.Usagef("no rules: give a rule file (RULES.rules), --rule NOTATION (B3/S23) or an RLE pattern (--states x.rle)")
	}
	return ruleChoice{notation: &r, name: "rule " + r.String()}, nil
}

func isRLE(path string) bool { return strings.EqualFold(filepath.Ext(path), ".rle") }

// patternRule is the rule line of a pattern --states file (RLE,
// Macrocell, MCell; none in .cells) and its line.
func patternRule(states string) (string, int, error) {
	if !isRLE(states) && pattern.Format(states) == "" {
		return "", 0, nil
	}
	if err := job.CheckInput("rules: --states", states); err != nil {
		return "", 0, err
	}
	f, err := os.Open(states)
	if err != nil {
		return "", 0, job.AsUsage(fmt.Errorf("states: %w", err))
	}
	defer f.Close()
	var rule string
	var line int
	if isRLE(states) {
		rule, line, err = rules.RLERule(f, states)
	} else if data, rerr := io.ReadAll(f); rerr != nil {
		err = rerr
	} else {
		rule, line, err = patternFileRule(data, states)
	}
	if err != nil {
		return "", 0, fmt.Errorf("rules: states: %w", err)
	}
	return rule, line, nil
}

// compileNotation compiles a notation's rules-language source.
func compileNotation(r golly.Rule, defines map[string]string) (*rules.Program, error) {
	prog, err := golly.Compile(r, defines)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return prog, nil
}

// boardRule is the notation with the grid the run used: a rule without
// a suffix ran on a bounded plane of the board's size (-D W, H), which
// Golly reads as :P<W>,<H> (unbounded, it would run differently).
func boardRule(r golly.Rule, prog *rules.Program) string {
	if b, err := rules.BoardOf(prog); err == nil && (r.Topo.W == 0 || r.Topo.W != b.W || r.Topo.H != b.H) {
		r.Topo.W, r.Topo.H = b.W, b.H
	}
	return r.String()
}
