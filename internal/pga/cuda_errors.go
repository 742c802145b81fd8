//go:build cuda

package pga

import "fmt"

// check turns a device error into the CPU's error for it.
func (c *CUDA) check(st gpuStatus, opt *Options) error {
	name := func(r int32) string {
		if r >= 0 && int(r) < len(c.prog.rules) {
			return c.prog.rules[r]
		}
		return "?"
	}
	switch st.Err {
	case 0:
		return nil
	case gpuErrOverflow:
		if st.ErrArg == 2 {
			return errCtxOverflow
		}
	case gpuErrDepth:
		return fmt.Errorf("pga: rule %q: derivation deeper than %d (MaxDepth): %w", name(st.ErrRule), opt.MaxDepth, ErrLimit)
	case gpuErrShapes:
		return fmt.Errorf("pga: rule %q: more than %d shapes (MaxShapes): %w", name(st.ErrRule), opt.MaxShapes, ErrLimit)
	case gpuErrRepeat:
		return fmt.Errorf("pga: rule %q: Repeat makes %d shapes, more than MaxShapes %d: %w", name(st.ErrRule), st.ErrArg, opt.MaxShapes, ErrLimit)
	case gpuErrCompSplitQuad:
		return fmt.Errorf("pga: rule %q at %s: CompSplit needs a Box, found a Quad", name(st.ErrRule), c.opPos(st.ErrArg))
	case gpuErrRoofSplit:
		return fmt.Errorf("pga: rule %q at %s: CompSplit of a roof: a roof is a terminal solid", name(st.ErrRule), c.opPos(st.ErrArg))
	case gpuErrRoofFootprint:
		return fmt.Errorf("pga: rule %q at %s: Roof needs a rectangular Quad (a footprint or a top face)", name(st.ErrRule), c.opPos(st.ErrArg))
	case gpuErrFootRoof:
		// The footprint flow keeps resized shapes from the roofs built for
		// their lots, so this is a fault of that flow, never the grammar's.
		return fmt.Errorf("pga: rule %q at %s: Roof on a lot's own polygon at a size its roof was not built for "+
			"(an internal error of the CUDA backend; --device cpu builds it)", name(st.ErrRule), c.opPos(st.ErrArg))
	case gpuErrFootCut:
		// The footprint flow lets only shapes at their lot's size, by a
		// distance the host knows (a constant, or the lot's attributes),
		// reach a cut made on the host.
		return fmt.Errorf("pga: rule %q at %s: a cut of a lot's own polygon at a size or distance it was not made for "+
			"(an internal error of the CUDA backend; --device cpu builds it)", name(st.ErrRule), c.opPos(st.ErrArg))
	case gpuErrRoofAngle:
		return fmt.Errorf("pga: rule %q at %s: Roof angle: want degrees between 0 and 90", name(st.ErrRule), c.opPos(st.ErrArg))
	case gpuErrSphere:
		if a := int(st.ErrArg); a >= 0 && a < len(c.prog.ops) {
			return fmt.Errorf("pga: %w", sphereError(name(st.ErrRule), c.opPos(st.ErrArg), OpKind(c.prog.ops[a].Kind)))
		}
	case gpuErrRelatedDeep:
		return c.relatedDeep(st)
	case gpuErrFront:
		op := "Setback"
		if a := int(st.ErrArg); a >= 0 && a < len(c.prog.ops) && OpKind(c.prog.ops[a].Kind) == OpOffset {
			op = "Offset"
		}
		return fmt.Errorf("pga: rule %q at %s: %s needs a rectangular Quad or Box", name(st.ErrRule), c.opPos(st.ErrArg), op)
	case gpuErrUndefined:
		u := "?"
		if int(st.ErrArg) < len(c.prog.undefined) {
			u = c.prog.undefined[st.ErrArg]
		}
		return fmt.Errorf("pga: rule %q: undefined successor %q", name(st.ErrRule), u)
	}
	return fmt.Errorf("pga: cuda: device error %d (rule %s)", st.Err, name(st.ErrRule))
}

func (c *CUDA) opPos(op int32) string {
	if op >= 0 && int(op) < len(c.prog.opPos) {
		return c.prog.opPos[op].String()
	}
	return "?"
}
