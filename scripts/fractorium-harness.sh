#!/bin/sh
# Builds the reference that procgen's Fractorium-only variations are checked
# against: Fractorium's own variation classes (Ember's headers, fetched at a
# fixed commit) compiled with g++ and a driver of ours that maps sample points
# through them. Nothing of Fractorium enters this repository; the build lives
# in DIR.
#
#   scripts/fractorium-harness.sh DIR     (needs git or curl, g++ and glm:
#                                         Debian's libglm-dev)
#   FRACT_GIT=/path/to/fractorium.git scripts/fractorium-harness.sh DIR
#                                         (reads the sources from a local
#                                         clone or bare mirror with git show)
#   PROCGEN_FRACTORIUM_HARNESS=DIR/harness go test ./internal/flame -run FractoriumReference -v
#
# Of Ember only the headers the variations need are fetched. Four of the
# headers they include are replaced by small stand-ins written here, because
# what they hold is machinery the variations' Func does not run:
#   EmberPch.h  the standard and glm headers only (libxml2's xmlChar and
#               xmlStrcmp declared in two lines instead of its headers);
#   Timing.h    empty past EmberDefines.h (timers);
#   Xform.h     an Xform with just what Variation's OpenCL string code names
#               (its index and affine), so the classes instantiate;
#   Isaac.h     QTIsaac with its variation-facing calls answering from the
#               case's scripted draws (below) instead of ISAAC's stream.
set -eu
DIR=${1:?usage: fractorium-harness.sh DIR}
COMMIT=2ba3764aebf83bacbed017741c08e1f4fc10b7de
# get PATH FILE: Fractorium's PATH at COMMIT into FILE, unless FILE is there;
# from FRACT_GIT (a clone or bare mirror) when set, else from GitHub. A failed
# fetch leaves no FILE behind.
get() {
	[ -s "$2" ] && return 0
	if [ -n "${FRACT_GIT:-}" ]; then
		git --git-dir="$FRACT_GIT" show "$COMMIT:$1" >"$2.part"
	else
		curl -fsSL "https://raw.githubusercontent.com/typpos/fractorium/$COMMIT/$1" -o "$2.part"
	fi
	mv "$2.part" "$2"
}
E="$DIR/ember"
mkdir -p "$E"
for f in EmberDefines.h Point.h Affine2D.h Utils.h VarFuncs.h Variation.h \
	Variations01.h Variations02.h Variations03.h Variations04.h Variations05.h Variations07.h Variations08.h; do
	get "Source/Ember/$f" "$E/$f"
done
cat >"$E/EmberPch.h" <<'CPP'
#pragma once
// Stand-in for Ember's precompiled header: the standard and glm headers its
// variation code uses, without libxml2 (only its XML reader needs that).
#define _USE_MATH_DEFINES
#include <algorithm>
#include <array>
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <list>
#include <map>
#include <math.h>
#include <memory>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>
#include <libgen.h>
#include <unistd.h>
#define EMBER_OS "LNX"
// Utils.h's XML name compare is declared against libxml2's types; these two
// let it compile (nothing here calls it).
typedef unsigned char xmlChar;
static inline int xmlStrcmp(const xmlChar* a, const xmlChar* b) { return strcmp((const char*)a, (const char*)b); }
#define GLM_FORCE_RADIANS 1
#define GLM_ENABLE_EXPERIMENTAL 1
#define GLM_FORCE_INLINE 1
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/gtx/string_cast.hpp>
using namespace std;
using namespace std::chrono;
using namespace glm;
using namespace glm::detail;
using glm::uint;
using glm::uint16;
CPP
cat >"$E/Timing.h" <<'CPP'
#pragma once
// Stand-in: Ember's timers are not needed by the variations.
#include "EmberDefines.h"
CPP
cat >"$E/Isaac.h" <<'CPP'
#pragma once
// Stand-in for Ember's ISAAC generator: every call a variation makes answers
// from the draws the driver scripts for it, each a double d in [0, 1), taken
// in order, so procgen's Float64 draws can be fed in:
//   Frand01<T>()      d
//   Frand11<T>()      2d - 1
//   Frand<T>(lo, hi)  lo + d (hi - lo)
//   Rand()            floor(d 2^32), a uniform 32-bit word
//   Rand(n)           floor(d n) (ISAAC's (Rand() n) >> 32), Rand() for n 0
//   Crand()           Rand(32767)
//   RandBit()         1 when d >= 0.5 (ISAAC's low bit of a uniform word)
//   GoldenBit<T>()    0.38196 when RandBit(), else 0.61804, as Ember's
// Running out of draws is an error the driver reports.
#include "EmberDefines.h"
typedef uint ISAAC_INT;
namespace EmberNs
{
template <int ALPHA = 4, class T = ISAAC_INT>
class QTIsaac
{
public:
	std::vector<double> Draws;
	size_t Next = 0;
	bool Short = false;
	double Draw()
	{
		if (Next >= Draws.size())
		{
			Short = true;
			return 0;
		}
		return Draws[Next++];
	}
	T Rand() { return T(std::floor(Draw() * 4294967296.0)); }
	T Rand(size_t upper) { return upper == 0 ? Rand() : T(std::floor(Draw() * double(upper))); }
	T Crand() { return Rand(32767); }
	uint RandBit() { return Draw() >= 0.5 ? 1 : 0; }
	template <typename F> F Frand01() { return F(Draw()); }
	template <typename F> F Frand11() { return F(2 * Draw() - 1); }
	template <typename F> F Frand(F lo, F hi) { return lo + F(Draw()) * (hi - lo); }
	template <typename F> F GoldenBit() { return RandBit() ? F(0.38196) : F(0.61804); }
	// Ember's global locked generator seeds OpenCL state vectors only; a
	// variation's Func never calls it, so here it stops the driver.
	static T LockedRand() { std::abort(); }
	static uint LockedRandBit() { std::abort(); }
	template <typename F> static F LockedFrand01() { std::abort(); }
	template <typename F> static F LockedFrand(F, F) { std::abort(); }
};
}
CPP
cat >"$E/Xform.h" <<'CPP'
#pragma once
// Stand-in: the part of Ember's Xform the variation classes name outside
// Func (their OpenCL strings' indices) or in Func of classes not run here.
#include "Variation.h"
namespace EmberNs
{
template <typename T>
class Xform
{
public:
	intmax_t GetVariationIndex(Variation<T>*) const { return 0; }
	intmax_t IndexInParentEmber() const { return 0; }
	Affine2D<T> m_Affine;
};
}
CPP
cat >"$DIR/harness.cpp" <<'CPP'
// Reads cases from stdin, one a line:
//   x y z nterms (stage name weight ndraws d1..dn nparams (pname value)*)*
// stage is pre, reg or post; each term's own draws feed its Func (Isaac.h
// says how). The affine point (x, y, z) goes through the terms as Ember's
// Xform::Apply takes it: pre terms in order, each reading the point and
// writing it back (assigned or added, as the class's assign type says);
// then, if any regular term, the sum from 0 of the regular terms' outputs,
// each reading the (pre-moved) point with the xform's precalcs of it, and
// each Func free to touch the sum as Fractorium's do; then post terms in
// order on the sum. Prints the result "x y z" with 17 significant digits,
// or "short" when a term wanted more draws than it was given.
#include "EmberPch.h"
#include "Variations01.h"
#include "Variations02.h"
#include "Variations03.h"
#include "Variations04.h"
#include "Variations05.h"
#include "Variations07.h"
#include "Variations08.h"
using namespace EmberNs;
// Ember.cpp's default: flam3 compatibility on (julia's radius, a few trig
// forms); it is the one definition of Ember's .cpp files the classes need.
bool Compat::m_Compat = true;
typedef double T;
typedef QTIsaac<ISAAC_SIZE, ISAAC_INT> Rng;

static Variation<T>* make(const string& stage, const string& name, T w)
{
	// Classes with pre_ and post_ twins (Ember's MAKEPREPOSTVAR) get the
	// twin for those stages, so the type and prefixed names are Ember's.
#define TWINS(cls, nm) \
	if (name == nm) { \
		if (stage == "pre") return new Pre##cls##Variation<T>(w); \
		if (stage == "post") return new Post##cls##Variation<T>(w); \
		return new cls##Variation<T>(w); \
	}
#define REG(cls, nm) \
	if (name == nm && stage == "reg") return new cls##Variation<T>(w);
	TWINS(Linear, "linear") TWINS(Linear3D, "linear3D") TWINS(Julia, "julia") TWINS(Gaussian, "gaussian")
	TWINS(MirrorX, "mirror_x") TWINS(Spherical3D, "Spherical3D")
	TWINS(Foci, "foci") TWINS(Curl, "curl") TWINS(Log, "log") TWINS(Unpolar, "unpolar") TWINS(Spherical, "spherical")
	TWINS(Swirl, "swirl") TWINS(GaussianBlur, "gaussian_blur") TWINS(Arch, "arch") TWINS(Pie, "pie")
	TWINS(Square, "square") TWINS(Blur3D, "blur3D") TWINS(ZTranslate, "ztranslate") TWINS(Sineblur, "sineblur")
	TWINS(Curl3D, "curl3D") TWINS(BlurZoom, "blur_zoom") TWINS(Polar, "polar") TWINS(JuliaQ, "juliaq")
	REG(WavesN, "wavesn") REG(Gnarly, "gnarly") REG(Falloff, "falloff")
	REG(RotateY, "rotate_y") REG(RotateZ, "rotate_z") REG(RBlur, "rblur")
	REG(Sphereblur, "sphereblur") REG(BCircle, "bcircle") REG(Mobius, "Mobius")
	REG(Waves2, "waves2")
	return nullptr;
}

// precalc fills the helper's precalcs of In the way Xform::Precalc does for
// regular variations, all of them (each is a function of In alone).
static void precalc(IteratorHelper<T>& h)
{
	h.m_PrecalcSumSquares = SQR(h.In.x) + SQR(h.In.y);
	h.m_PrecalcSqrtSumSquares = std::sqrt(h.m_PrecalcSumSquares);
	h.m_PrecalcCosa = h.In.x / Zeps(h.m_PrecalcSqrtSumSquares);
	h.m_PrecalcSina = h.In.y / Zeps(h.m_PrecalcSqrtSumSquares);
	h.m_PrecalcAtanxy = std::atan2(h.In.x, h.In.y);
	h.m_PrecalcAtanyx = std::atan2(h.In.y, h.In.x);
}

struct Term
{
	unique_ptr<Variation<T>> v;
	vector<double> draws;
};

int main()
{
	string line;
	cout << setprecision(17);
	for (size_t n = 1; getline(cin, line); n++)
	{
		istringstream in(line);
		in.imbue(std::locale::classic());
		T x, y, z;
		size_t nt;
		in >> x >> y >> z >> nt;
		vector<Term> pre, reg, post;
		for (size_t i = 0; i < nt; i++)
		{
			string stage, name;
			T w;
			size_t nd, np;
			in >> stage >> name >> w >> nd;
			Term t;
			t.draws.resize(nd);
			for (auto& d : t.draws) in >> d;
			t.v.reset(make(stage, name, w));
			if (!t.v)
			{
				cerr << "line " << n << ": no " << stage << " variation " << name << "\n";
				return 1;
			}
			in >> np;
			for (size_t j = 0; j < np; j++)
			{
				string pn;
				T pv;
				in >> pn >> pv;
				auto pv2 = dynamic_cast<ParametricVariation<T>*>(t.v.get());
				string full = t.v->Prefix() + pn;
				if (!pv2 || !pv2->SetParamVal(full.c_str(), pv))
				{
					cerr << "line " << n << ": " << name << " has no parameter " << full << "\n";
					return 1;
				}
			}
			t.v->Precalc();
			(stage == "pre" ? pre : stage == "post" ? post : reg).push_back(std::move(t));
		}
		if (!in)
		{
			cerr << "line " << n << ": malformed case\n";
			return 1;
		}
		IteratorHelper<T> h;
		Point<T> out;
		bool shortDraws = false;
		auto run = [&](Term& t) {
			Rng r;
			r.Draws = t.draws;
			h.Out = v4T(0);
			t.v->Func(h, out, r);
			shortDraws = shortDraws || r.Short;
		};
		T tx = x, ty = y, tz = z;
		for (auto& t : pre)
		{
			h.In = v4T(tx, ty, tz, 0);
			t.v->PrePostPrecalcHelper(h);
			run(t);
			if (t.v->AssignType() == eVariationAssignType::ASSIGNTYPE_SET)
				tx = h.Out.x, ty = h.Out.y, tz = h.Out.z;
			else
				tx += h.Out.x, ty += h.Out.y, tz += h.Out.z;
		}
		if (!reg.empty())
		{
			h.In = v4T(tx, ty, tz, 0);
			precalc(h);
			out.m_X = out.m_Y = out.m_Z = 0;
			for (auto& t : reg)
			{
				run(t);
				out.m_X += h.Out.x;
				out.m_Y += h.Out.y;
				out.m_Z += h.Out.z;
			}
		}
		else
		{
			out.m_X = tx, out.m_Y = ty, out.m_Z = tz;
		}
		for (auto& t : post)
		{
			h.In = v4T(out.m_X, out.m_Y, out.m_Z, 0);
			t.v->PrePostPrecalcHelper(h);
			run(t);
			if (t.v->AssignType() == eVariationAssignType::ASSIGNTYPE_SET)
				out.m_X = h.Out.x, out.m_Y = h.Out.y, out.m_Z = h.Out.z;
			else
				out.m_X += h.Out.x, out.m_Y += h.Out.y, out.m_Z += h.Out.z;
		}
		if (shortDraws)
			cout << "short\n";
		else
			cout << out.m_X << " " << out.m_Y << " " << out.m_Z << "\n";
	}
	return 0;
}
CPP
# -ffp-contract=off: no fused multiply-adds the source does not write, so
# the reference rounds as the C++ reads (Go fuses only where code says so).
g++ -std=c++17 -O1 -ffp-contract=off -w -I"$E" -o "$DIR/harness" "$DIR/harness.cpp"
echo "harness built: PROCGEN_FRACTORIUM_HARNESS=$DIR/harness"
