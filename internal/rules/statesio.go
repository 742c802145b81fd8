package rules

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadStatesJSON reads states: a JSON array of objects, or an object whose
// "states" member is one (what 'procgen rules run -o out.json' writes). Each
// state names every field (fields with a default may be left out): arrays
// as lists of the field's size, scalars as numbers.
func ReadStatesJSON(r io.Reader, name string, p *Program) (*States, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var list []json.RawMessage
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var doc struct {
			States []json.RawMessage `json:"states"`
		}
		if err := json.Unmarshal(trimmed, &doc); err != nil {
			return nil, fmt.Errorf("%s: %v", name, jsonErr(err, data))
		}
		if doc.States == nil {
			return nil, fmt.Errorf("%s: no \"states\" list in the object", name)
		}
		list = doc.States
	} else if err := json.Unmarshal(trimmed, &list); err != nil {
		return nil, fmt.Errorf("%s: %v (want a list of states or an object with \"states\")", name, jsonErr(err, data))
	}
	st := NewStates(p, len(list))
	for s, raw := range list {
		var obj map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(&obj); err != nil || obj == nil {
			return nil, fmt.Errorf("%s: state %d: not an object of fields", name, s)
		}
		w := st.State(s)
		for key := range obj {
			if p.FieldByName(key) < 0 {
				return nil, fmt.Errorf("%s: state %d: unknown field %q (the layout has %s)", name, s, key, fieldList(p))
			}
		}
		for fi := range p.Fields {
			f := &p.Fields[fi]
			v, ok := obj[f.Name]
			if !ok {
				if f.HasDef {
					continue
				}
				return nil, fmt.Errorf("%s: state %d: missing field %q", name, s, f.Name)
			}
			if err := readJSONField(f, v, w[f.Off:f.Off+f.Size]); err != nil {
				return nil, fmt.Errorf("%s: state %d: field %q: %v", name, s, f.Name, err)
			}
		}
	}
	return st, nil
}

func fieldList(p *Program) string {
	names := make([]string, len(p.Fields))
	for k, f := range p.Fields {
		names[k] = f.Name
	}
	return strings.Join(names, ", ")
}

func jsonErr(err error, data []byte) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Errorf("line %d: %v", line, err)
	}
	return err
}

func readJSONField(f *Field, raw json.RawMessage, dst []uint32) error {
	if f.Scalar {
		return readJSONValue(f, raw, &dst[0])
	}
	if ok, err := readJSONList(f, raw, dst); ok {
		return err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("want a list of %d %ss", f.Size, f.Type)
	}
	if len(items) != f.Size {
		return fmt.Errorf("%d values, the layout has %d", len(items), f.Size)
	}
	for k, it := range items {
		if err := readJSONValue(f, it, &dst[k]); err != nil {
			return fmt.Errorf("[%d]: %v", k, err)
		}
	}
	return nil
}

// readJSONList reads a list of plain numbers straight from raw (a valid
// JSON value), without a json.RawMessage per element: a 512x512 board took
// 63 ms to read through encoding/json and is most of what a big board's
// file costs. ok is false where raw holds anything else (a string, a
// nested value, a number ParseValue would refuse or read differently), and
// readJSONField then reads it the general way, which names the fault.
func readJSONList(f *Field, raw json.RawMessage, dst []uint32) (ok bool, err error) {
	b := bytes.TrimSpace(raw)
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return false, nil
	}
	b = b[1 : len(b)-1]
	n := 0
	for len(bytes.TrimSpace(b)) > 0 {
		end := bytes.IndexByte(b, ',')
		if end < 0 {
			end = len(b)
		}
		tok := bytes.TrimSpace(b[:end])
		if n == len(dst) || len(tok) == 0 {
			return false, nil
		}
		v, ok := plainNumber(f, tok)
		if !ok {
			return false, nil
		}
		dst[n] = v
		n++
		if end == len(b) {
			break
		}
		b = b[end+1:]
	}
	if n != len(dst) {
		return true, fmt.Errorf("%d values, the layout has %d", n, len(dst))
	}
	return true, nil
}

// plainNumber reads tok as ParseValue does where that is quick: an int
// field's decimal digits with an optional minus, within int32; a float
// field's token through strconv. Anything else is not ok.
func plainNumber(f *Field, tok []byte) (uint32, bool) {
	if f.Type != Int {
		if tok[0] == '"' || tok[0] == '[' || tok[0] == '{' {
			return 0, false
		}
		v, err := strconv.ParseFloat(string(tok), 32)
		if err != nil {
			return 0, false
		}
		return math.Float32bits(float32(v)), true
	}
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	if len(tok) == 0 || len(tok) > 10 {
		return 0, false
	}
	var v int64
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, false
	}
	return uint32(int32(v)), true
}

func readJSONValue(f *Field, raw json.RawMessage, dst *uint32) error {
	s := string(bytes.TrimSpace(raw))
	if strings.HasPrefix(s, "\"") {
		var str string
		if err := json.Unmarshal(raw, &str); err != nil || f.Type == Int {
			return fmt.Errorf("%s is not a number", s)
		}
		s = str
	}
	v, err := ParseValue(f, s)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// StateJSON marshals one state as an object of fields in layout order.
type StateJSON struct {
	P     *Program
	Words []uint32
}

func (sj StateJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for fi := range sj.P.Fields {
		f := &sj.P.Fields[fi]
		if fi > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.Name))
		b.WriteByte(':')
		if !f.Scalar {
			b.WriteByte('[')
		}
		for k := range f.Size {
			if k > 0 {
				b.WriteByte(',')
			}
			s := FormatValue(f, sj.Words[f.Off+k])
			if f.Type == Float && (s == "NaN" || strings.HasSuffix(s, "Inf")) {
				s = strconv.Quote(s)
			}
			b.WriteString(s)
		}
		if !f.Scalar {
			b.WriteByte(']')
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ReadStatesCSV reads states from CSV: a header of columns as Columns names
// them (fields with a default may be left out), then one row per state.
func ReadStatesCSV(r io.Reader, name string, p *Program) (*States, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %v", name, err)
	}
	header = append([]string(nil), header...)
	type col struct {
		f    *Field
		word int
	}
	byName := map[string]col{}
	for fi := range p.Fields {
		f := &p.Fields[fi]
		if f.Scalar {
			byName[f.Name] = col{f, f.Off}
			continue
		}
		for k := range f.Size {
			byName[f.Name+"["+strconv.Itoa(k)+"]"] = col{f, f.Off + k}
		}
	}
	cols := make([]col, len(header))
	seen := map[int]bool{}
	for k, h := range header {
		if h == "stable_at" { // written by -o out.csv with --until-fixpoint
			cols[k] = col{word: -1}
			continue
		}
		c, ok := byName[strings.TrimSpace(h)]
		if !ok {
			return nil, fmt.Errorf("%s:1: column %d %q is not in the layout (columns are named like %s)", name, k+1, h, strings.Join(Columns(p)[:min(3, len(Columns(p)))], ", "))
		}
		if seen[c.word] {
			return nil, fmt.Errorf("%s:1: column %q appears twice", name, h)
		}
		seen[c.word] = true
		cols[k] = c
	}
	for _, f := range p.Fields {
		some := false
		for k := range f.Size {
			some = some || seen[f.Off+k]
		}
		for k := range f.Size {
			switch {
			case seen[f.Off+k]:
			case !f.HasDef:
				return nil, fmt.Errorf("%s:1: no column for field %q (element %d) and it has no default", name, f.Name, k)
			case some:
				// A default stands for a field left out, not for columns
				// missing from one that is there (a truncated header).
				return nil, fmt.Errorf("%s:1: no column %q: the header has other elements of field %q, so all of them must be there",
					name, f.Name+"["+strconv.Itoa(k)+"]", f.Name)
			}
		}
	}
	var rows [][]uint32
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		s := len(rows)
		row := make([]uint32, p.Words)
		for _, f := range p.Fields {
			for k := range f.Size {
				row[f.Off+k] = f.Init
			}
		}
		for k, v := range rec {
			if cols[k].word < 0 {
				continue
			}
			if row[cols[k].word], err = ParseValue(cols[k].f, v); err != nil {
				return nil, fmt.Errorf("%s:%d: state %d: column %q: %v", name, line, s, header[k], err)
			}
		}
		rows = append(rows, row)
	}
	st := &States{N: len(rows), Words: p.Words, Data: make([]uint32, 0, len(rows)*p.Words)}
	for _, row := range rows {
		st.Data = append(st.Data, row...)
	}
	return st, nil
}

// CSVRecord formats one state as a CSV row in Columns order.
func CSVRecord(p *Program, words []uint32, rec []string) []string {
	rec = rec[:0]
	for fi := range p.Fields {
		f := &p.Fields[fi]
		for k := range f.Size {
			rec = append(rec, FormatValue(f, words[f.Off+k]))
		}
	}
	return rec
}
