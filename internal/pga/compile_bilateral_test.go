package pga

import (
	"strings"
	"testing"

	"github.com/procgen-dev/procgen/internal/gpu"
)

// The device tables of bilateral queries: the link, the chains that lead to
// its target, the rules that leave ancestor records, and each operator's
// queries in slot order, as its instructions name them.
func TestCompileBilateralTables(t *testing.T) {
	src := balconyDoors("", "", "Balcony") + "Extra = If(Touches(Facade, Balcony) + Inside(Facade, Slab)) { Door | Window };\n"
	src = strings.Replace(src, "Floor = Repeat(X, 3) Tile;", "Floor = Repeat(X, 3) Replicate() { Tile | Extra };", 1)
	g, err := Parse("b.pga", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compileGrammar(g)
	if err != nil {
		t.Fatal(err)
	}
	h := p.hdr
	if h.NLinks != 2 {
		t.Fatalf("%d links, want 2 (Facade->Balcony, Facade->Slab)", h.NLinks)
	}
	links := make([]gpuLink, h.NLinks)
	if err := gpu.Decode(p.words[h.OffLinks:], &links); err != nil {
		t.Fatal(err)
	}
	facade, balcony := int32(p.ruleID["Facade"]), int32(p.ruleID["Balcony"])
	if links[0] != (gpuLink{Anc: facade, TargetKind: gpuTargetRule, Target: balcony}) ||
		links[1] != (gpuLink{Anc: facade, TargetKind: gpuTargetTerm, Target: g.Terminals["Slab"].ID}) {
		t.Fatalf("links %+v", links)
	}
	reach := p.words[h.OffReach:]
	nc, nr := int(h.NChains), int(h.NRules)
	for name, want := range map[string]uint32{"Facade": 3, "Balconies": 3, "BalconyRow": 3, "Floors": 0, "Floor": 0, "Tile": 0, "Balcony": 2} {
		if got := reach[p.ruleMain[p.ruleID[name]]]; got != want {
			t.Errorf("rule %s's body leads to links %b, want %b", name, got, want)
		}
	}
	for name, want := range map[string]uint32{"Facade": gpuRuleMarked, "Balcony": gpuRuleMarked, "Tile": 0, "Floor": 0} {
		if got := reach[nc+p.ruleID[name]]; got != want {
			t.Errorf("rule %s's flags %d, want %d", name, got, want)
		}
	}
	// Extra's If asks two queries: slot 0 Touches(Facade, Balcony), slot 1 Inside(Facade, Slab).
	op := p.chains[p.ruleMain[p.ruleID["Extra"]]].Op0
	e := reach[nc+nr+int(op)]
	list := reach[nc+nr+int(h.NOps):]
	if e&0xff != 2 || list[e>>8] != 0*4+uint32(QueryTouches) || list[e>>8+1] != 1*4+uint32(QueryInside) {
		t.Fatalf("op %d: entry %x, list %v", op, e, list[:4])
	}
	var args []int32
	for pc := p.ops[op].Expr[0]; p.code[pc].Op != xEnd; pc++ {
		if p.code[pc].Op == xBilateral {
			args = append(args, p.code[pc].Arg)
		}
	}
	if len(args) != 2 || args[0] != 0*128+0*4+int32(QueryTouches) || args[1] != 1*128+1*4+int32(QueryInside) {
		t.Fatalf("instructions %v", args)
	}
}
