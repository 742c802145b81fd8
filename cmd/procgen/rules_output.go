package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/phase"
	"github.com/procgen-dev/procgen/internal/rules"
)

// writeRulesOutputs commits every output of a run at once: the states
// (JSON, CSV, PNG or RLE), --stats, --trace-out and --record-out.
func (a *app) writeRulesOutputs(ctx context.Context, plan *output.Plan, out, format string, o rulesOptions,
	prog *rules.Program, st *rules.States, res *rules.Result, doc *rulesDoc) error {
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
		writes = append(writes, rulesRecordWrite(o.RecordOut, prog, doc))
	}
	if out == "" {
		out = output.Stdout
	}
	if format == "png" {
		bw, err := rulesBoardWrite(ctx, out, prog, st)
		if err != nil {
			return err
		}
		writes = append(writes, bw)
	} else if format == "rle" {
		writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error {
			return rules.WriteRLE(w, prog, st.State(0))
		}})
	} else if format == "csv" {
		header := prog.Columns()
		if doc.StableAt != nil {
			header = append(header, "stable_at")
		}
		writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error {
			return output.EncodeCSV(w, header, func(emit func([]string) error) error {
				var rec []string
				for s := range st.N {
					rec = prog.CSVRecord(st.State(s), rec)
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
		writes = append(writes, output.Write{Path: out, Func: func(w io.Writer) error { return encodeRulesDoc(w, doc, prog, st) }})
	}
	phase.Enter(ctx, "write")
	if err := plan.Commit(ctx, writes); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	return nil
}

// encodeRulesDoc writes the summary indented and then the states, one a line.
func encodeRulesDoc(w io.Writer, doc *rulesDoc, prog *rules.Program, st *rules.States) error {
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
