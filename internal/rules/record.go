package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/procgen-dev/procgen/internal/rules/bytecode"
)

// Recorded observables (rules run --record): a reduction over one field of
// every state of the run, after every step and before the first, kept in
// O(steps) memory. The text is REDUCE(FIELD) or REDUCE(FIELD CMP NUMBER):
//
//	sum(c)  count(c == 1)  mean(mass)  min(v)  max(v > 0.5)
//
// sum adds the elements, count counts the non-zero ones (or those that
// compare true), mean is sum over the number of elements, min and max the
// extremes; with a comparison each element is 1 where it holds, else 0.

// Reduce is an observable's reduction.
type Reduce int

const (
	ReduceSum Reduce = iota
	ReduceCount
	ReduceMean
	ReduceMin
	ReduceMax
)

var reduceNames = []string{"sum", "count", "mean", "min", "max"}

// Observable is one parsed --record expression.
type Observable struct {
	Text   string
	Reduce Reduce
	Field  int
	Cmp    string  // "", "==", "!=", "<", "<=", ">", ">="
	Than   float64 // the comparison's right-hand side
}

// ParseObservable parses text against p's fields. Errors name the column
// (1-based) of text and what was expected.
func ParseObservable(p *Program, text string) (Observable, error) {
	o := Observable{Text: text}
	fail := func(at int, format string, args ...any) (Observable, error) {
		return Observable{}, fmt.Errorf("--record %q: column %d: %s", text, at+1, fmt.Sprintf(format, args...))
	}
	s := strings.TrimSpace(text)
	lead := len(text) - len(strings.TrimLeft(text, " \t"))
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return fail(lead, "want REDUCE(FIELD) or REDUCE(FIELD CMP NUMBER), REDUCE one of %s", strings.Join(reduceNames, ", "))
	}
	name := strings.TrimSpace(s[:open])
	o.Reduce = -1
	for k, n := range reduceNames {
		if n == name {
			o.Reduce = Reduce(k)
		}
	}
	if o.Reduce < 0 {
		return fail(lead, "unknown reduction %q: want one of %s", name, strings.Join(reduceNames, ", "))
	}
	inner := s[open+1 : len(s)-1]
	at := lead + open + 1
	field, rest := inner, ""
	for _, op := range []string{"==", "!=", "<=", ">=", "<", ">"} {
		if k := strings.Index(inner, op); k >= 0 {
			field, rest, o.Cmp = inner[:k], strings.TrimSpace(inner[k+len(op):]), op
			break
		}
	}
	fname := strings.TrimSpace(field)
	if fname == "" {
		return fail(at, "want a field name")
	}
	o.Field = p.FieldByName(fname)
	if o.Field < 0 {
		names := make([]string, len(p.Fields))
		for k, f := range p.Fields {
			names[k] = f.Name
		}
		return fail(at+strings.Index(field, fname), "unknown field %q (fields: %s)", fname, strings.Join(names, ", "))
	}
	if o.Cmp != "" {
		v, err := strconv.ParseFloat(rest, 64)
		if err != nil {
			return fail(at+strings.Index(inner, rest), "want a number after %s, not %q", o.Cmp, rest)
		}
		o.Than = v
	}
	return o, nil
}

// IntValued says whether the observable's values are integers (printed
// without a fraction).
func (o Observable) IntValued(p *Program) bool {
	return o.Reduce != ReduceMean && (o.Cmp != "" || o.Reduce == ReduceCount || p.Fields[o.Field].Type == Int)
}

// Acc accumulates an observable over elements; accumulators of parts of a
// run merge (Multi).
type Acc struct {
	Sum      float64 // exact for int fields while below 2^53
	N        int64   // elements seen
	Min, Max float64
}

func (a *Acc) merge(b Acc) {
	if b.N == 0 {
		return
	}
	if a.N == 0 {
		*a = b
		return
	}
	a.Sum += b.Sum
	a.N += b.N
	a.Min, a.Max = math.Min(a.Min, b.Min), math.Max(a.Max, b.Max)
}

// Value is the observable's value from its accumulator (NaN for the
// mean, minimum or maximum of nothing).
func (o Observable) Value(a Acc) float64 {
	switch o.Reduce {
	case ReduceSum, ReduceCount:
		return a.Sum
	case ReduceMean:
		if a.N == 0 {
			return math.NaN()
		}
		return a.Sum / float64(a.N)
	case ReduceMin:
		if a.N == 0 {
			return math.NaN()
		}
		return a.Min
	}
	if a.N == 0 {
		return math.NaN()
	}
	return a.Max
}

// element is the value one element contributes.
func (o Observable) element(p *Program, w uint32) float64 {
	var x float64
	if p.Fields[o.Field].Type == Float {
		x = float64(bytecode.F32(w))
	} else {
		x = float64(int32(w))
	}
	if o.Cmp == "" {
		if o.Reduce == ReduceCount {
			return float64(bytecode.B2U(x != 0))
		}
		return x
	}
	var ok bool
	switch o.Cmp {
	case "==":
		ok = x == o.Than
	case "!=":
		ok = x != o.Than
	case "<":
		ok = x < o.Than
	case "<=":
		ok = x <= o.Than
	case ">":
		ok = x > o.Than
	default:
		ok = x >= o.Than
	}
	return float64(bytecode.B2U(ok))
}

// AccOf is the accumulator of elements of o's field that hold the word
// words[i] counts[i] times each, as observe would make it over those
// elements (the same bits where the elements are small integers, as the
// 0s and 1s of a two-state board): for engines that count a field's cells
// by value rather than walk them (the bit-packed kernel's population).
func (o Observable) AccOf(p *Program, words []uint32, counts []int64) Acc {
	a := Acc{Min: math.Inf(1), Max: math.Inf(-1)}
	for i, w := range words {
		if counts[i] == 0 {
			continue
		}
		x := o.element(p, w)
		a.Sum += x * float64(counts[i])
		a.N += counts[i]
		a.Min, a.Max = math.Min(a.Min, x), math.Max(a.Max, x)
	}
	return a
}

// observe adds one state's elements (its words) to a.
func (o Observable) observe(p *Program, words []uint32, a *Acc) {
	f := p.Fields[o.Field]
	var b Acc
	b.Min, b.Max = math.Inf(1), math.Inf(-1)
	for _, w := range words[f.Off : f.Off+f.Size] {
		x := o.element(p, w)
		b.Sum += x
		b.Min, b.Max = math.Min(b.Min, x), math.Max(b.Max, x)
	}
	b.N = int64(f.Size)
	a.merge(b)
}

// recorder keeps the observables' accumulators of every step (0..steps),
// shared by the workers behind striped locks. A state that stops early
// (its fixed point) holds its values for the steps it skips: they go into
// tail, added to that step and every later one when the run ends.
type recorder struct {
	p     *Program
	obs   []Observable
	rows  [][]Acc // [step][observable]
	tail  [][]Acc
	locks [64]sync.Mutex
}

func newRecorder(p *Program, obs []Observable, steps int) *recorder {
	if len(obs) == 0 {
		return nil
	}
	r := &recorder{p: p, obs: obs, rows: make([][]Acc, steps+1), tail: make([][]Acc, steps+2)}
	for t := range r.rows {
		r.rows[t] = make([]Acc, len(obs))
	}
	return r
}

func (r *recorder) add(rows [][]Acc, t int, words []uint32) {
	if t >= len(rows) {
		return
	}
	var accs [8]Acc
	local := accs[:0]
	for _, o := range r.obs {
		var a Acc
		o.observe(r.p, words, &a)
		local = append(local, a)
	}
	mu := &r.locks[t%len(r.locks)]
	mu.Lock()
	defer mu.Unlock()
	if rows[t] == nil {
		rows[t] = make([]Acc, len(r.obs))
	}
	for k := range local {
		rows[t][k].merge(local[k])
	}
}

// observe records a state's words after step t (0: the initial state).
func (r *recorder) observe(t int, words []uint32) {
	if r != nil {
		r.add(r.rows, t, words)
	}
}

// hold records a state's words for step t and every later one.
func (r *recorder) hold(t int, words []uint32) {
	if r != nil {
		r.add(r.tail, t, words)
	}
}

// result folds the tails in: the accumulators of steps 0..steps.
func (r *recorder) result() [][]Acc {
	if r == nil {
		return nil
	}
	run := make([]Acc, len(r.obs))
	for t := range r.rows {
		if r.tail[t] != nil {
			for k := range run {
				run[k].merge(r.tail[t][k])
			}
		}
		for k := range run {
			r.rows[t][k].merge(run[k])
		}
	}
	return r.rows
}

// joinRecords merges parts' records step by step; a part that stopped
// sooner (every state at its fixed point) holds its last row.
func joinRecords(parts [][][]Acc) [][]Acc {
	n := 0
	for _, r := range parts {
		n = max(n, len(r))
	}
	if n == 0 {
		return nil
	}
	out := make([][]Acc, n)
	for t := range out {
		for _, r := range parts {
			if len(r) == 0 {
				continue
			}
			row := r[min(t, len(r)-1)]
			if out[t] == nil {
				out[t] = make([]Acc, len(row))
			}
			for k := range row {
				out[t][k].merge(row[k])
			}
		}
	}
	return out
}
