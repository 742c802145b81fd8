package golly

import (
	"errors"
	"strings"
	"testing"
)

func TestTableErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\n0,1,2,0,5,1\n", "x.rule:5:9: state 5"},
		{"@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\n0,1,q,0,0,1\n", "x.rule:5:5: \"q\" is neither"},
		{"@RULE X\n@TABLE\nn_states:3\nneighborhood:Moore\n0,1,0\n", "x.rule:5:1: a Moore transition has 10"},
		{"@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:rotate8\n0,1,0,0,0,1\n", "x.rule:6:1: symmetries:rotate8"},
		{"@RULE X\n@TREE\nnum_states=2\n", "x.rule:2:1: no @TABLE section, but a @TREE"},
		{"@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nvar a={0,1}\n0,a,0,0,0,b\n", "x.rule:6:11: \"b\" is neither"},
	} {
		_, err := ParseRuleFile([]byte(c.in), "x.rule")
		var te *TableError
		if err == nil || !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzParseRuleFile(f *testing.F) {
	f.Add([]byte(wireWorld))
	f.Add([]byte("@RULE H\n@TABLE\nn_states:3\nneighborhood:hexagonal\nsymmetries:rotate6\nvar a={0,1}\n0,a,1,2,0,{1,2},0,a\n"))
	f.Add([]byte("@RULE V\n@TABLE\nn_states:4\nneighborhood:vonNeumann\nsymmetries:permute\n012301\n"))
	f.Add([]byte("@RULE R\n@TABLE\nn_states:3\nneighborhood:hexagonal\nsymmetries:rotate6reflect\nvar a={2,0}\nvar b={a,1}\n0,a,b,a,b,1,2,b\n"))
	f.Add([]byte("@RULE O\n@TABLE\nn_states:3\nneighborhood:oneDimensional\nsymmetries:reflect\nvar a={0,1}\n1,a,2,a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := ParseRuleFile(data, "f.rule")
		if err != nil {
			return
		}
		if len(tab.Trans) > 64 { // keep each input's expansion quick
			return
		}
		if _, err := TableSource(tab, Topology{W: 8, H: 8}); err != nil {
			var te *TableError
			if !errors.As(err, &te) {
				t.Fatalf("TableSource: %v", err)
			}
		}
	})
}
