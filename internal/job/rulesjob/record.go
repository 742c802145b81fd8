package rulesjob

import (
	"io"
	"math"
	"strconv"

	"github.com/procgen-dev/procgen/internal/job"
	"github.com/procgen-dev/procgen/internal/output"
	"github.com/procgen-dev/procgen/internal/rules"
)

// rules run --record EXPR: observables reduced over every state after each
// step (rules.Observable), written into the JSON document
// ("record_per_step", row t after step t, row 0 the initial states) and,
// with --record-out, as CSV: step, then one column per --record.

// observables parses the --record expressions against prog.
func observables(prog *rules.Program, texts []string) ([]rules.Observable, error) {
	var obs []rules.Observable
	for _, t := range texts {
		o, err := rules.ParseObservable(prog, t)
		if err != nil {
			return nil, job.Usagef("%v", err)
		}
		obs = append(obs, o)
	}
	return obs, nil
}

// jsonRow is one step's values: ints exact, NaN (the mean of nothing)
// null.
type jsonRow []any

// recordValues turns accumulators into printable values.
func recordValues(prog *rules.Program, obs []rules.Observable, rows [][]rules.Acc) []jsonRow {
	out := make([]jsonRow, len(rows))
	for t, row := range rows {
		out[t] = make(jsonRow, len(obs))
		for k, o := range obs {
			v := o.Value(row[k])
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				out[t][k] = nil
			case o.IntValued(prog) && math.Abs(v) < 1<<63:
				out[t][k] = int64(v)
			default:
				out[t][k] = v
			}
		}
	}
	return out
}

func (d *document) setRecords(prog *rules.Program, obs []rules.Observable, rows [][]rules.Acc) {
	if len(obs) == 0 {
		return
	}
	for _, o := range obs {
		d.Record = append(d.Record, o.Text)
	}
	d.Records = recordValues(prog, obs, rows)
}

// recordWrite writes the document's records as CSV.
func recordWrite(path string, prog *rules.Program, doc *document) output.Write {
	return output.Write{Path: path, Func: func(w io.Writer) error {
		header := append([]string{"step"}, doc.Record...)
		return output.EncodeCSV(w, header, func(emit func([]string) error) error {
			rec := make([]string, len(header))
			for t, row := range doc.Records {
				recordCells(t, row, rec)
				if err := emit(rec); err != nil {
					return err
				}
			}
			return nil
		})
	}}
}

// recordCells writes step t's row of the record CSV into rec: the step,
// then each value.
func recordCells(t int, row jsonRow, rec []string) {
	rec[0] = strconv.Itoa(t)
	for k, v := range row {
		switch v := v.(type) {
		case nil:
			rec[k+1] = ""
		case int64:
			rec[k+1] = strconv.FormatInt(v, 10)
		case float64:
			rec[k+1] = strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
}
