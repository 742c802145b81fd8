package rulesjob

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
	"github.com/procgen-dev/procgen/internal/rules"
	"github.com/procgen-dev/procgen/internal/rules/golly"
)

// document is the JSON document of a run (-o out.json, or standard output).
type document struct {
	Rules           string    `json:"rules"`
	Device          string    `json:"device"`
	Schedule        string    `json:"schedule,omitempty"`
	Layout          string    `json:"layout,omitempty"`
	Kernel          string    `json:"kernel,omitempty"`
	Seed            *uint64   `json:"seed,omitempty"`
	Mode            string    `json:"mode"`
	Steps           int       `json:"steps"`
	FixpointReached *bool     `json:"fixpoint_reached,omitempty"`
	ComputeSeconds  float64   `json:"compute_s"`
	RuleNames       []string  `json:"rule_names"`
	Fired           [][]int64 `json:"fired_per_step"`
	StableAt        []int32   `json:"stable_at,omitempty"`
	Record          []string  `json:"record,omitempty"`
	Records         []jsonRow `json:"record_per_step,omitempty"`
	States          int       `json:"state_count"`
}

// newDoc is the document of a run on backend (cpu or cuda) that took
// runTime.
func newDoc(env *job.Env, path, backend string, prog *rules.Program, st *rules.States, res *rules.Result,
	o Options, p *plan, runTime time.Duration) document {
	d := document{Rules: path, Device: backend, States: st.N, Steps: res.Steps, Mode: "steps",
		RuleNames: make([]string, len(prog.Rules)), Fired: res.Fired, ComputeSeconds: runTime.Seconds()}
	if backend == "cuda" {
		d.Schedule, d.Layout, d.Kernel = string(p.schedule), string(p.layout), res.Kernel
		switch {
		case res.Tiled: // the states were cut into tiles over every SM, whatever --schedule said
			d.Schedule = "tile"
		case res.Kernel == "packed": // rules/lifepack: a thread per 32 cells, rows of bits
			d.Schedule, d.Layout = "word", "bits"
		}
		switch {
		case strings.HasPrefix(res.KernelNote, "not bit-packed"):
			env.Log.Debugf("rules: %s", res.KernelNote)
		case res.KernelNote != "" && o.Kernel != "interpreter":
			env.Log.Debugf("rules: the bytecode interpreter ran: %s", res.KernelNote)
		}
	}
	if o.UntilFixpoint {
		d.Mode = "until-fixpoint"
		reached := res.FixpointReached
		d.FixpointReached = &reached
		d.StableAt = res.StableAt
	}
	if o.Generate > 0 || prog.Draws {
		seed := env.Seed
		d.Seed = &seed
	}
	for k, r := range prog.Rules {
		d.RuleNames[k] = r.Name
	}
	d.setRecords(prog, p.record, res.Records)
	return d
}

// writeOutputs commits every output of a run at once: the states
// (JSON, CSV, PNG or RLE), --stats, --trace-out and --record-out.
func writeOutputs(ctx context.Context, plan *output.Plan, out, format string, o Options,
	prog *rules.Program, st *rules.States, res *rules.Result, doc *document, notation *golly.Rule) error {
	var writes []output.Write
	if o.Stats != "" {
		writes = append(writes, output.Write{Path: o.Stats, Func: func(w io.Writer) error {
			return output.EncodeCSV(w, []string{"step", "rule", "fired"}, func(emit func([]string) error) error {
				for t, f := range res.Fired {
					for r, n := range f {
						if err := emit([]string{strconv.Itoa(t + 1), prog.Rules[r].Name, strconv.FormatInt(n, 10)}); err != nil {
							return err
						}
					}
				}
				return nil
			})
		}})
	}
	if len(res.Trace) > 0 {
		writes = append(writes, output.Write{Path: o.TraceOut, Func: func(w io.Writer) error {
			for _, tr := range res.Trace {
				line := struct {
					Step   int             `json:"step"`
					State  int             `json:"state"`
					Fired  int64           `json:"fired"`
					Values rules.StateJSON `json:"values"`
				}{tr.Step, tr.State, tr.Fired, rules.StateJSON{P: prog, Words: tr.Words}}
				b, err := jsonLine(line)
				if err != nil {
					return err
				}
				if _, err := w.Write(b); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	if o.RecordOut != "" {
		writes = append(writes, recordWrite(o.RecordOut, prog, doc))
	}
	if out == "" {
		out = output.Stdout
	}
	if format == "png" {
		bw, err := boardWrite(ctx, out, prog, st)
		if err != nil {
			return err
		}
		writes = append(writes, bw)
	} else if format == "rle" {
		writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error {
			if notation != nil { // the pattern names its rule, as Golly's do
				return rules.WriteRLERule(w, prog, st.State(0), boardRule(*notation, prog))
			}
			return rules.WriteRLE(w, prog, st.State(0))
		}})
	} else if format == "cells" || format == "mc" {
		rule, multi := "", false
		if notation != nil {
			rule, multi = boardRule(*notation, prog), notation.States > 2
		}
		writes = append(writes, patternWrite(out, format, prog, st, rule, multi))
	} else if format == "csv" {
		header := rules.Columns(prog)
		if doc.StableAt != nil {
			header = append(header, "stable_at")
		}
		writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error {
			return output.EncodeCSV(w, header, func(emit func([]string) error) error {
				var rec []string
				for s := range st.N {
					rec = rules.CSVRecord(prog, st.State(s), rec)
					if doc.StableAt != nil {
						rec = append(rec, strconv.Itoa(int(doc.StableAt[s])))
					}
					if err := emit(rec); err != nil {
						return err
					}
				}
				return nil
			})
		}})
	} else {
		writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error { return encodeDoc(w, doc, prog, st) }})
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, writes); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	return nil
}

// encodeDoc writes the summary indented and then the states, one a line.
func encodeDoc(w io.Writer, doc *document, prog *rules.Program, st *rules.States) error {
	head, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	head = bytes.TrimSuffix(head, []byte("\n}"))
	bw := bufio.NewWriter(w)
	bw.Write(head)
	bw.WriteString(",\n  \"states\": [")
	for s := range st.N {
		b, err := rules.StateJSON{P: prog, Words: st.State(s)}.MarshalJSON()
		if err != nil {
			return err
		}
		if s > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		// A failed write (Ctrl-C stops the writer under the buffer) ends
		// the loop at once: 10 million states took 90 s to encode for
		// nothing (found by FuzzCommandFlags).
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}
