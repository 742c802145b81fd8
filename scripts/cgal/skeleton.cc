// A reference for internal/pga/skeleton: reads polygons with holes on
// stdin and prints CGAL's interior straight skeleton of each, for
// TestSkeletonAgainstCGAL. Built by scripts/cgal-skeleton.sh (needs Debian's
// libcgal-dev); not part of procgen.
//
// Input: optionally first "D k d1 ... dk", inset distances; then per
// polygon "P rings", then per ring "n" and n lines "x y" (the outer ring
// first). Output, per polygon: one line per face, "F ax ay bx by k x1 y1
// ... xk yk" (the contour edge a->b that sweeps the face, then the face's
// corners), one line per skeleton node "N x y t", one line per inset
// distance "A d area" (the signed area of CGAL's offset polygons at d, holes
// negative), one line per distance "O d area" (the area of the polygon
// grown by d: the outer ring's exterior offset less each hole's interior
// one, holes growing smaller), then "END"; a polygon CGAL cannot
// skeletonize prints "E" and "END".
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Polygon_with_holes_2.h>
#include <CGAL/create_offset_polygons_2.h>
#include <CGAL/create_offset_polygons_from_polygon_with_holes_2.h>
#include <CGAL/create_straight_skeleton_from_polygon_with_holes_2.h>
#include <cstdio>
#include <iostream>
#include <vector>

typedef CGAL::Exact_predicates_inexact_constructions_kernel K;
typedef K::Point_2 Point;
typedef CGAL::Polygon_2<K> Polygon;
typedef CGAL::Polygon_with_holes_2<K> PolygonWithHoles;

static Polygon readRing(std::istream& in) {
  int n = 0;
  in >> n;
  Polygon p;
  for (int i = 0; i < n; i++) {
    double x, y;
    in >> x >> y;
    p.push_back(Point(x, y));
  }
  return p;
}

int main() {
  std::ios::sync_with_stdio(false);
  std::string tag;
  std::vector<double> insets;
  while (std::cin >> tag) {
    if (tag == "D") {
      int k = 0;
      std::cin >> k;
      insets.resize(k);
      for (double& d : insets) std::cin >> d;
      continue;
    }
    if (tag != "P") return 2;
    int rings = 0;
    std::cin >> rings;
    Polygon outer = readRing(std::cin);
    if (outer.is_clockwise_oriented()) outer.reverse_orientation();
    PolygonWithHoles poly(outer);
    for (int r = 1; r < rings; r++) {
      Polygon h = readRing(std::cin);
      if (h.is_counterclockwise_oriented()) h.reverse_orientation();
      poly.add_hole(h);
    }
    auto ss = CGAL::create_interior_straight_skeleton_2(poly, K());
    if (!ss) {
      std::printf("E\nEND\n");
      continue;
    }
    for (auto f = ss->faces_begin(); f != ss->faces_end(); ++f) {
      auto h0 = f->halfedge();
      Point a = h0->opposite()->vertex()->point(), b = h0->vertex()->point();
      std::vector<Point> corners;
      auto h = h0;
      do {
        corners.push_back(h->vertex()->point());
        h = h->next();
      } while (h != h0);
      std::printf("F %.17g %.17g %.17g %.17g %zu", a.x(), a.y(), b.x(), b.y(), corners.size());
      for (const Point& c : corners) std::printf(" %.17g %.17g", c.x(), c.y());
      std::printf("\n");
    }
    for (auto v = ss->vertices_begin(); v != ss->vertices_end(); ++v) {
      if (v->is_skeleton()) std::printf("N %.17g %.17g %.17g\n", v->point().x(), v->point().y(), v->time());
    }
    for (double d : insets) {
      double area = 0;
      for (const auto& ring : CGAL::create_offset_polygons_2<Polygon>(d, *ss)) area += ring->area();
      std::printf("A %.17g %.17g\n", d, area);
    }
    for (double d : insets) {
      // The outer ring grows into the outside, each hole shrinks into
      // itself; the two never meet.
      double area = 0;
      for (const auto& p : CGAL::create_exterior_skeleton_and_offset_polygons_with_holes_2(d, outer)) {
        area += p->outer_boundary().area();
        for (auto h = p->holes_begin(); h != p->holes_end(); ++h) area += h->area();
      }
      for (auto h = poly.holes_begin(); h != poly.holes_end(); ++h) {
        Polygon in = *h;
        in.reverse_orientation();
        for (const auto& ring : CGAL::create_interior_skeleton_and_offset_polygons_2(d, in)) area -= ring->area();
      }
      std::printf("O %.17g %.17g\n", d, area);
    }
    std::printf("END\n");
  }
  return 0;
}
