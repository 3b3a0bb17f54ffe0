#include "sinew/joints/HingeJoint.h"

#include <cmath>

namespace sinew {

namespace {
constexpr double kDeg = 180.0 / M_PI;
std::unique_ptr<RigidBodyCoupling> hingeCoupling() {
  return std::make_unique<AxisCoupling>(std::array<bool, 3>{false, false, false}, AxisCoupling::Rotation::AboutZ);
}
}  // namespace

RigidTransform3d frameFromZAxis(const Vector3d& p, const Vector3d& zaxis, const std::string& where) {
  if (!(zaxis.norm() > 0) || !zaxis.allFinite()) throw ModelError("joint axis must be non-zero and finite", where);
  Vector3d z = zaxis.normalized();
  // Rotate world z onto the axis by the smallest rotation.
  Matrix3d R = Quaternion::FromTwoVectors(Vector3d::UnitZ(), z).toRotationMatrix();
  return {p, R};
}

SINEW_PROPERTIES(HingeJoint, JointBase) {
  list.add<HingeJoint>("theta", "joint angle (degrees)", &HingeJoint::getTheta, &HingeJoint::setTheta);
  list.add<HingeJoint>("thetaDot", "joint angular speed (degrees/s)", &HingeJoint::getThetaDot);
  list.add<HingeJoint>("thetaRange", "joint angle range (degrees)",
                       [](const HingeJoint& j) { return Eigen::VectorXd(j.getThetaRange()); },
                       &HingeJoint::setThetaRangeVec);
  list.add<HingeJoint>("thetaLocked", "whether theta is locked", &HingeJoint::isThetaLocked,
                       &HingeJoint::setThetaLocked);
}

HingeJoint::HingeJoint(std::string name) : JointBase(std::move(name), hingeCoupling()) {}

HingeJoint::HingeJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name)
    : HingeJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

HingeJoint::HingeJoint(Frame& bodyA, Frame* bodyB, const Vector3d& originD, const Vector3d& zaxis,
                       std::string name)
    : HingeJoint(std::move(name)) {
  setBodies(bodyA, bodyB, frameFromZAxis(originD, zaxis, describe()));
}

double HingeJoint::getTheta() const { return getCoordinate(0) * kDeg; }
void HingeJoint::setTheta(double deg) { setCoordinate(0, deg / kDeg); }
double HingeJoint::getThetaDot() const { return getCoordinateSpeed(0) * kDeg; }
Eigen::Vector2d HingeJoint::getThetaRange() const {
  return {getMinCoordinate(0) * kDeg, getMaxCoordinate(0) * kDeg};
}
void HingeJoint::setThetaRange(double minDeg, double maxDeg) { setCoordinateRange(0, minDeg / kDeg, maxDeg / kDeg); }
void HingeJoint::setThetaRangeVec(const Eigen::VectorXd& r) {
  if (r.size() != 2) throw ModelError("thetaRange needs two values", describe());
  setThetaRange(r[0], r[1]);
}

}  // namespace sinew
