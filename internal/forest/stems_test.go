package forest

import (
	"math"
	"strings"
	"testing"
)

func mustConds(t *testing.T, ws ...string) []Condition {
	t.Helper()
	var out []Condition
	for _, w := range ws {
		c, err := ParseCondition(w)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func TestReadStemsLayouts(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		o         StemOptions
		want      []Stem
		cols      [4]string
	}{
		{
			name: "SORTIE tab-separated",
			doc:  "X\tY\tSpecies\tType\tDiam\tHeight\n10.5\t20\tLodgepole_Pine\tAdult\t31.2\t20\n1\t2\tSubalpine_Fir\tAdult\t12\t9\n",
			want: []Stem{{10.5, 20, "Lodgepole_Pine", 31.2, 2}, {1, 2, "Subalpine_Fir", 12, 3}},
			cols: [4]string{"X", "Y", "Species", "Diam"},
		},
		{
			name: "ForestGEO CSV in mm, live stems only",
			doc:  "treeID,gx,gy,sp,dbh,status\n1,5,6,poutre,494,A\n2,7,8,poutre,NA,D\n3,9.5,1,simaam,508,A\n",
			o:    StemOptions{DBHUnit: "mm", Where: mustConds(t, "status=A")},
			want: []Stem{{5, 6, "poutre", 49.4, 2}, {9.5, 1, "simaam", 50.8, 4}},
			cols: [4]string{"gx", "gy", "sp", "dbh"},
		},
		{
			name: "girth, named columns, BOM, CRLF, quoted species",
			doc:  "\ufeffx,y,species,gbh03,gbh14\r\n1,2,\"Black Cherry\",0,31.4159265358979\r\n3,4,White Oak,0,0\r\n",
			o:    StemOptions{DBH: "GBH14", Girth: true, Where: mustConds(t, "gbh14>0")},
			want: []Stem{{1, 2, "Black Cherry", 10, 2}},
			cols: [4]string{"x", "y", "species", "gbh14"},
		},
		{
			name: "blank-separated, several conditions, alternatives",
			doc:  "x y sp dbh census status\n1 1 a 10 7 alive\n2 2 b 20 6 alive\n3 3 c 30 7 dead\n4 4 d 40 7.0 A\n\n",
			o:    StemOptions{Where: mustConds(t, "census=7", "status=alive|A")},
			want: []Stem{{1, 1, "a", 10, 2}, {4, 4, "d", 40, 5}},
			cols: [4]string{"x", "y", "sp", "dbh"},
		},
	} {
		m, err := ReadStems(strings.NewReader(c.doc), "s.csv", c.o)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(m.Stems) != len(c.want) {
			t.Errorf("%s: %d stems %+v, want %d", c.name, len(m.Stems), m.Stems, len(c.want))
			continue
		}
		for i, s := range m.Stems {
			w := c.want[i]
			if s.X != w.X || s.Y != w.Y || s.Species != w.Species || math.Abs(s.DBH-w.DBH) > 1e-9 || s.Line != w.Line {
				t.Errorf("%s: stem %d = %+v, want %+v", c.name, i, s, w)
			}
		}
		if m.Columns != c.cols {
			t.Errorf("%s: columns %q, want %q", c.name, m.Columns, c.cols)
		}
	}
}

// Bad input: the error says where (file:line) and what to do.
func TestReadStemsErrors(t *testing.T) {
	for _, c := range []struct {
		doc  string
		o    StemOptions
		want string
	}{
		{"", StemOptions{}, "s.csv: empty file"},
		{"gx,gy,dbh\n1,2,3\n", StemOptions{}, `s.csv:1: no species column: name it with --species-col (the header has "gx", "gy", "dbh")`},
		{"x,y,sp,dbh\n1,2,a,3\n", StemOptions{DBH: "diam"}, `s.csv:1: no column "diam" (--dbh-col) in the header: "x", "y", "sp", "dbh"`},
		{"x,y,sp,dbh\n1,2,a,3\n1,two,a,3\n", StemOptions{}, `s.csv:3: y (column "y"): "two" is not a number`},
		{"x,y,sp,dbh\n1,2,a,-3\n", StemOptions{}, `s.csv:2: DBH -3 (column "dbh") is not a positive size`},
		{"x,y,sp,dbh\n1,2,a,0\n", StemOptions{}, `drop such rows with --where (e.g. --where 'dbh>0')`},
		{"x,y,sp,dbh\nNaN,2,a,3\n", StemOptions{}, `s.csv:2: x (column "x"): missing value "NaN"`},
		{"x,y,sp,dbh\n1,Inf,a,3\n", StemOptions{}, `s.csv:2: y (column "y"): "Inf" is not a finite number`},
		{"x,y,sp,dbh\n1,2,a,NULL\n", StemOptions{}, `filter such rows out with --where`},
		{"x,y,sp,dbh\n1,2,,3\n", StemOptions{}, `s.csv:2: empty species`},
		{"x,y,sp,dbh\n1,2\n", StemOptions{}, `s.csv:2: 2 fields, but the species column ("sp") is field 3`},
		{"x,y,sp,dbh\n1,2,a,3\n", StemOptions{Where: mustConds(t, "status=A")}, `--where status=A: no column "status"`},
		{"x,y,sp,dbh\n1,\"2,a,3\n", StemOptions{}, `s.csv:2: 2 fields`},
		{"x\ty\tsp\tdbh\n1\t2\ta\t3\n", StemOptions{Delimiter: ','}, `no x column`},
		{"x,y,sp,dbh\n1,2,a,3\n", StemOptions{DBHUnit: "inch"}, `unknown DBH unit "inch"`},
	} {
		_, err := ReadStems(strings.NewReader(c.doc), "s.csv", c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.doc, err, c.want)
		}
	}
}

func TestParseCondition(t *testing.T) {
	for _, c := range []struct {
		in     string
		field  string
		holds  bool
		errors bool
	}{
		{"Status=alive", "alive", true, false},
		{"Status=alive", "dead", false, false},
		{"Status=alive|A", "A", true, false},
		{"Status!=dead|D", "alive", true, false},
		{"Status!=dead|D", "D", false, false},
		{"n=7", "7.0", true, false},
		{"n>0", "0.5", true, false},
		{"n>0", "0", false, false},
		{"n>0", "NA", false, false},
		{"n>=5", "5", true, false},
		{"n<5", "5", false, false},
		{"n<=5", "5", true, false},
		{"n=", "", true, false},
		{"=alive", "", false, true},
		{"alive", "", false, true},
		{"n>five", "", false, true},
	} {
		cond, err := ParseCondition(c.in)
		if (err != nil) != c.errors {
			t.Errorf("%q: error %v", c.in, err)
			continue
		}
		if err == nil && cond.holds(c.field) != c.holds {
			t.Errorf("%q on %q: %v", c.in, c.field, !c.holds)
		}
	}
}

func TestPlot(t *testing.T) {
	stems := []Stem{{X: 700.1, Y: 100.1}, {X: 799.9, Y: 199.9}}
	b, ok := BoundsOf(stems, 1)
	if !ok || b != (Bounds{700, 100, 800, 200}) {
		t.Fatalf("bounds %v", b)
	}
	g, err := GridFor(b, 1)
	if err != nil || g.NX != 100 || g.NY != 100 || !g.Whole(b) {
		t.Fatalf("grid %+v %v", g, err)
	}
	g, err = GridFor(Bounds{0, 0, 10, 5}, 3)
	if err != nil || g.NX != 4 || g.NY != 2 || g.Whole(Bounds{0, 0, 10, 5}) {
		t.Fatalf("rounded grid %+v %v", g, err)
	}
	if _, err := ParseBounds("0,0,10"); err == nil {
		t.Error("three numbers accepted")
	}
	if _, err := ParseBounds("0,0,-1,5"); err == nil {
		t.Error("x1 < x0 accepted")
	}
	res := &Resolution{Index: map[string]int{"a": 0}}
	trees, out := Trees([]Stem{{X: 1, Y: 1, Species: "a", DBH: 3}, {X: 20, Y: 1, Species: "a", DBH: 3},
		{X: 1, Y: 1, Species: "skipped", DBH: 3}}, res, Grid{Cell: 1, NX: 10, NY: 10})
	if len(trees) != 1 || out != 1 {
		t.Errorf("trees %v, outside %d", trees, out)
	}
	in, layers, err := Crop(Grid{X0: 0, Y0: 0, Cell: 1, NX: 4, NY: 3}, []Layer{{Density: []float64{
		1, 1, 1, 1,
		1, 5, 6, 1,
		1, 1, 1, 1}, Produced: 20}}, 1)
	if err != nil || in.NX != 2 || in.NY != 1 || in.X0 != 1 || layers[0].Total != 11 || layers[0].Lost != 9 {
		t.Errorf("crop %+v %+v %v", in, layers, err)
	}
	if _, _, err := Crop(Grid{Cell: 1, NX: 4, NY: 3}, nil, 2); err == nil {
		t.Error("a margin wider than the plot accepted")
	}
}
