package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/flamejob"
)

func (a *app) newFlameGenomeCmd() *cobra.Command {
	var ga flamejob.GenomeArgs
	cmd := &cobra.Command{
		Use:   "genome [GENOME.flam3 ...] --mode MODE -o OUT.flam3",
		Short: "Make genomes as flam3-genome does: random, mutate, cross, clone, rotate, strip",
		Long: `Write flam3 genomes made as flam3-genome makes them, seeded by --seed (the same
seed and flags give the same file). --count genomes go into one file, times
0, 1, 2 ...; 'procgen flame render' and flam3-render render them.

Modes:
  random   new genomes: 2-6 xforms (flam3's odds, or --xforms-min/--xforms-max),
           each with 2 or more variations drawn from --vars, one in five with
           a symmetry (--symmetry sets it), 15 % with a final xform (--final).
  mutate   a random genome of the files changed by --mutation: variations,
           one-coefs, coefs, symmetry, post, palette, delete (or random).
  cross    a genome of the first file bred with one of the second by --method:
           union (all xforms of both), interpolate (blended at a random
           point), alternate (each xform from one parent or the other).
  clone    a random genome of the files as it is (--all: every one, in order).
  rotate   every animated xform's affine turned by --angle degrees.
  strip    the genome of horizontal strip --strip of --strips of the image.

--vars is a comma-separated list of flam3 variation names or numbers; a
leading '-' means all but those. Without it, flam3-genome's default set is
used (all 99 but noise, blur, gaussian_blur, radial_blur, rays, twintrian,
cross, pre_blur, separation, split, splits). Random genomes unlike
flam3-genome's are not test-rendered and retried, nor recentred: the camera
frames [-2, 2].`,
		Example: `  procgen flame genome --mode random --count 10 --seed 7 -o new.flam3
  procgen flame genome --mode random --vars julia,spherical,linear --xforms-min 3 --xforms-max 4 -o j.flam3
  procgen flame genome --mode mutate --mutation post new.flam3 --seed 2 -o mutant.flam3
  procgen flame genome --mode cross --method alternate a.flam3 b.flam3 -o child.flam3
  procgen flame genome --mode rotate --angle 90 new.flam3 -o turned.flam3
  procgen flame genome --mode strip --strips 4 --strip 0 big.flam3 -o top.flam3
  procgen flame render new.flam3 -o new.png`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := flamejob.Options{Version: version}
			if err := a.decode("flame", &o); err != nil {
				return err
			}
			return flamejob.Genome(cmd.Context(), a.env(), o, args, ga)
		},
	}
	f := cmd.Flags()
	f.StringVar(&ga.Mode, "mode", "random", "random, mutate, cross, clone, rotate or strip")
	f.StringVarP(&ga.Out, "output", "o", "", "the genome `FILE` to write (- for standard output)")
	f.IntVar(&ga.Count, "count", 1, "genomes to make")
	f.StringVar(&ga.Vars, "vars", "", "random, mutate variations: variation set, names or numbers, '-' first for all but")
	f.IntVar(&ga.MinX, "xforms-min", 0, "random: fewest xforms (with --xforms-max; 0: flam3's odds over 2..6)")
	f.IntVar(&ga.MaxX, "xforms-max", 0, "random: most xforms")
	f.IntVar(&ga.Symmetry, "symmetry", 0, "random: 0 as flam3 picks, 1 none, k rotational order k, -k mirrored")
	f.StringVar(&ga.Final, "final", "random", "random: final xform random (15 %), yes or no")
	f.IntVar(&ga.Width, "width", 0, "random: image width written into the genome (0: 100)")
	f.IntVar(&ga.Height, "height", 0, "random: image height (0: 100)")
	f.StringVar(&ga.Mutation, "mutation", "random", "mutate: random, variations, one-coefs, coefs, symmetry, post, palette or delete")
	f.Float64Var(&ga.Speed, "speed", 0, "mutate: how far coefs mutations move each coefficient (0: 0.5)")
	f.StringVar(&ga.Method, "method", "random", "cross: random, union, interpolate or alternate")
	f.BoolVar(&ga.All, "all", false, "clone: every genome of the files, in order")
	f.Float64Var(&ga.Angle, "angle", 0, "rotate: degrees, counter-clockwise")
	f.IntVar(&ga.Strips, "strips", 1, "strip: number of horizontal strips")
	f.IntVar(&ga.Strip, "strip", 0, "strip: which one, 0 at the top")
	a.bindFlag(f, "flame.palettes", "palettes", "")
	a.bindFlag(f, "flame.strict", "strict", "")
	return cmd
}
