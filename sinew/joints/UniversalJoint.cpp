#include "sinew/joints/UniversalJoint.h"

#include <cmath>

#include "sinew/joints/RotaryCouplings.h"

namespace sinew {

SINEW_PROPERTIES(UniversalJoint, JointBase) {
  addCoordinateProperties(list, "roll", ROLL_IDX, "rotation about D's z (degrees)");
  addCoordinateProperties(list, "pitch", PITCH_IDX, "rotation about the rotated y' axis (degrees)");
}

UniversalJoint::UniversalJoint(std::string name, double skewRadians)
    : JointBase(std::move(name), std::make_unique<UniversalCoupling>(skewRadians)) {}

UniversalJoint::UniversalJoint(std::string name) : UniversalJoint(std::move(name), 0.0) {}

UniversalJoint::UniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name)
    : UniversalJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

SINEW_PROPERTIES(SkewedUniversalJoint, UniversalJoint) {
  list.add<SkewedUniversalJoint>("skewAngle", "skew of the pitch axis (degrees)",
                                 &SkewedUniversalJoint::getSkewAngle);
}

SkewedUniversalJoint::SkewedUniversalJoint(double skewDeg, std::string name)
    : UniversalJoint(std::move(name), skewDeg / RTOD) {
  if (!(std::abs(skewDeg) < 90)) throw ModelError("skew angle must lie in (-90, 90) degrees", describe());
}

SkewedUniversalJoint::SkewedUniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, double skewDeg,
                                           std::string name)
    : SkewedUniversalJoint(skewDeg, std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

SkewedUniversalJoint::SkewedUniversalJoint(Frame& bodyA, const RigidTransform3d& TCA, Frame* bodyB,
                                           const RigidTransform3d& TDB, double skewDeg, std::string name)
    : SkewedUniversalJoint(skewDeg, std::move(name)) {
  setBodies(bodyA, TCA, bodyB, TDB);
}

SkewedUniversalJoint::Axes SkewedUniversalJoint::axesFrame(const Vector3d& originD, const Vector3d& rollAxis,
                                                           const Vector3d& pitchAxis, const std::string& name) {
  // D: z along the roll axis, the pitch axis in D's y–z plane at angle α
  // from y (at zero roll and pitch it is R_x(α) y).
  if (!(rollAxis.norm() > 0) || !(pitchAxis.norm() > 0)) throw ModelError("joint axes must be non-zero", name);
  const Vector3d z = rollAxis.normalized(), p = pitchAxis.normalized();
  const Vector3d yRaw = p - p.dot(z) * z;
  if (yRaw.norm() < 1e-8) throw ModelError("roll and pitch axes must not be parallel", name);
  const Vector3d y = yRaw.normalized();
  Matrix3d R;
  R << y.cross(z), y, z;
  return {RigidTransform3d(originD, R), std::atan2(p.dot(z), p.dot(y)) * RTOD};
}

SkewedUniversalJoint::SkewedUniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Axes& axes, std::string name)
    : SkewedUniversalJoint(bodyA, bodyB, axes.TDW, axes.skewDeg, std::move(name)) {}

SkewedUniversalJoint::SkewedUniversalJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD,
                                           const Vector3d& rollAxis, const Vector3d& pitchAxis, std::string name)
    : SkewedUniversalJoint(bodyA, bodyB, axesFrame(originD, rollAxis, pitchAxis, name), name) {}

double SkewedUniversalJoint::getSkewAngle() const {
  return static_cast<UniversalCoupling&>(getCoupling()).getSkewAngle() * RTOD;
}

}  // namespace sinew
