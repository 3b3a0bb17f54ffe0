// Robust geometric predicates for the AJL_CONTOUR collider (guide §8.4.2:
// intersection points "connected, using robust geometric predicates, to
// find the intersection contours").
//
// orient3d's sign is computed in floating point and accepted when it
// exceeds a bound on the rounding error (Shewchuk 1997, bound A); only
// otherwise is it evaluated exactly, in rational arithmetic (GMP), which
// is exact for double inputs. Exactly zero determinants — a vertex on a
// face's plane, an edge crossing an edge — are resolved by a symbolic
// perturbation: the second mesh is taken as translated by ε·(1, δ, δ²) with
// 1 ≫ δ ≫ δ² ≫ ε > 0 infinitesimal. Every predicate then sees the same
// perturbed, generic configuration, so the decisions agree with each other
// and the contours they build close.
#pragma once

#include <Eigen/Core>

namespace sinew {

/// Sign (−1, 0, +1) of orient3d(a, b, c, d) = ((b − a) × (c − a))·(d − a):
/// positive when d lies on the side of plane abc that the normal of the
/// counter-clockwise triangle abc points to. Exact.
int orient3dSign(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                 const Eigen::Vector3d& d);

/// The side of triangle (f0, f1, f2)'s plane that point p lies on, with
/// the second mesh perturbed as above: `pointMoved` says whether p belongs
/// to the perturbed mesh (the face then belongs to the other). Never 0
/// unless the triangle is degenerate (zero area).
int perturbedSide(const Eigen::Vector3d& f0, const Eigen::Vector3d& f1, const Eigen::Vector3d& f2,
                  const Eigen::Vector3d& p, bool pointMoved);

/// Sign of orient3d(e0, e1, f0, f1) for an edge e of one mesh and two
/// points f of the other, with the perturbation; `edgeMoved` says whether
/// the edge belongs to the perturbed mesh. 0 only when the edges are
/// parallel and coplanar (never for an edge that strictly crosses the plane
/// of a face holding f0 f1) or one has zero length.
int perturbedEdgeSide(const Eigen::Vector3d& e0, const Eigen::Vector3d& e1, const Eigen::Vector3d& f0,
                      const Eigen::Vector3d& f1, bool edgeMoved);

/// Whether edge (e0, e1) of one mesh pierces triangle (f0, f1, f2) of the
/// other, decided with the perturbation (`edgeMoved`: the edge is the
/// perturbed mesh's). On true, `entering` says whether the edge goes from
/// the triangle's front (its normal side) to its back: e1 is then behind.
bool edgePiercesTriangle(const Eigen::Vector3d& e0, const Eigen::Vector3d& e1, const Eigen::Vector3d& f0,
                         const Eigen::Vector3d& f1, const Eigen::Vector3d& f2, bool edgeMoved, bool& entering);

}  // namespace sinew
