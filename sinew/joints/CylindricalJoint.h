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
  static constexpr int Z_IDX = 0, THETA_IDX = 1;
  explicit CylindricalJoint(std::string name = {});
  CylindricalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  CylindricalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis,
                   std::string name = {});
  double getZ() const { return getCoordinate(Z_IDX); }
  void setZ(double z) { setCoordinate(Z_IDX, z); }
  double getTheta() const { return getCoordinateDisplay(THETA_IDX); }
  void setTheta(double deg) { setCoordinateDisplay(THETA_IDX, deg); }
};

/// Translation in D's x–y plane and rotation about D's z (§3.4.9).
class PlanarJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int X_IDX = 0, Y_IDX = 1, THETA_IDX = 2;
  explicit PlanarJoint(std::string name = {});
  PlanarJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  PlanarJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis, std::string name = {});
  double getX() const { return getCoordinate(X_IDX); }
  void setX(double x) { setCoordinate(X_IDX, x); }
  double getY() const { return getCoordinate(Y_IDX); }
  void setY(double y) { setCoordinate(Y_IDX, y); }
  double getTheta() const { return getCoordinateDisplay(THETA_IDX); }
  void setTheta(double deg) { setCoordinateDisplay(THETA_IDX, deg); }
};

/// Translation in D's x–y plane only (§3.4.10).
class PlanarTranslationJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int X_IDX = 0, Y_IDX = 1;
  explicit PlanarTranslationJoint(std::string name = {});
  PlanarTranslationJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  PlanarTranslationJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis,
                         std::string name = {});
  double getX() const { return getCoordinate(X_IDX); }
  void setX(double x) { setCoordinate(X_IDX, x); }
  double getY() const { return getCoordinate(Y_IDX); }
  void setY(double y) { setCoordinate(Y_IDX, y); }
};

}  // namespace sinew
