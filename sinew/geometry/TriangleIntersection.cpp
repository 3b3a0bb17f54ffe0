#include "sinew/geometry/TriangleIntersection.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace sinew {

using Eigen::Vector3d;

namespace {

/// The points where triangle (t0, t1, t2), with signed plane distances d,
/// meets the plane: one on each edge whose ends lie on opposite sides, a
/// vertex on the plane counting as above it. Returns their number (2).
int planeCrossing(const Vector3d* const* t, const double* d, Vector3d* out) {
  int n = 0;
  for (int i = 0; i < 3 && n < 2; ++i) {
    const int j = (i + 1) % 3;
    if ((d[i] < 0) != (d[j] < 0)) out[n++] = *t[i] + (d[i] / (d[i] - d[j])) * (*t[j] - *t[i]);
  }
  return n;
}

/// Signed distances of t's vertices to the plane (n, n·o), with values
/// within round-off of the plane set to exactly zero. False unless the
/// triangle has vertices below the plane and others not below it. A vertex
/// on the plane counts as above it (a symbolic perturbation): so a face
/// resting on another along a shared edge — two stacked boxes of the same
/// size, whose sides are coplanar — crosses it along that edge, and the
/// contour closes, while faces that only touch from one side, or lie in
/// one plane, do not cross.
bool classify(const Vector3d* const* t, const Vector3d& n, const Vector3d& o, double* d) {
  for (int i = 0; i < 3; ++i) d[i] = n.dot(*t[i] - o);
  const double lo = std::min({d[0], d[1], d[2]}), hi = std::max({d[0], d[1], d[2]});
  // Most pairs a tree offers lie wholly to one side: all above (none can
  // be below), or all below by more than the round-off band the largest
  // distance sets (none counts as on the plane). The same answers as the
  // full test below, sooner.
  if (lo > 0 || hi < 1e-12 * lo) return false;
  double scale = 0;  // as the band is taken where no early answer is given (a NaN distance is ignored)
  for (int i = 0; i < 3; ++i) scale = std::max(scale, std::abs(d[i]));
  const double eps = 1e-12 * scale;
  bool below = false, above = false;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) <= eps) d[i] = 0;
    below = below || d[i] < 0;
    above = above || d[i] >= 0;
  }
  return below && above;
}

/// The two crossing points of a triangle, ordered along direction D.
bool crossingSpan(const Vector3d* const* t, const double* d, const Vector3d& D, Vector3d& lo, Vector3d& hi, double& tlo,
                  double& thi) {
  Vector3d pts[3];
  const int n = planeCrossing(t, d, pts);
  if (n == 0) return false;
  lo = hi = pts[0];
  tlo = thi = D.dot(pts[0]);
  for (int k = 1; k < n; ++k) {
    const double s = D.dot(pts[k]);
    if (s < tlo) tlo = s, lo = pts[k];
    if (s > thi) thi = s, hi = pts[k];
  }
  return true;
}

}  // namespace

bool intersectTriangles(const Vector3d& a0, const Vector3d& a1, const Vector3d& a2, const Vector3d& b0,
                        const Vector3d& b1, const Vector3d& b2, Vector3d& p, Vector3d& q) {
  return intersectTriangles(a0, a1, a2, triangleNormal(a0, a1, a2), b0, b1, b2, triangleNormal(b0, b1, b2), p, q);
}

bool intersectTriangles(const Vector3d& a0, const Vector3d& a1, const Vector3d& a2, const Vector3d& nA,
                        const Vector3d& b0, const Vector3d& b1, const Vector3d& b2, const Vector3d& nB, Vector3d& p,
                        Vector3d& q) {
  const Vector3d* const A[3] = {&a0, &a1, &a2};
  const Vector3d* const B[3] = {&b0, &b1, &b2};
  double dA[3], dB[3];  // A's vertices against B's plane, and B's against A's
  if (!classify(A, nB, b0, dA) || !classify(B, nA, a0, dB)) return false;
  const Vector3d D = nA.cross(nB);
  if (!(D.squaredNorm() > 1e-24 * nA.squaredNorm() * nB.squaredNorm())) return false;  // parallel planes
  Vector3d aLo, aHi, bLo, bHi;
  double taLo, taHi, tbLo, tbHi;
  if (!crossingSpan(A, dA, D, aLo, aHi, taLo, taHi) || !crossingSpan(B, dB, D, bLo, bHi, tbLo, tbHi)) return false;
  // The overlap of the two spans along D: each end comes from whichever
  // span bounds it.
  if (taHi < tbLo || tbHi < taLo) return false;
  p = taLo >= tbLo ? aLo : bLo;
  q = taHi <= tbHi ? aHi : bHi;
  return true;
}

}  // namespace sinew
