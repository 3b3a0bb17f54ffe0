// PolygonalMesh::distanceToPoint (guide §6.4.5): the distance from a point
// to the nearest point of a surface, by brute force over its triangles.
#include <algorithm>
#include <limits>

#include "sinew/geometry/PolygonalMesh.h"

namespace sinew {

using Eigen::Vector3d;

// Classifies p against the triangle's Voronoi regions (vertices, edges,
// face) by barycentric signs, as in Ericson, Real-Time Collision Detection
// §5.1.5.
Vector3d nearestPointOnTriangle(const Vector3d& p, const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  const Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = va + vb + vc;
  // A flat triangle has no face region: only round-off gets here.
  if (!(denom > 0)) return a;
  return a + (vb / denom) * ab + (vc / denom) * ac;
}

double PolygonalMesh::distanceToPoint(const Vector3d& p) const {
  double best = std::numeric_limits<double>::infinity();
  forEachTriangle([&](const Vector3d& a, const Vector3d& b, const Vector3d& c) {
    best = std::min(best, (nearestPointOnTriangle(p, a, b, c) - p).norm());
  });
  return best;
}

}  // namespace sinew
