// Point-on-surface connectors (guide §3.4.13, §3.4.14): the origin of C (a
// point pCA on body A) is held to the x–y plane of D (PlanarConnector) or
// to a piecewise linear surface given by a curve in D's x–z plane
// (SegmentedPlanarConnector); C is otherwise free. With `unilateral` the
// point is only kept on the positive side (z ≥ 0, or the side the segment
// normals n_k = u × ŷ / ‖u × ŷ‖ of eq. 3.30 point to), which makes a cheap
// contact with fixed points.
#pragma once

#include <vector>

#include "sinew/joints/JointBase.h"

namespace sinew {

class PlanarConnector : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit PlanarConnector(std::string name = {});
  /// Point pCA (in A) held to the x–y plane of D, D given in B (nullptr: world).
  PlanarConnector(Frame& bodyA, const Vector3d& pCA, Frame* bodyB, const RigidTransform3d& TDB,
                  std::string name = {});
  /// Point pCA (in A) held to the x–y plane of D given in world coordinates.
  PlanarConnector(Frame& bodyA, const Vector3d& pCA, const RigidTransform3d& TDW, std::string name = {});
  bool isUnilateral() const;
  void setUnilateral(bool unilateral);
  /// Signed distance of C's origin from the surface (negative: behind it).
  double getDistance() const;

 protected:
  PlanarConnector(std::string name, std::unique_ptr<RigidBodyCoupling> coupling);
};

class SegmentedPlanarConnector : public PlanarConnector {
 public:
  /// `segs`: x0, z0, x1, z1, … (at least two points) in D's x–z plane.
  SegmentedPlanarConnector(const std::vector<double>& segs, std::string name = {});
  SegmentedPlanarConnector(Frame& bodyA, const Vector3d& pCA, Frame* bodyB, const RigidTransform3d& TDB,
                           const std::vector<double>& segs, std::string name = {});
  SegmentedPlanarConnector(Frame& bodyA, const Vector3d& pCA, const RigidTransform3d& TDW,
                           const std::vector<double>& segs, std::string name = {});
};

}  // namespace sinew
