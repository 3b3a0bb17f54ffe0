#include "sinew/joints/SphericalJoint.h"

#include <cmath>

namespace sinew {

const std::vector<std::string>& EnumNames<EulerOrder>::get() {
  static const std::vector<std::string> n{"ZYX", "XYZ", "YZX", "ZXY", "XZY", "YXZ"};
  return n;
}

// ---------------------------------------------------------------- spherical

SINEW_PROPERTIES(SphericalJoint, JointBase) {
  list.add<SphericalJoint>("tilt", "angle between the z axes of C and D (degrees)", &SphericalJoint::getTilt);
  list.add<SphericalJoint>("isTiltLimited", "whether the tilt is limited by maxTilt",
                           &SphericalJoint::isTiltLimited, &SphericalJoint::setTiltLimited);
  list.add<SphericalJoint>("isRotationLimited", "whether the total rotation is limited by maxRotation",
                           &SphericalJoint::isRotationLimited, &SphericalJoint::setRotationLimited);
  list.add<SphericalJoint>("maxTilt", "maximum tilt (degrees)", &SphericalJoint::getMaxTilt,
                           &SphericalJoint::setMaxTilt)
      .setRange(0, 180);
  list.add<SphericalJoint>("maxRotation", "maximum rotation about x, y, z (degrees)",
                           &SphericalJoint::getMaxRotation,
                           [](SphericalJoint& j, const Vector3d& r) { j.setMaxRotation(r); });
}

SphericalJoint::SphericalJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<SphericalCoupling>()) {}

SphericalJoint::SphericalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name)
    : SphericalJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

SphericalJoint::SphericalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, std::string name)
    : SphericalJoint(bodyA, bodyB, RigidTransform3d(originD), std::move(name)) {}

double SphericalJoint::getTilt() const { return SphericalCoupling::tilt(getCurrentTCD().R) * RTOD; }

void SphericalJoint::setTiltLimited(bool enable) {
  if (enable) coupling().limit = SphericalCoupling::Limit::Tilt;
  else if (isTiltLimited()) coupling().limit = SphericalCoupling::Limit::None;
}

void SphericalJoint::setRotationLimited(bool enable) {
  if (enable) coupling().limit = SphericalCoupling::Limit::Rotation;
  else if (isRotationLimited()) coupling().limit = SphericalCoupling::Limit::None;
}

double SphericalJoint::getMaxTilt() const { return coupling().maxTilt * RTOD; }

void SphericalJoint::setMaxTilt(double deg) {
  if (!(deg >= 0 && deg <= 180)) throw ModelError("maxTilt must lie in [0, 180] degrees", describe());
  coupling().maxTilt = deg / RTOD;
  setTiltLimited(true);
}

Vector3d SphericalJoint::getMaxRotation() const { return coupling().maxRotation * RTOD; }

void SphericalJoint::setMaxRotation(const Vector3d& deg) {
  if (!(deg.minCoeff() >= 0) || !deg.allFinite())
    throw ModelError("maxRotation must be finite and >= 0", describe());
  coupling().maxRotation = deg / RTOD;
  setRotationLimited(true);
}

// ---------------------------------------------------------------- gimbal

SINEW_PROPERTIES(GimbalJoint, JointBase) {
  addCoordinateProperties(list, "roll", ROLL_IDX, "first rotation, about D's z (degrees)");
  addCoordinateProperties(list, "pitch", PITCH_IDX, "second rotation, about y' (degrees)");
  addCoordinateProperties(list, "yaw", YAW_IDX, "third rotation, about x'' (degrees)");
  list.add<GimbalJoint>("order", "axes of the three rotations", &GimbalJoint::getOrder, &GimbalJoint::setOrder);
}

GimbalJoint::GimbalJoint(std::string name) : JointBase(std::move(name), std::make_unique<GimbalCoupling>()) {}

GimbalJoint::GimbalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name)
    : GimbalJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

GimbalJoint::GimbalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, std::string name)
    : GimbalJoint(bodyA, bodyB, RigidTransform3d(originD), std::move(name)) {}

EulerOrder GimbalJoint::getOrder() const { return static_cast<GimbalCoupling&>(getCoupling()).getOrder(); }

void GimbalJoint::setOrder(EulerOrder order) {
  static_cast<GimbalCoupling&>(getCoupling()).setOrder(order);
  getCoordinates();  // recompute the angles of the current pose
}

}  // namespace sinew
