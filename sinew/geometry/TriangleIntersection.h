// Triangle–triangle intersection (guide §8.4.2, the TRI_INTERSECTION
// collider): the segment along which two triangles cross, from which
// contact contours and regions are built (§8.4.1.1).
//
// Floating-point, after Möller (1997): each triangle's vertices are
// classified against the other's plane, the two crossing segments are
// found on the planes' line of intersection, and their overlap is the
// answer. Coplanar triangles are reported as not crossing: their contact,
// if any, is a touching, not a penetration, and the vertex and contour
// tests of the caller see it from the neighbouring triangles.
#pragma once

#include <Eigen/Core>

namespace sinew {

/// True if triangles (a0, a1, a2) and (b0, b1, b2) cross; p and q receive
/// the ends of their common segment (equal when they cross at a point).
bool intersectTriangles(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1, const Eigen::Vector3d& a2,
                        const Eigen::Vector3d& b0, const Eigen::Vector3d& b1, const Eigen::Vector3d& b2,
                        Eigen::Vector3d& p, Eigen::Vector3d& q);

/// The normal that intersectTriangles takes for triangle (a, b, c): (b − a)
/// × (c − a), not normalized.
inline Eigen::Vector3d triangleNormal(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  return (b - a).cross(c - a);
}

/// The same with each triangle's normal given, as triangleNormal computes
/// it (the same result bit for bit): a caller that tests one triangle
/// against many computes its normal once.
bool intersectTriangles(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1, const Eigen::Vector3d& a2,
                        const Eigen::Vector3d& nA, const Eigen::Vector3d& b0, const Eigen::Vector3d& b1,
                        const Eigen::Vector3d& b2, const Eigen::Vector3d& nB, Eigen::Vector3d& p, Eigen::Vector3d& q);

}  // namespace sinew
