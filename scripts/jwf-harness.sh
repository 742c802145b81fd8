#!/bin/sh
# Builds the reference that procgen's JWildfire variations are checked
# against: JWildfire's own variation classes, fetched from GitHub at a fixed
# commit and compiled with a few small stand-ins for the JWildfire classes
# they lean on (points, the random context, java.lang.Math in place of its
# FastMath library), plus a driver that maps sample points through them.
# Nothing of JWildfire enters this repository; the build lives in DIR.
#
#   scripts/jwf-harness.sh DIR     (needs git or curl, and javac 17)
#   JWF_GIT=/path/to/JWildfire.git scripts/jwf-harness.sh DIR
#                                  (reads the sources from a local clone or
#                                  bare mirror with git show, for machines
#                                  that cannot reach GitHub)
#   PROCGEN_JWF_HARNESS=DIR go test ./internal/flame -run JWildfireReference -v
set -eu
DIR=${1:?usage: jwf-harness.sh DIR}
. "$(dirname "$0")/jwf-fetch.sh" # COMMIT, get
VAR=src/org/jwildfire/create/tina/variation
CLASSES="Linear3D Flatten Julia3D ZScale ZTranslate Spherical3D SineBlur Curl3D Hemisphere Blur3D ZCone Julia3DZ Blob3D EpispiralWF
AbstractAffine3D Affine3D Hypertile2 Hypertile1 BWraps7 Boarders2
JuliaN2 JuliaC Waves4WF Poincare3D Spirograph CannabisCurveWF CloverLeafWF Epispiral
YinYang JuliaQ Waves23 Unpolar IDisc LinearT CylinderApo BlurZoom BlurLinear
Waves2Radial Waves2WF Tile_Log StarBlur Bubble2 Waffle
Waves3WF Waves22 Waves3 Waves4 XHeart FDisc Octagon NPolar
Synth Vibration2 XTrb NBlur Blade3D JuliaN3DX TileHlp Falloff2
Acosh Acosech Acoth Foci_3D Mobius Bilinear LinearT3D Murl Shredlin Target Butterfly3D Barycentroid
BTransform GlynnSim1 Hypertile Truchet
MCarpet CircleBlur Cos2_BS Sec2_BS InflateZ_3 MapleLeaf JapaneseMapleLeaf Disc3D Lissajous Oscilloscope2 Spligon WDisc
GlynnSim2 DSpherical Minkowskope Circlesplit EJulia Circlize2 CPow3WF Spirograph3D Chunk
Csc2_BS Cosh2_BS Cot2_BS Coth2_BS Sech2_BS Sinh2_BS Tan2_BS Tanh2_BS Exp2_BS InflateZ_1 InflateZ_4 InflateZ_5 InflateZ_6
Cardioid Checks BlurCircle FlipCircle FlipY Invpolar Secq Tanhq Sph3D Square3D Squarize Sigmoid Shift TwoFace TanCos
WhitneyUmbrella Rays2 Petal Triangle Cone
PowBlock Loonie2 Hypershift Ennepers2 EScale Pyramid Line SphericalN Lozi Henon CPow3 Hypertile3D
SuperShape3D EMotion Hypertile3D2 Cubic_3D Collideoscope Asteria
SeaShell3D RoseWF PTransform Kaleidoscope WaveBlurWF
Hexes AbstractFalloff3 Falloff3 Chrysanthemum LazyTravis
ExBlur Glitchy1 LazySensen Shredded Crackle TQMirror PostTrig Scrambly FarBlur MaurerRose PRose3D Clifford Sattractor
Elliptic Splits Waves2_3D Spherical3DWF HeartWF
Waves2B Joukowski PlaneWF SymNetG15 PostAxisSymmetryWF PostPointSymmetryWF"
mkdir -p "$DIR/src/org/jwildfire/create/tina/variation" "$DIR/classes"
for c in $CLASSES; do
	get "$VAR/${c}Func.java" "$DIR/$VAR/${c}Func.java"
done
mkdir -p "$DIR/src/odk/lang" "$DIR/src/org/jwildfire/base/mathlib"
for c in VoronoiTools NoiseTools; do
	get "$VAR/$c.java" "$DIR/$VAR/$c.java"
done
get src/org/jwildfire/base/mathlib/Complex.java "$DIR/src/org/jwildfire/base/mathlib/Complex.java"
# Two classes draw from java.lang.Math.random, which cannot be scripted: the
# harness build points those calls at the scripted context of the case being
# run (FlameTransformationContext.current), so they take the next draw too.
for c in SymNetG15 MaurerRose; do
	sed 's/Math\.random()/org.jwildfire.create.tina.variation.FlameTransformationContext.current.random()/g' \
		"$DIR/$VAR/${c}Func.java" >"$DIR/$VAR/${c}Func.java.tmp" && mv "$DIR/$VAR/${c}Func.java.tmp" "$DIR/$VAR/${c}Func.java"
done
# waves2b calls the colt library's Bessel J1: JWildfire ships colt's jar,
# whose classes join the build.
mkdir -p "$DIR/lib" "$DIR/src/js/glsl"
get lib/colt-1.2.0.jar "$DIR/lib/colt.jar"
(cd "$DIR/classes" && unzip -q -o ../lib/colt.jar 'cern/*')
# joukowski and sym_ng15 use JWildfire's GLSL-style vec2 (and the types it
# names), and joukowski four
# of its G helpers; G itself pulls in JWildfire's image classes, so the
# harness carries those four with G's own one-line bodies.
for c in vec2 vec3 vec4 mat2 mat3 mat4; do
	get "src/js/glsl/$c.java" "$DIR/src/js/glsl/$c.java"
done
cat > "$DIR/src/js/glsl/G.java" <<'JAVA'
package js.glsl;
public final class G {
  public static double dot(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }
  public static double length(vec2 a) { return Math.sqrt(a.x * a.x + a.y * a.y); }
  public static vec2 sqrt(vec2 a) { vec2 r = new vec2(0.0); r.x = Math.sqrt(a.x); r.y = Math.sqrt(a.y); return r; }
  public static double sign(double v) { return Math.signum(v); }
}
JAVA
# plane_wf's colour and displacement maps: procgen honours the flame without
# maps (it reports a named map as not honoured), so the holders stand in
# with no map loaded, and its colour-index palette is a one-colour one.
cat > "$DIR/$VAR/ColorMapHolder.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
public class ColorMapHolder {
  int blend; String name;
  public String getColormap_filename() { return name; }
  public void setColormap_filename(String s) { name = s; }
  public int getBlend_colormap() { return blend; }
  public void setBlend_colormap(int b) { blend = b; }
  public void init() {}
  public void applyImageColor(org.jwildfire.create.tina.base.XYZPoint p, int ix, int iy, double iu, double iv) { throw new IllegalStateException("no colour map"); }
  public int getColorMapWidth() { return 0; }
  public int getColorMapHeight() { return 0; }
  public boolean isActive() { return false; }
}
JAVA
cat > "$DIR/$VAR/DisplacementMapHolder.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
public class DisplacementMapHolder {
  int blend; double amount; String name;
  public int getBlend_displ_map() { return blend; }
  public void setBlend_displ_map(int b) { blend = b; }
  public double getDispl_amount() { return amount; }
  public void setDispl_amount(double a) { amount = a; }
  public String getDispl_map_filename() { return name; }
  public void setDispl_map_filename(String s) { name = s; }
  public void init() {}
  public boolean isActive() { return false; }
  public int getDisplacementMapWidth() { return 0; }
  public int getDisplacementMapHeight() { return 0; }
  public double calculateImageDisplacement(int ix, int iy, double iu, double iv) { throw new IllegalStateException("no displacement map"); }
}
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/palette"
cat > "$DIR/src/org/jwildfire/create/tina/palette/RenderColor.java" <<'JAVA'
package org.jwildfire.create.tina.palette;
public class RenderColor {
  public double red, green, blue;
  public RenderColor(double r, double g, double b) { red = r; green = g; blue = b; }
}
JAVA
cat > "$DIR/src/odk/lang/FastMath.java" <<'JAVA'
package odk.lang;
public final class FastMath { public static double hypot(double a, double b) { return Math.hypot(a, b); } }
JAVA
cat > "$DIR/src/odk/lang/DoubleWrapper.java" <<'JAVA'
package odk.lang;
public class DoubleWrapper { public double value; }
JAVA
mkdir -p "$DIR/src/org/jwildfire/base"
cat > "$DIR/src/org/jwildfire/base/Tools.java" <<'JAVA'
package org.jwildfire.base;
public class Tools {
  // Round half away from zero, as JWildfire's FTOI.
  public static int FTOI(double v) { return v > 0 ? (int) (v + 0.5) : v < 0 ? (int) (v - 0.5) : 0; }
  public static double limitValue(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }
  public static int limitValue(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
  public static int randomInt(int n) { return (int) (Math.random() * n); } // class defaults only: the cases set what they use
}
JAVA
mkdir -p "$DIR/src/org/jwildfire/base/mathlib"
cat > "$DIR/src/org/jwildfire/base/mathlib/DoubleWrapperWF.java" <<'JAVA'
package org.jwildfire.base.mathlib;
public class DoubleWrapperWF extends odk.lang.DoubleWrapper {}
JAVA
mkdir -p "$DIR/src/org/jwildfire/base/mathlib"
cat > "$DIR/src/org/jwildfire/base/mathlib/MathLib.java" <<'JAVA'
package org.jwildfire.base.mathlib;
// Harness facade: java.lang.Math in place of JWildfire's FastMath base library.
public final class MathLib {
  public static final double SMALL_EPSILON = 1.0e-300, EPSILON = 1e-8;
  public static final double M_E = Math.E;
  public static final double M_PI = Math.PI, M_2PI = 2.0 * Math.PI, M_PI_2 = Math.PI / 2, M_PI_4 = Math.PI / 4;
  public static final double M_1_PI = 1.0 / M_PI, M_1_2PI = M_1_PI / 2.0, M_2_PI = 2.0 / M_PI;
  public static double sqr(double v) { return v * v; }
  public static double sqrt(double v) { return Math.sqrt(v); }
  public static double atan2(double y, double x) { return Math.atan2(y, x); }
  public static double sin(double v) { return Math.sin(v); }
  public static double cos(double v) { return Math.cos(v); }
  public static double acos(double v) { return Math.acos(v); }
  public static double asin(double v) { return Math.asin(v); }
  public static double atan(double v) { return Math.atan(v); }
  public static double tan(double v) { return Math.tan(v); }
  public static double frac(double v) { return v - (int) v; }
  public static final int TRUE = 1, FALSE = 0;
  public static double trunc(double v) { return v < 0 ? Math.ceil(v) : Math.floor(v); }
  public static double exp(double v) { return Math.exp(v); }
  public static double sinh(double v) { return Math.sinh(v); }
  public static double cosh(double v) { return Math.cosh(v); }
  public static double tanh(double v) { return Math.tanh(v); }
  public static double acosh(double d) { return log(sqrt(pow(d, 2.0) - 1.0) + d); } // JWildfire's formula
  public static double log(double v) { return Math.log(v); }
  public static double pow(double a, double b) { return Math.pow(a, b); }
  public static double fabs(double v) { return Math.abs(v); }
  public static double min(double a, double b) { return Math.min(a, b); } // elliptic's clamp
  public static double max(double a, double b) { return Math.max(a, b); }
  public static double floor(double v) { return Math.floor(v); }
  public static double rint(double v) { return Math.rint(v); }
  public static double round(double v) { return Math.round(v); }
  public static double fmod(double a, double b) { return a % b; }
  public static int iabs(int v) { return Math.abs(v); }
  public static int sign(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }
  public static void sinAndCos(double a, odk.lang.DoubleWrapper s, odk.lang.DoubleWrapper c) { s.value = Math.sin(a); c.value = Math.cos(a); }
}
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/base"
cat > "$DIR/src/org/jwildfire/create/tina/base/Layer.java" <<'JAVA'
package org.jwildfire.create.tina.base;
public class Layer {
  // plane_wf's init builds a colour-index table from the layer's palette.
  public static class Palette { public org.jwildfire.create.tina.palette.RenderColor[] createRenderPalette(int white) { return new org.jwildfire.create.tina.palette.RenderColor[] { new org.jwildfire.create.tina.palette.RenderColor(0, 0, 0) }; } }
  public Palette getPalette() { return new Palette(); }
}
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/base"
cat > "$DIR/src/org/jwildfire/create/tina/base/XForm.java" <<'JAVA'
package org.jwildfire.create.tina.base;
public class XForm {}
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/base"
cat > "$DIR/src/org/jwildfire/create/tina/base/XYZPoint.java" <<'JAVA'
package org.jwildfire.create.tina.base;
public class XYZPoint { public double x, y, z, color, redColor, greenColor, blueColor; public boolean receiveOnlyShadows; public double getPrecalcAtan() { return Math.atan2(x, y); } public double getPrecalcSqrt() { return Math.sqrt(x * x + y * y); } public double getPrecalcAtanYX() { return Math.atan2(y, x); } public double getPrecalcSumsq() { return x * x + y * y; } }
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/variation"
cat > "$DIR/src/org/jwildfire/create/tina/variation/FlameTransformationContext.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
// Scripted random numbers: the harness says which draws a variation gets.
public class FlameTransformationContext {
  public double[] draws = new double[0];
  public int next;
  public double random() { return draws[next++]; }
  public int random(int n) { return (int) (random() * n); }
  public boolean isPreserveZCoordinate() { return false; }
  public FlameTransformationContext getRandGen() { return this; }
  // The case being run, for the classes whose Math.random calls the build
  // points here.
  public static FlameTransformationContext current;
  public static class Renderer { public Renderer getFlame() { return this; } public int getWhiteLevel() { return 200; } }
  public Renderer getFlameRenderer() { return new Renderer(); }
}
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/variation"
cat > "$DIR/src/org/jwildfire/create/tina/variation/SimpleVariationFunc.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
public abstract class SimpleVariationFunc extends VariationFunc {
  public String[] getParameterNames() { return new String[0]; }
  public Object[] getParameterValues() { return new Object[0]; }
}
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/variation"
cat > "$DIR/src/org/jwildfire/create/tina/variation/SupportsGPU.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
public interface SupportsGPU {}
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/variation"
cat > "$DIR/src/org/jwildfire/create/tina/variation/VariationFunc.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
import org.jwildfire.create.tina.base.*;
public abstract class VariationFunc {
  public abstract void transform(FlameTransformationContext c, XForm x, XYZPoint a, XYZPoint v, double amount);
  public abstract String getName();
  public abstract String[] getParameterNames();
  public abstract Object[] getParameterValues();
  public void setParameter(String n, double v) { throw new IllegalArgumentException(n); }
  public void init(FlameTransformationContext c, Layer l, XForm x, double amount) {}
  public int getPriority() { return 0; }
  public boolean isStateful() { return false; }
  public boolean enableRandomizeButton() { return true; }
  public void randomize() {}
  public void mutate(double a) {}
  public double mutateStep(double v, double a) { return 0; }
  public VariationFuncType[] getVariationTypes() { return null; }
  public String getGPUCode(FlameTransformationContext c) { return ""; }
  public String getGPUFunctions(FlameTransformationContext c) { return ""; }
  public String[] getParameterAlternativeNames() { return null; }
  public boolean dynamicParameterExpansion() { return false; }
  public boolean dynamicParameterExpansion(String n) { return false; }
  public static int limitIntVal(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
  public static double limitVal(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }
  public String[] getRessourceNames() { return null; }
  public byte[][] getRessourceValues() { return null; }
  public RessourceType getRessourceType(String n) { return null; }
  public void setRessource(String n, byte[] v) { throw new IllegalArgumentException(n); }
}
JAVA
cat > "$DIR/src/org/jwildfire/create/tina/variation/RessourceType.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
public enum RessourceType { REFERENCE, IMAGE_FILENAME }
JAVA
mkdir -p "$DIR/src/org/jwildfire/create/tina/variation"
cat > "$DIR/src/org/jwildfire/create/tina/variation/VariationFuncType.java" <<'JAVA'
package org.jwildfire.create.tina.variation;
public enum VariationFuncType { VARTYPE_2D, VARTYPE_3D, VARTYPE_BLUR, VARTYPE_POST, VARTYPE_SUPPORTED_BY_SWAN, VARTYPE_SUPPORTS_GPU, VARTYPE_ZTRANSFORM, VARTYPE_BASE_SHAPE, VARTYPE_SIMULATION, VARTYPE_DC, VARTYPE_PRE, VARTYPE_CROP, VARTYPE_SUPPORTS_BACKGROUND }
JAVA
cat > "$DIR/src/JwfHarness.java" <<'JAVA'
import java.io.*;
import java.util.*;
import org.jwildfire.create.tina.base.XYZPoint;
import org.jwildfire.create.tina.variation.*;

// Reads cases from stdin, one a line:
//   x y z ndraws d1..dn nvars (class amount nparams (name value)*)*
// applies the variations in order to the affine point (x, y, z) with the
// sum starting at 0 and the context's random() returning d1..dn in turn,
// and prints the sum "x y z" with 17 significant digits.
public class JwfHarness {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false);
    for (String line; (line = in.readLine()) != null;) {
      Scanner s = new Scanner(line).useLocale(Locale.ROOT);
      XYZPoint t = new XYZPoint(), v = new XYZPoint();
      t.x = s.nextDouble(); t.y = s.nextDouble(); t.z = s.nextDouble();
      FlameTransformationContext ctx = new FlameTransformationContext();
      FlameTransformationContext.current = ctx;
      ctx.draws = new double[s.nextInt()];
      for (int i = 0; i < ctx.draws.length; i++) ctx.draws[i] = s.nextDouble();
      int nv = s.nextInt();
      for (int i = 0; i < nv; i++) {
        VariationFunc f = (VariationFunc) Class.forName("org.jwildfire.create.tina.variation." + s.next()).getDeclaredConstructor().newInstance();
        double amount = s.nextDouble();
        int np = s.nextInt();
        for (int j = 0; j < np; j++) f.setParameter(s.next(), s.nextDouble());
        f.init(ctx, new org.jwildfire.create.tina.base.Layer(), null, amount);
        f.transform(ctx, null, t, v, amount);
      }
      out.printf(Locale.ROOT, "%.17g %.17g %.17g%n", v.x, v.y, v.z);
    }
    out.flush();
  }
}
JAVA
javac -nowarn -cp "$DIR/classes" -d "$DIR/classes" $(find "$DIR/src" -name "*.java")
echo "harness built: PROCGEN_JWF_HARNESS=$DIR/classes"
