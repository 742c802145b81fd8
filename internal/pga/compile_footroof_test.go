package pga

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// roofsBelow are grammars whose roofs stand on a footprint seen from below
// (a bottom cap, of a lot or of a piece) among cuts, besides those of
// footprintGrammars: the flow that decides which views get roofs
// (cutReach) must find them.
var roofsBelow = []struct{ name, src string }{
	{"roof on a piece's bottom cap", `axiom Quad Lot;
terminal Wall (1, 0);
terminal Tiles (2, 1);
Lot = Offset(1) { A | Wall };
A = Extrude(5) CompSplit() { Tiles | Roof(HIP, 30) Tiles | Wall };`},
	{"roof on a lot's bottom cap, cuts on its top", `axiom Quad Lot;
terminal Wall (1, 0);
terminal Tiles (2, 1);
Lot = Extrude(5) CompSplit() { Offset(1) { Roof(HIP, 20) Tiles | Wall } | Roof(SHED, 30) Tiles | Wall };`},
	{"roof after a cut's whole shape", `axiom Quad Lot;
terminal Wall (1, 0);
terminal Tiles (2, 1);
Lot = Offset(0) { Wall | Roof(SHED, 10) Tiles };`},
}

// TestFootprintRoofTablesCoverCPU checks that every roof the CPU builds on
// a lot's polygon or a piece of one has its table on the device: the
// device profile the roofed shape stands on (the lot's, or a piece's made
// from the same polygon at the same size) has a roof of that kind, which
// the device's Roof takes (else PGA_ERR_ROOF_FOOTPRINT).
func TestFootprintRoofTablesCoverCPU(t *testing.T) {
	lots := polygonLots(60, 3)
	cases := roofsBelow
	for _, c := range footprintGrammars {
		if c.kind == Quad {
			cases = append(cases, struct{ name, src string }{c.name, c.src})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, axioms := footprintCase(t, c.name, c.src, Quad, lots)
			p, err := compileGrammar(g)
			if err != nil {
				t.Fatal(err)
			}
			ts, err := g.Evaluate(axioms, Options{Workers: 2, LotAttrs: LotAttrValues(lots)})
			if err != nil {
				t.Fatal(err)
			}
			roofs, has := 0, deviceRoofs(p)
			for i := range ts {
				s := &ts[i]
				if s.Roof == NoRoof || g.footprintOf(s.Profile) == nil {
					continue
				}
				roofs++
				if !has[roofOf(s)] {
					t.Fatalf("terminal %d (lot %d): a %s roof on profile %d at %g by %g, and no device profile with its table",
						i, s.Lot, s.Roof, s.Profile, s.Size[0], s.Size[1])
				}
			}
			t.Logf("%d terminals, %d roofs on polygons", len(ts), roofs)
		})
	}
}

// deviceRoof is a roof table: the host profile of the footprint it stands
// on, its kind and the size it was built at.
type deviceRoof struct {
	host int32
	kind RoofKind
	size [2]float64
}

// deviceRoofs is every roof table the host built for the device.
func deviceRoofs(p *program) map[deviceRoof]bool {
	out := map[deviceRoof]bool{}
	for k := range int32(len(p.profiles)) {
		host := k
		if p.nlotprof > 0 && k >= p.nlotprof {
			host = p.cutFPs[k-p.nlotprof].host
		}
		e := p.profiles[k]
		if e.Roofs < 0 {
			continue
		}
		for kind := Gable; kind <= Pyramid; kind++ {
			if r := p.froof[e.Roofs+int32(kind)-1]; r.NAt >= 0 {
				out[deviceRoof{host, kind, [2]float64{r.SX, r.SY}}] = true
			}
		}
	}
	return out
}

// roofOf is the roof table a roofed terminal on a footprint needs.
func roofOf(s *TerminalShape) deviceRoof {
	return deviceRoof{s.Profile, s.Roof, [2]float64{s.Size[0], s.Size[1]}}
}

// TestFootprintRoofsPerView pins down which views get which roofs: with
// cuts, only the views and kinds a Roof may take (on a lot's top, the
// inset's piece takes a HIP and the lot's own top none; its bottom cap, a
// SHED only). A GABLE, which many polygons cannot take, is built nowhere
// it is not asked for.
func TestFootprintRoofsPerView(t *testing.T) {
	g, _ := footprintCase(t, "views", roofsBelow[1].src, Quad, polygonLots(12, 3))
	p, err := compileGrammar(g)
	if err != nil {
		t.Fatal(err)
	}
	kinds := func(k int32) (got []RoofKind) {
		e := p.profiles[k]
		if e.Roofs < 0 {
			return nil
		}
		for kind := Gable; kind <= Pyramid; kind++ {
			if p.froof[e.Roofs+int32(kind)-1].NAt >= 0 {
				got = append(got, kind)
			}
		}
		return got
	}
	for k := int32(1); k < p.nlotprof; k++ {
		got := kinds(k)
		if g.footprintOf(k).mirror { // a lot's bottom cap
			if len(got) != 1 || got[0] != Shed {
				t.Errorf("lot view %d (from below): roofs %v, want [SHED]", k, got)
			}
		} else if len(got) != 0 {
			t.Errorf("lot view %d (from above): roofs %v, want none (only its inset takes one)", k, got)
		}
	}
	pieces := 0
	for _, pc := range p.cpiece {
		if pc.Profile < 0 {
			continue
		}
		top, below := kinds(pc.Profile), kinds(pc.Profile+1)
		if pc.Branch == 0 { // the inset
			pieces++
			if len(top) != 1 || top[0] != Hip || len(below) != 0 {
				t.Errorf("inset on profile %d: roofs %v, from below %v; want [HIP] and none", pc.Profile, top, below)
			}
		} else if len(top)+len(below) != 0 {
			t.Errorf("border strip on profile %d: roofs %v, from below %v; want none", pc.Profile, top, below)
		}
	}
	if pieces == 0 {
		t.Fatal("no insets")
	}
}

// flowSeed draws TestFootprintFlowDrawn's grammars (seeds 1 to 50,
// 20,000 grammars, passed when it was written).
var flowSeed uint64 = 11

// TestFootprintFlowDrawn draws grammars of cuts, extrusions, caps and
// roofs on polygon lots and checks, for each the device takes and the CPU
// builds, that every roof the CPU builds on a polygon has a device roof
// table of its kind at its size, and every terminal on a piece stands on
// one the host cut at its size: the footprint flow and cutReach, which
// decide what the host cuts and roofs, miss nothing the CPU makes (the
// device would fail, or draw another roof).
func TestFootprintFlowDrawn(t *testing.T) {
	drawnGrammars := 400
	if testing.Short() {
		drawnGrammars = 100
	}
	lots := polygonLots(12, 5)
	forms := []string{
		"Extrude(5) %s", "Offset(1) { %s | %s }", "Setback(2) { %s | %s }", "Offset(-0.5) { %s | %s }",
		"SubDiv(X) { 3: %s | -1: %s }", "SubDiv(Y) { 2: %s | -1: %s }", "SubDiv(Z) { 2: %s | -1: %s }",
		"Repeat(X, 4) %s", "Repeat(Z, 5) %s", "CompSplit() { %s | %s | %s }", "Roof(HIP, 30) %s",
		"Roof(SHED, 20) %s", "Roof(GABLE, 35) %s", "Translate(0, 1, 0) %s", "If(ShapeSize(X) > 12) { %s | %s }",
		"Offset(ShapeSize(X) / 12) { %s | %s }", "SubDiv(X) { ShapeSize(X) / 3: %s | -1: %s }",
		"Repeat(Y, ShapeSize(Y) / 3 + 1) %s", "Setback(LotAttr(floors, 2)) { %s | %s }", "SubDiv(Z) { 1: %s | -1: %s }",
		"Repeat(X, 3, ANCHOR_TO_END) %s", "Rotate(0, 0, 15) %s",
	}
	rng := rand.New(rand.NewPCG(flowSeed, 0x726f6f66))
	built, refused, failed, roofs, onPieces := 0, 0, 0, 0, 0
	for n := range drawnGrammars {
		var src strings.Builder
		src.WriteString("axiom Quad R0;\nterminal A (1, 0);\nterminal B (2, 1);\n")
		const rules = 6
		for r := range rules {
			form := forms[rng.IntN(len(forms))]
			var args []any
			for range strings.Count(form, "%s") {
				if k := r + 1 + rng.IntN(rules); k < rules { // a later rule, or a terminal
					args = append(args, fmt.Sprintf("R%d", k))
				} else {
					args = append(args, []string{"A", "B"}[rng.IntN(2)])
				}
			}
			fmt.Fprintf(&src, "R%d = "+form+";\n", append([]any{r}, args...)...)
		}
		g, axioms := footprintCase(t, fmt.Sprint("drawn ", n), src.String(), Quad, lots)
		p, err := compileGrammar(g)
		var u *UnsupportedError
		if errors.As(err, &u) {
			refused++
			continue
		}
		if err != nil {
			t.Fatalf("grammar %d: %v\n%s", n, err, src.String())
		}
		ts, err := g.Evaluate(axioms, Options{Workers: 2, LotAttrs: LotAttrValues(lots)})
		if err != nil {
			failed++ // a kind's operator on the other kind, a gable round a courtyard
			continue
		}
		built++
		pieces, has := devicePieces(p), deviceRoofs(p)
		for i := range ts {
			s := &ts[i]
			if g.footprintOf(s.Profile) == nil {
				continue
			}
			if s.Roof != NoRoof {
				roofs++
			}
			if s.Profile < 0 {
				onPieces++
			}
			if s.Roof != NoRoof && !has[roofOf(s)] {
				t.Fatalf("grammar %d: a %s roof on profile %d at %g by %g without its device table\n%s",
					n, s.Roof, s.Profile, s.Size[0], s.Size[1], src.String())
			}
			// A piece the CPU cut is one the host cut too, at its size
			// (the device cuts only by the host's tables).
			v := 1
			if s.Kind == Box && s.Roof == NoRoof {
				v = 2
			}
			if s.Profile < 0 && !pieces[devicePiece{s.Profile, [2]float64{s.Size[0], s.Size[v]}}] {
				t.Fatalf("grammar %d: a terminal on piece %d at %g by %g, which the host did not cut\n%s",
					n, s.Profile, s.Size[0], s.Size[v], src.String())
			}
		}
	}
	t.Logf("%d grammars built on both (%d roofs and %d terminals on pieces checked), %d refused for the device, %d failing on the CPU",
		built, roofs, onPieces, refused, failed)
	if built < drawnGrammars/4 {
		t.Errorf("only %d of %d drawn grammars built", built, drawnGrammars)
	}
}

// devicePiece is a piece's host profile and size.
type devicePiece struct {
	host int32
	size [2]float64
}

// devicePieces is every piece view the host cut for the device.
func devicePieces(p *program) map[devicePiece]bool {
	out := map[devicePiece]bool{}
	for _, f := range p.cutFPs {
		out[devicePiece{f.host, f.size}] = true
	}
	return out
}
