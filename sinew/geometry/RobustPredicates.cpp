#include "sinew/geometry/RobustPredicates.h"

#include <gmpxx.h>

#include <cmath>

namespace sinew {

using Eigen::Vector3d;

namespace {

// Shewchuk's error bounds for the floating-point evaluation of a 3×3 and a
// 2×2 determinant of differences (ε = 2⁻⁵³): a result larger in magnitude
// than bound × permanent has the exact result's sign.
constexpr double kEps = 1.1102230246251565e-16;
constexpr double kOrient3dBound = (7.0 + 56.0 * kEps) * kEps;
constexpr double kDet2Bound = (3.0 + 16.0 * kEps) * kEps;

int sign(double x) { return (x > 0) - (x < 0); }
int sign(const mpq_class& x) { return sgn(x); }

/// Exact sign of ((b − a) × (c − a))·(d − a) in rational arithmetic.
int orient3dExact(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  mpq_class u[3], v[3], w[3];
  for (int i = 0; i < 3; ++i) {
    const mpq_class ai(a[i]);
    u[i] = mpq_class(b[i]) - ai;
    v[i] = mpq_class(c[i]) - ai;
    w[i] = mpq_class(d[i]) - ai;
  }
  const mpq_class det = (u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] +
                        (u[0] * v[1] - u[1] * v[0]) * w[2];
  return sign(det);
}

/// Exact sign of component i of (p1 − p0) × (q1 − q0).
int crossComponentSign(const Vector3d& p0, const Vector3d& p1, const Vector3d& q0, const Vector3d& q1, int i) {
  const int j = (i + 1) % 3, k = (i + 2) % 3;
  const double pj = p1[j] - p0[j], pk = p1[k] - p0[k], qj = q1[j] - q0[j], qk = q1[k] - q0[k];
  const double x = pj * qk, y = pk * qj;
  if (std::abs(x - y) > kDet2Bound * (std::abs(x) + std::abs(y))) return sign(x - y);
  const mpq_class ej = mpq_class(p1[j]) - mpq_class(p0[j]), ek = mpq_class(p1[k]) - mpq_class(p0[k]);
  const mpq_class fj = mpq_class(q1[j]) - mpq_class(q0[j]), fk = mpq_class(q1[k]) - mpq_class(q0[k]);
  return sign(mpq_class(ej * fk - ek * fj));
}

/// The sign of d·((p1 − p0) × (q1 − q0)) for d = (1, δ, δ²): that of the
/// first non-zero component.
int lexicographicCrossSign(const Vector3d& p0, const Vector3d& p1, const Vector3d& q0, const Vector3d& q1) {
  for (int i = 0; i < 3; ++i)
    if (const int s = crossComponentSign(p0, p1, q0, q1, i)) return s;
  return 0;
}

}  // namespace

int orient3dSign(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  const Vector3d u = b - a, v = c - a, w = d - a;
  const double x0 = u[1] * v[2], x1 = u[2] * v[1], y0 = u[2] * v[0], y1 = u[0] * v[2], z0 = u[0] * v[1],
               z1 = u[1] * v[0];
  const double det = (x0 - x1) * w[0] + (y0 - y1) * w[1] + (z0 - z1) * w[2];
  const double permanent = (std::abs(x0) + std::abs(x1)) * std::abs(w[0]) +
                           (std::abs(y0) + std::abs(y1)) * std::abs(w[1]) +
                           (std::abs(z0) + std::abs(z1)) * std::abs(w[2]);
  if (std::abs(det) > kOrient3dBound * permanent) return sign(det);
  return orient3dExact(a, b, c, d);
}

int perturbedSide(const Vector3d& f0, const Vector3d& f1, const Vector3d& f2, const Vector3d& p, bool pointMoved) {
  if (const int s = orient3dSign(f0, f1, f2, p)) return s;
  // On the plane: the first-order term ±ε n·d, n = (f1 − f0) × (f2 − f0).
  const int s = lexicographicCrossSign(f0, f1, f0, f2);
  return pointMoved ? s : -s;
}

int perturbedEdgeSide(const Vector3d& e0, const Vector3d& e1, const Vector3d& f0, const Vector3d& f1,
                      bool edgeMoved) {
  if (const int s = orient3dSign(e0, e1, f0, f1)) return s;
  // Moving f0 and f1 by εd adds ε d·((f1 − f0) × (e1 − e0)).
  const int s = lexicographicCrossSign(f0, f1, e0, e1);
  return edgeMoved ? -s : s;
}

bool edgePiercesTriangle(const Vector3d& e0, const Vector3d& e1, const Vector3d& f0, const Vector3d& f1,
                         const Vector3d& f2, bool edgeMoved, bool& entering) {
  const int s0 = perturbedSide(f0, f1, f2, e0, edgeMoved), s1 = perturbedSide(f0, f1, f2, e1, edgeMoved);
  if (s0 == 0 || s1 == 0 || s0 == s1) return false;
  // The edge's line passes through the triangle when it turns the same way
  // about each of the triangle's edges.
  const int t0 = perturbedEdgeSide(e0, e1, f0, f1, edgeMoved);
  if (t0 == 0 || perturbedEdgeSide(e0, e1, f1, f2, edgeMoved) != t0 ||
      perturbedEdgeSide(e0, e1, f2, f0, edgeMoved) != t0)
    return false;
  entering = s0 > 0;
  return true;
}

}  // namespace sinew
