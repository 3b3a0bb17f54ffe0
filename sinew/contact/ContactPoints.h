// Helpers the contact detectors share (CollisionDetection.cpp,
// EdgeContacts.cpp, ContourRegions.cpp, PlaneContacts.cpp): a collidable's
// pose, the FEM nodes behind a mesh vertex (guide §8.4.1.2: an FEM contact
// acts on the nodes its point interpolates) and a region's hull corners
// (§8.4.1.1).
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "sinew/fem/FemMeshComp.h"
#include "sinew/mech/RigidBody.h"

namespace sinew {

/// A rigid body's pose; the identity for an FEM mesh, whose tree is in world coordinates.
inline RigidTransform3d poseOf(const RigidBody* rigid) { return rigid ? rigid->getPose() : RigidTransform3d(); }

/// Appends the nodes (and weights, times `scale`) that vertex v of an FEM mesh follows.
inline void addMasters(const FemMeshComp& mesh, int v, double scale, std::vector<std::pair<FemNode3d*, double>>& out) {
  const std::vector<FemNode3d*> nodes = mesh.getVertexNodes(v);
  const std::vector<double> weights = mesh.getVertexWeights(v);
  for (size_t k = 0; k < nodes.size(); ++k) out.emplace_back(nodes[k], scale * weights[k]);
}

/// The corners of the convex hull of `points` projected on the plane with
/// normal n, as indices into `points`; points closer there than `tol` (or
/// a millionth of the set's size) count once (ContourRegions.cpp).
std::vector<int> hullOnPlane(const std::vector<Vector3d>& points, const Vector3d& n, double tol);

/// Calls add(k) for the contacts that stand for `points` (depth depths[k]
/// each; negative: a gap) facing along n: the corners of their hull on the
/// plane (merged within tol, as hullOnPlane does), each with its own
/// depth, and the deepest point too when it lies inside that hull deeper
/// than every corner (by more than a millionth of tol) — a ball's lowest
/// vertex inside its ring — so that the body is held where that point is.
/// Returns whether it left out a point that penetrates (depth > 0), which
/// the contacts then hold only through the others (CollisionCarry.cpp).
bool addHullContacts(const std::vector<Vector3d>& points, const std::vector<double>& depths, const Vector3d& n,
                     double tol, const std::function<void(int)>& add);

}  // namespace sinew
