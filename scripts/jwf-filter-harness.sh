#!/bin/sh
# Builds the reference procgen's JWildfire spatial filters are checked
# against: JWildfire's own filter-kernel classes and its FilterHolder (which
# sizes, samples and normalises the kernel table), at the commit
# jwf-harness.sh uses, with two small stand-ins (its MathLib as
# java.lang.Math, a Flame with the three getters FilterHolder reads) and a
# driver that prints tables. Nothing of JWildfire enters this repository;
# the build lives in DIR.
#
#   scripts/jwf-filter-harness.sh DIR   (needs curl, or JWF_GIT=a JWildfire
#                                        git directory holding the commit; and javac 17)
#   PROCGEN_JWF_HARNESS=DIR/classes go test ./internal/flame -run JWildfireFilterReference -v
set -eu
DIR=${1:?usage: jwf-filter-harness.sh DIR}
. "$(dirname "$0")/jwf-fetch.sh" # COMMIT, get
SRC=src/org/jwildfire/create/tina/render
KERNELS="FilterKernel FilterKernelType FilteringType BellFilterKernel BlackmanFilterKernel BoxFilterKernel
BSplineFilterKernel CatRomFilterKernel GaussianFilterKernel HammingFilterKernel HanningFilterKernel
HermiteFilterKernel Lanczos2FilterKernel Lanczos3FilterKernel MitchellFilterKernel MitchellSmoothFilterKernel
QuadraticFilterKernel SinePowFilterKernel SinePow5FilterKernel SinePow10FilterKernel SinePow15FilterKernel
TriangleFilterKernel"
mkdir -p "$DIR/src/org/jwildfire/create/tina/render/filter" "$DIR/src/org/jwildfire/base/mathlib" \
	"$DIR/src/org/jwildfire/create/tina/base" "$DIR/classes"
for c in $KERNELS; do
	get "$SRC/filter/$c.java" "$DIR/src/org/jwildfire/create/tina/render/filter/$c.java"
done
for c in FilterHolder FilterIndicator; do
	get "$SRC/$c.java" "$DIR/src/org/jwildfire/create/tina/render/$c.java"
done
cat > "$DIR/src/org/jwildfire/base/mathlib/MathLib.java" <<'JAVA'
package org.jwildfire.base.mathlib;
// Harness facade: java.lang.Math in place of JWildfire's base library.
public final class MathLib {
  public static final double EPSILON = 0.00000001;
  public static final double M_PI = Math.PI;
  public static double sin(double v) { return Math.sin(v); }
  public static double cos(double v) { return Math.cos(v); }
  public static double acos(double v) { return Math.acos(v); }
  public static double exp(double v) { return Math.exp(v); }
  public static double log10(double v) { return Math.log10(v); }
  public static double sqrt(double v) { return Math.sqrt(v); }
}
JAVA
cat > "$DIR/src/org/jwildfire/create/tina/base/Flame.java" <<'JAVA'
package org.jwildfire.create.tina.base;
// What FilterHolder's other constructor reads; the harness calls the explicit one.
public class Flame {
  public org.jwildfire.create.tina.render.filter.FilterKernelType getSpatialFilterKernel() { return null; }
  public int getSpatialOversampling() { return 1; }
  public double getSpatialFilterRadius() { return 0; }
}
JAVA
cat > "$DIR/src/JwfFilterHarness.java" <<'JAVA'
import java.io.*;
import java.util.*;
import org.jwildfire.create.tina.render.FilterHolder;
import org.jwildfire.create.tina.render.filter.FilterKernelType;

// Reads cases from stdin, one a line: KERNEL oversample radius. Prints for
// each: size sharpening adaptive, then FilterHolder's size×size table row
// by row (17 significant digits), as JWildfire's renderer gets it.
public class JwfFilterHarness {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
    for (String line; (line = in.readLine()) != null;) {
      Scanner s = new Scanner(line).useLocale(Locale.ROOT);
      FilterKernelType k = FilterKernelType.valueOf(s.next());
      int ov = s.nextInt();
      double r = s.nextDouble();
      FilterHolder h = new FilterHolder(k, ov, r);
      int n = h.getNoiseFilterSize();
      StringBuilder b = new StringBuilder();
      b.append(n).append(' ').append(k.isSharpening() ? 1 : 0).append(' ').append(k.isAdaptive() ? 1 : 0);
      double[][] f = h.getFilter();
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          b.append(' ').append(String.format(Locale.ROOT, "%.17g", f[i][j]));
      out.println(b);
    }
    out.flush();
  }
}
JAVA
javac -nowarn -d "$DIR/classes" $(find "$DIR/src" -name "*.java")
echo "harness built: PROCGEN_JWF_HARNESS=$DIR/classes"
