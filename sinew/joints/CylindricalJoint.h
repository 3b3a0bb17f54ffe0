// Joints whose allowed motion is a set of translation axes of D plus
// rotation about D's z (guide §3.4): CylindricalJoint (z, θ), PlanarJoint
// (x, y, θ) and PlanarTranslationJoint (x, y). Angles in degrees in the
// named accessors and properties.
#pragma once

#include "sinew/joints/JointBase.h"

namespace sinew {

/// Translation along and rotation about D's z axis (§3.4.3).
class CylindricalJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit CylindricalJoint(std::string name = {});
  CylindricalJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name = {});
  static constexpr int Z_IDX = 0, THETA_IDX = 1;
  double getZ() const { return getCoordinate(Z_IDX); }
  void setZ(double z) { setCoordinate(Z_IDX, z); }
  double getTheta() const;
  void setTheta(double deg);
};

/// Translation in D's x–y plane and rotation about D's z (§3.4.9).
class PlanarJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit PlanarJoint(std::string name = {});
  PlanarJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name = {});
  static constexpr int X_IDX = 0, Y_IDX = 1, THETA_IDX = 2;
  double getX() const { return getCoordinate(X_IDX); }
  void setX(double x) { setCoordinate(X_IDX, x); }
  double getY() const { return getCoordinate(Y_IDX); }
  void setY(double y) { setCoordinate(Y_IDX, y); }
  double getTheta() const;
  void setTheta(double deg);
};

/// Translation in D's x–y plane only (§3.4.10).
class PlanarTranslationJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit PlanarTranslationJoint(std::string name = {});
  PlanarTranslationJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name = {});
  double getX() const { return getCoordinate(0); }
  void setX(double x) { setCoordinate(0, x); }
  double getY() const { return getCoordinate(1); }
  void setY(double y) { setCoordinate(1, y); }
};

}  // namespace sinew
