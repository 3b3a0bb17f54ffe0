// The setting shared by RigidBodyJoint (§3.3.6) and FrameBodyAttachment
// (§3.6.4), which the guide builds "mostly similar": a MechModel with
// gravity (0, 0, −98) and frame/rotary damping 1/4, and bodyB, a 10×2×3
// box of density 0.2 at (0, 0, 15).
#pragma once

#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"
#include "sinew/model/RootModel.h"

namespace sinew::demos {

struct JointDemoDims {
  static constexpr double lenx1 = 10, leny1 = 2, lenz1 = 3, lenx2 = 10, leny2 = 2, density = 0.2;
};

struct JointDemoMech {
  MechModel& mech;
  RigidBody& bodyB;
};

inline JointDemoMech addJointDemoMech(RootModel& root) {
  using D = JointDemoDims;
  auto& mech = root.addModel(std::make_unique<MechModel>("mech"));
  mech.setGravity(0, 0, -98);
  mech.setFrameDamping(1.0);
  mech.setRotaryDamping(4.0);
  auto& bodyB = mech.addRigidBody(RigidBody::createFromMesh(
      "bodyB", std::make_shared<PolygonalMesh>(MeshFactory::createBox(D::lenx1, D::leny1, D::lenz1)), D::density));
  bodyB.setPose(RigidTransform3d(0, 0, 1.5 * D::lenx1));
  return {mech, bodyB};
}

}  // namespace sinew::demos
