// HingeJoint (guide §3.4.1): C rotates about D's z axis; coordinate θ
// (property `theta`, degrees, with `thetaRange` and `thetaLocked`).
// SlottedHingeJoint (§3.4.4): also translates along D's x axis; coordinates
// x and θ (eq. 3.25).
#pragma once

#include "sinew/joints/JointBase.h"

namespace sinew {

class HingeJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int THETA_IDX = 0;
  explicit HingeJoint(std::string name = {});
  /// A to B (nullptr: ground), D at world pose TDW.
  HingeJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  /// D at world point originD with its z axis along `zaxis` (non-zero).
  HingeJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis, std::string name = {});

  double getTheta() const { return getCoordinateDisplay(THETA_IDX); }  ///< degrees
  void setTheta(double deg) { setCoordinateDisplay(THETA_IDX, deg); }
  Eigen::Vector2d getThetaRange() const { return getCoordinateRangeDisplay(THETA_IDX); }  ///< degrees
  void setThetaRange(double minDeg, double maxDeg) {
    setCoordinateRangeDisplay(THETA_IDX, Eigen::Vector2d(minDeg, maxDeg));
  }
  bool isThetaLocked() const { return isLocked(THETA_IDX); }
  void setThetaLocked(bool l) { setLocked(THETA_IDX, l); }
  double getThetaDot() const;  ///< degrees per second
};

class SlottedHingeJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int X_IDX = 0, THETA_IDX = 1;
  explicit SlottedHingeJoint(std::string name = {});
  SlottedHingeJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  SlottedHingeJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis,
                    std::string name = {});
  double getX() const { return getCoordinate(X_IDX); }
  void setX(double x) { setCoordinate(X_IDX, x); }
  double getTheta() const { return getCoordinateDisplay(THETA_IDX); }  ///< degrees
  void setTheta(double deg) { setCoordinateDisplay(THETA_IDX, deg); }
};

/// D's pose with origin p and z axis along `zaxis`, the rest aligned as
/// closely as possible with world axes; throws ModelError on a zero axis.
RigidTransform3d frameFromZAxis(const Vector3d& p, const Vector3d& zaxis, const std::string& where);

}  // namespace sinew
