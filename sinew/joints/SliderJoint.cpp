#include "sinew/joints/SliderJoint.h"

namespace sinew {

SINEW_PROPERTIES(SliderJoint, JointBase) {
  list.add<SliderJoint>("z", "slider displacement", &SliderJoint::getZ, &SliderJoint::setZ);
  list.add<SliderJoint>("zLocked", "whether z is locked", &SliderJoint::isZLocked, &SliderJoint::setZLocked);
}

SliderJoint::SliderJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<AxisCoupling>(std::array<bool, 3>{false, false, true},
                                                                AxisCoupling::Rotation::None)) {}

SliderJoint::SliderJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name)
    : SliderJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

SphericalJoint::SphericalJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<AxisCoupling>(std::array<bool, 3>{false, false, false},
                                                                AxisCoupling::Rotation::Free)) {}

SphericalJoint::SphericalJoint(Frame& bodyA, Frame* bodyB, const Vector3d& originD, std::string name)
    : SphericalJoint(std::move(name)) {
  setBodies(bodyA, bodyB, RigidTransform3d(originD));
}

SolidJoint::SolidJoint(std::string name)
    : JointBase(std::move(name), std::make_unique<AxisCoupling>(std::array<bool, 3>{false, false, false},
                                                                AxisCoupling::Rotation::None)) {}

SolidJoint::SolidJoint(Frame& bodyA, Frame* bodyB, const RigidTransform3d& TDW, std::string name)
    : SolidJoint(std::move(name)) {
  setBodies(bodyA, bodyB, TDW);
}

}  // namespace sinew
