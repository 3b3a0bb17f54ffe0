// RigidBodyJoint (guide §3.3.6): bodyA hinged to a fixed bodyB; set to
// θ = 35° at build time, it falls and swings about the hinge. JointedCollide
// and JointedBallCollide (§8.1.3, §8.3.1) extend it, as in the guide.
#pragma once

#include <string>
#include <vector>

#include "sinew/joints/HingeJoint.h"
#include "sinew/mech/MechModel.h"
#include "sinew/model/RootModel.h"

namespace sinew::demos {

class RigidBodyJoint : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override;

 protected:
  MechModel* mech = nullptr;
  RigidBody* bodyA = nullptr;
  RigidBody* bodyB = nullptr;
  HingeJoint* joint = nullptr;
};

}  // namespace sinew::demos
