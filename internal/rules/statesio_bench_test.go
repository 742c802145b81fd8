package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// boardDoc512 is one 512x512 Life board as 'rules run -o out.json' writes
// its states (the whole-command benchmark reads and writes one of these).
func boardDoc512(b *testing.B) (*Program, *States, []byte) {
	p := compileConfig(b, "life.rules", map[string]string{"W": "512", "H": "512"})
	st := Generate(p, 1, 1)
	var doc bytes.Buffer
	doc.WriteString(`{"steps": 0, "states": [`)
	m, err := StateJSON{P: p, Words: st.State(0)}.MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	doc.Write(m)
	doc.WriteString("]}\n")
	return p, st, doc.Bytes()
}

// BenchmarkBoardJSON512 reads and writes one 512x512 board as JSON.
func BenchmarkBoardJSON512(b *testing.B) {
	p, st, doc := boardDoc512(b)
	b.Run("read", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for range b.N {
			got, err := ReadStatesJSON(bytes.NewReader(doc), "board.json", p)
			if err != nil {
				b.Fatal(err)
			}
			if got.N != 1 {
				b.Fatalf("%d states", got.N)
			}
		}
	})
	b.Run("write", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for range b.N {
			if _, err := (StateJSON{P: p, Words: st.State(0)}).MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzReadJSONList: the quick reader of a list of numbers reads what the
// general one does, or leaves the list to it.
func FuzzReadJSONList(f *testing.F) {
	for _, s := range []string{"[1,0,1]", "[ -2147483648 , 2147483647,0 ]", "[2147483648,1,1]", "[1.5,2,3]",
		`["1",2,3]`, "[1,2]", "[1,2,3,4]", "[]", "[1e3,0,-0]", "[0x10,1,1]", "[[1],2,3]", `["a,b",1]`, "[3.4e39,1,1]"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, float bool) {
		if !json.Valid([]byte(raw)) {
			return
		}
		fd := &Field{Name: "c", Type: Int, Size: 3}
		if float {
			fd.Type = Float
		}
		quick := make([]uint32, 3)
		ok, qerr := readJSONList(fd, json.RawMessage(raw), quick)
		if !ok {
			return
		}
		// The general way, as readJSONField took it before the quick one.
		var items []json.RawMessage
		want := make([]uint32, 3)
		var werr error
		if err := json.Unmarshal([]byte(raw), &items); err != nil {
			t.Fatalf("%q: quick read a list the general reader refuses: %v", raw, err)
		}
		if len(items) != 3 {
			werr = fmt.Errorf("%d values, the layout has %d", len(items), 3)
		}
		for k := 0; werr == nil && k < len(items); k++ {
			if werr = readJSONValue(fd, items[k], &want[k]); werr != nil {
				t.Fatalf("%q: quick read item %d the general reader refuses: %v", raw, k, werr)
			}
		}
		if fmt.Sprint(qerr) != fmt.Sprint(werr) {
			t.Fatalf("%q: error %v, want %v", raw, qerr, werr)
		}
		if werr == nil && fmt.Sprint(quick) != fmt.Sprint(want) {
			t.Fatalf("%q: %v, want %v", raw, quick, want)
		}
	})
}
