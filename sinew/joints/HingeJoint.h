// HingeJoint (guide §3.4.1): C rotates about D's z axis; coordinate θ
// (property `theta`, degrees), with `thetaRange` (degrees) and
// `thetaLocked`.
#pragma once

#include "sinew/joints/JointBase.h"

namespace sinew {

class HingeJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit HingeJoint(std::string name = {});
  /// A to B (nullptr: ground), D at world pose TDW.
  HingeJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name = {});
  /// D at world point originD with its z axis along `zaxis` (non-zero).
  HingeJoint(Frame& bodyA, Frame* bodyB, const Vector3d& originD, const Vector3d& zaxis, std::string name = {});

  double getTheta() const;                 ///< degrees
  void setTheta(double deg);
  Eigen::Vector2d getThetaRange() const;   ///< degrees
  void setThetaRange(double minDeg, double maxDeg);
  void setThetaRangeVec(const Eigen::VectorXd& r);
  bool isThetaLocked() const { return isLocked(0); }
  void setThetaLocked(bool l) { setLocked(0, l); }
  double getThetaDot() const;              ///< degrees per second
};

/// D's pose with origin p and z axis along `zaxis`, the rest aligned as
/// closely as possible with world axes; throws ModelError on a zero axis.
RigidTransform3d frameFromZAxis(const Vector3d& p, const Vector3d& zaxis, const std::string& where);

}  // namespace sinew
