#include "sinew/joints/LegacyJoints.h"

#include "sinew/joints/AxisCoupling.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/joints/RotaryCouplings.h"

namespace sinew {

SINEW_PROPERTIES(RevoluteJoint, JointBase) {
  addCoordinateProperties(list, "theta", THETA_IDX, "joint angle, clockwise about D's z (degrees)");
}

RevoluteJoint::RevoluteJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<AxisCoupling>(std::array<bool, 3>{false, false, false}, true,
                                                                /*clockwise=*/true)) {}

RevoluteJoint::RevoluteJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW,
                             std::string name)
    : RevoluteJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

RevoluteJoint::RevoluteJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD,
                             const Vector3d& zaxis, std::string name)
    : RevoluteJoint(std::move(name)) {
  setBodies(bodyA, bodyB, frameFromZAxis(originD, zaxis, describe()));
}

SINEW_PROPERTIES(RollPitchJoint, JointBase) {
  addCoordinateProperties(list, "roll", ROLL_IDX, "R_DC's rotation about z (degrees)");
  addCoordinateProperties(list, "pitch", PITCH_IDX, "R_DC's rotation about the rotated y' (degrees)");
}

RollPitchJoint::RollPitchJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<UniversalCoupling>(0.0, /*reversed=*/true)) {}

RollPitchJoint::RollPitchJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW,
                               std::string name)
    : RollPitchJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

SINEW_PROPERTIES(SphericalRpyJoint, JointBase) {
  addCoordinateProperties(list, "roll", ROLL_IDX, "R_DC's first rotation, about z (degrees)");
  addCoordinateProperties(list, "pitch", PITCH_IDX, "R_DC's second rotation, about y' (degrees)");
  addCoordinateProperties(list, "yaw", YAW_IDX, "R_DC's third rotation, about x'' (degrees)");
}

SphericalRpyJoint::SphericalRpyJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<GimbalCoupling>(EulerOrder::ZYX, /*reversed=*/true)) {}

SphericalRpyJoint::SphericalRpyJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW,
                                     std::string name)
    : SphericalRpyJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

}  // namespace sinew
