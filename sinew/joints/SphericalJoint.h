// Ball joints (guide §3.4.7, §3.4.8): C's origin stays at D's, C turns
// freely. SphericalJoint has no coordinates and an optional tilt or
// total-rotation limit (eqs. 3.26, 3.27); GimbalJoint has three angles
// roll θ, pitch φ, yaw ψ (rotations about z, y', x'' by default; other
// axis orders via `order`), with ranges and locking. Angles in degrees.
#pragma once

#include "sinew/joints/JointBase.h"
#include "sinew/joints/RotaryCouplings.h"

namespace sinew {

template <>
struct EnumNames<EulerOrder> {
  static const std::vector<std::string>& get();
};

class SphericalJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  explicit SphericalJoint(std::string name = {});
  SphericalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  /// D at world point originD, world aligned.
  SphericalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, std::string name = {});

  double getTilt() const;  ///< degrees, between the z axes of C and D
  bool isTiltLimited() const { return coupling().limit == SphericalCoupling::Limit::Tilt; }
  void setTiltLimited(bool enable);
  bool isRotationLimited() const { return coupling().limit == SphericalCoupling::Limit::Rotation; }
  void setRotationLimited(bool enable);
  double getMaxTilt() const;  ///< degrees
  /// Sets φ_max (degrees) and enables the tilt limit.
  void setMaxTilt(double deg);
  Vector3d getMaxRotation() const;  ///< degrees
  /// Sets r_max (degrees, per axis) and enables the rotation limit.
  void setMaxRotation(const Vector3d& deg);
  void setMaxRotation(double deg) { setMaxRotation(Vector3d::Constant(deg)); }

 private:
  SphericalCoupling& coupling() const { return static_cast<SphericalCoupling&>(getCoupling()); }
};

class GimbalJoint : public JointBase {
  SINEW_DECLARE_PROPERTIES
 public:
  static constexpr int ROLL_IDX = 0, PITCH_IDX = 1, YAW_IDX = 2;
  explicit GimbalJoint(std::string name = {});
  GimbalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name = {});
  /// D at world point originD, world aligned.
  GimbalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, std::string name = {});
  double getRoll() const { return getCoordinateDisplay(ROLL_IDX); }
  void setRoll(double deg) { setCoordinateDisplay(ROLL_IDX, deg); }
  double getPitch() const { return getCoordinateDisplay(PITCH_IDX); }
  void setPitch(double deg) { setCoordinateDisplay(PITCH_IDX, deg); }
  double getYaw() const { return getCoordinateDisplay(YAW_IDX); }
  void setYaw(double deg) { setCoordinateDisplay(YAW_IDX, deg); }
  EulerOrder getOrder() const;
  /// Changes the axis order, keeping the pose (the angles are recomputed).
  void setOrder(EulerOrder order);
};

}  // namespace sinew
