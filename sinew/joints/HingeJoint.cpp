#include "sinew/joints/HingeJoint.h"

#include <cmath>

#include "sinew/joints/AxisJointConstructors.h"

namespace sinew {

RigidTransform3d frameFromZAxis(const Vector3d& p, const Vector3d& zaxis, const std::string& where) {
  if (!(zaxis.norm() > 0) || !zaxis.allFinite()) throw ModelError("joint axis must be non-zero and finite", where);
  Vector3d z = zaxis.normalized();
  // Rotate world z onto the axis by the smallest rotation.
  Matrix3d R = Quaternion::FromTwoVectors(Vector3d::UnitZ(), z).toRotationMatrix();
  return {p, R};
}

SINEW_PROPERTIES(HingeJoint, JointBase) {
  addCoordinateProperties(list, "theta", THETA_IDX, "joint angle (degrees)");
  list.add<HingeJoint>("thetaDot", "joint angular speed (degrees/s)", &HingeJoint::getThetaDot);
}

SINEW_AXIS_JOINT_CONSTRUCTORS(HingeJoint, false, false, false, true)

double HingeJoint::getThetaDot() const { return getCoordinateSpeed(THETA_IDX) * RTOD; }

SINEW_PROPERTIES(SlottedHingeJoint, JointBase) {
  addCoordinateProperties(list, "x", X_IDX, "translation along D's x axis");
  addCoordinateProperties(list, "theta", THETA_IDX, "rotation about D's z axis (degrees)");
}

SINEW_AXIS_JOINT_CONSTRUCTORS(SlottedHingeJoint, true, false, false, true)

}  // namespace sinew
