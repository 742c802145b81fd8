package main

import (
	"github.com/spf13/cobra"

	"github.com/procgen-dev/procgen/internal/job/pgajob"
)

func (a *app) newPgaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pga",
		Short: "PGA shape grammars: generate buildings and cities",
	}
	cmd.AddCommand(a.newPgaCityCmd())
	return cmd
}

const pgaCityLong = `Generate a city from a PGA shape grammar (the language of "Parallel Generation
of Architecture" and its OperatorGraph successor): one building per lot.

A grammar declares the start shape and terminals, then rules. Each rule is a
chain of operators ending in a successor rule or terminal:

  axiom Box Lot;                      // start shape kind (Box or Quad) and rule
  terminal Wall (1, 0);               // terminal symbols (geometry, material)
  Lot = CompSplit() { Roof | Discard() | Facade };
  Facade = Repeat(Y, 3) Floor;        // floors of about 3 m
  Floor = Repeat(X, 2.5) Wall;

Operators: Translate Rotate Scale Extrude SubDiv Repeat CompSplit Replicate
RandomRule If IfSizeLess SwapSize SetAsDynamicConvexRightPrism Discard
Generate, and the paper's additions: Roof(GABLE|HIP|SHED|PYRAMID, angle),
Setback(d) {front | rest}, Offset(d) {inside | border} (d < 0 grows the shape:
inside is the grown shape, border the ring around the old), "phase N;" (phases
run one after another with a barrier between them), Collider(group) with the
queries Overlaps/Touches/Inside(group) and IfCollides(group) against earlier
phases, SnapLines(axis, group) that Repeat and SubDiv of later phases snap
to. Expressions read ShapeSize(X), ShapePosition, ShapeRotation, ShapeNormal,
ShapeSeed(), ShapeCustomAttribute(), ShapeIndex(), ShapeSiblings() and
LotAttr(name, default). Y is up; CompSplit gives the top face, the bottom face
and the four sides (back, front +Z, left, right), each a Quad whose local +Z
points out; Extrude makes a Quad a box with Y along its normal, centred on it.
docs/pga-language.md is the reference; configs/pga/ holds the paper's seven
scenes (skyscrapers.pga, suburban.pga, ...).

Lots come from --lots, a GeoJSON FeatureCollection of Polygon footprints,
concave or with holes (courtyards), or MultiPolygons (a lot per part)
(properties: height in metres, or floors
of 3 m; attr sets ShapeCustomAttribute()), or from --grid COLSxROWS,
rectangular lots in blocks along streets whose size, setback and height vary
with --seed. Each lot becomes an axiom framed by its oriented bounding
rectangle: a Box standing on it with the lot's height, or a Quad lying on it
(local +Z up, for Extrude), seeded by --seed and the lot index. A lot that is
not that rectangle (concave, holed, a trapezoid) keeps its own polygon:
Extrude makes its prism, CompSplit gives a wall per edge of every ring, Roof
builds on it by the straight skeleton, Offset and Setback inset it, SubDiv
and Repeat across it cut it.

GeoJSON coordinates are WGS 84 longitude/latitude (RFC 7946) unless a legacy
"crs" member names another CRS (WGS 84 or ETRS89 UTM zones, EPSG:3857) or
--lots-crs overrides it. Geographic lots are projected to the UTM zone of
their centre (or --crs EPSG:326zz/327zz) and built around a point of the data,
the lots' bounding-box centre rounded to the metre; the .glb's asset extras
and the .json's "georef" give the CRS and that origin (easting, northing, lon,
lat), so a GIS tool can place the model (x east, -z north, y up). Files in
local metres with no CRS: --lots-crs local (a file without a crs member
whose coordinates cannot be degrees is taken so, with a warning).

Each -o names an output by its extension: .obj (with a .mtl beside it, one
material per terminal kind), .glb (binary glTF 2.0, a mesh per terminal kind
and material), .png (a
1024-pixel-wide preview: the whole city seen from the south-east, 30 degrees
down, without perspective, each material's colour shaded by a fixed sun) or
.json (statistics: lots, terminals per name and per phase, vertices,
triangles, timings).

Textures: SetupProjection(XY, w, h) sets a planar projection on the scope
(u along its X, v along its Y, from its low corner, a repeat every w and h
metres; negative: a fraction of the scope), ProjectUV() gives the shapes
below it texture coordinates from it, Texture("file.png") (a PNG or JPEG,
relative to the grammar) and Color("#rrggbb") give them a material. The .glb
gets TEXCOORD_0 and the images embedded in its binary chunk (one file that
stands alone; --glb-images reference writes a uri relative to the .glb
instead), the .obj gets vt and its .mtl map_Kd with the image's path relative
to the .mtl. configs/pga/textured.pga is an example. Without
-o, or with --stats-only (no geometry written), the statistics go to stdout.

Several grammars (files, or the .pga files of a directory) build one after
another on the same lots; each -o is then a pattern whose %s is each
grammar's file name without extension (cities/%s.glb). A failing grammar
is reported and the others go on. --shard I/N builds only grammars k with
k mod N = I (files in order, a directory's in name order), so the N tasks of
a Slurm job array (SLURM_ARRAY_TASK_ID/COUNT) or Kubernetes indexed Job
(JOB_COMPLETION_INDEX with PROCGEN_SHARD_COUNT) write one run's files; the
flag wins over the environment, and a single grammar runs whole under a job
array's variables.

--device cuda evaluates on the GPU (--scheduler persistent, the paper's
scheduler, or levels, its one-launch-per-level baseline), --device cpu on all
cores; auto estimates the work from a sample of the lots and takes the faster
(-v says why). Both give the same terminals. On the GPU a city written only as
.glb is built there as a file, the one the host would write of the same
terminals. What makes new polygons of a lot's own polygon (Offset, Setback,
SubDiv or Repeat across it) runs on the CPU only: --device cuda refuses such
a grammar, naming the operator, and auto takes the CPU.
--max-shapes and --max-depth stop a runaway grammar and name the rule.`

func (a *app) newPgaCityCmd() *cobra.Command {
	var outs []string
	var format, shardSpec string
	cmd := &cobra.Command{
		Use:   "city GRAMMAR.pga|DIR ... [--lots lots.geojson | --grid WxH] [-o city.obj|city.glb|city.png|city.json ...]",
		Short: "Expand a shape grammar on every lot of a city",
		Long:  pgaCityLong + "\n\n" + exitCodeHelp,
		Example: `  procgen pga city configs/pga/tower.pga --grid 20x10 -o city.glb
  procgen pga city configs/pga/tower.pga --lots lots.geojson -o city.obj -o city.json
  procgen pga city configs/pga/tower.pga --grid 200x190 --stats-only
  procgen pga city configs/pga/ --grid 4x4 -o 'cities/%s.glb' --shard 1/3`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var o pgajob.Options
			if err := a.decode("pga", &o); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			sh, err := a.shardOf(shardSpec)
			if err != nil {
				return err
			}
			return pgajob.Run(cmd.Context(), a.env(), o, args, outs, format, sh)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&outs, "output", "o", nil, "output `FILE`: .obj, .glb, .png or .json, or - for standard output (repeatable)")
	f.StringVar(&format, "format", "json", "`FORMAT` of -o - (standard output): json, obj (without materials), glb or png")
	addShardFlag(f, &shardSpec)
	a.bindFlag(f, "pga.lots", "lots", "")
	a.bindFlag(f, "pga.lots-crs", "lots-crs", "")
	a.bindFlag(f, "pga.crs", "crs", "")
	a.bindFlag(f, "pga.grid", "grid", "")
	a.bindFlag(f, "pga.glb-images", "glb-images", "")
	a.bindFlag(f, "pga.axiom", "axiom", "")
	a.bindFlag(f, "pga.max-shapes", "max-shapes", "")
	a.bindFlag(f, "pga.max-depth", "max-depth", "")
	a.bindFlag(f, "pga.height", "height", "")
	a.bindFlag(f, "pga.lot-width", "lot-width", "")
	a.bindFlag(f, "pga.lot-depth", "lot-depth", "")
	a.bindFlag(f, "pga.street", "street", "")
	a.bindFlag(f, "pga.stats-only", "stats-only", "")
	a.bindFlag(f, "pga.scheduler", "scheduler", "")
	a.bindFlag(f, "pga.local-grouping", "local-grouping", "")
	a.bindFlag(f, "pga.operator-parallel", "operator-parallel", "")
	return cmd
}
