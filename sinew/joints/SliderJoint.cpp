#include "sinew/joints/SliderJoint.h"

#include "sinew/joints/AxisJointConstructors.h"

namespace sinew {

SINEW_PROPERTIES(SliderJoint, JointBase) {
  addCoordinateProperties(list, "z", Z_IDX, "translation along D's z axis");
}

SINEW_AXIS_JOINT_CONSTRUCTORS(SliderJoint, false, false, true, false)

SolidJoint::SolidJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<AxisCoupling>(std::array<bool, 3>{false, false, false}, false)) {}

SolidJoint::SolidJoint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name)
    : SolidJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

}  // namespace sinew
