// Internal: the constructors shared by the joints built on AxisCoupling
// (hinge, slotted hinge, slider, cylindrical, planar, planar translation):
// unattached, D at a world pose TDW, or D from an origin and z axis.
#pragma once

#include "sinew/joints/AxisCoupling.h"
#include "sinew/joints/HingeJoint.h"

#define SINEW_AXIS_JOINT_CONSTRUCTORS(Joint, x, y, z, theta)                                                  \
  Joint::Joint(std::string name)                                                                             \
      : JointBase(std::move(name), std::make_unique<AxisCoupling>(std::array<bool, 3>{x, y, z}, theta)) {}  \
  Joint::Joint(FrameAttachable& bodyA, FrameAttachable* bodyB, const RigidTransform3d& TDW, std::string name)                    \
      : Joint(std::move(name)) {                                                                             \
    setBodies(bodyA, bodyB, TDW);                                                                            \
  }                                                                                                          \
  Joint::Joint(FrameAttachable& bodyA, FrameAttachable* bodyB, const Vector3d& originD, const Vector3d& zaxis, std::string name) \
      : Joint(std::move(name)) {                                                                             \
    setBodies(bodyA, bodyB, frameFromZAxis(originD, zaxis, describe()));                                     \
  }
