#include "demos/RigidBodyJoint.h"

#include <cmath>

#include "demos/Demos.h"
#include "demos/JointDemoCommon.h"
#include "sinew/geometry/MeshFactory.h"

namespace sinew::demos {

void RigidBodyJoint::build(const std::vector<std::string>&) {
  const double lenx1 = JointDemoDims::lenx1, lenx2 = JointDemoDims::lenx2, leny2 = JointDemoDims::leny2;
  // The guide's meshes are rotated by TMB (about (1,1,1) by 120°) and the
  // bodies back by 90° about x; plain shapes along x give the same bodies.
  auto demo = addJointDemoMech(*this);
  mech = &demo.mech;
  bodyB = &demo.bodyB;
  bodyB->setDynamic(false);
  auto capsule = std::make_shared<PolygonalMesh>(MeshFactory::createCapsule(leny2 / 2, lenx2 - leny2, 16));
  capsule->transform(Eigen::Isometry3d(Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitY())));
  bodyA = &mech->addRigidBody(RigidBody::createFromMesh("bodyA", capsule, JointDemoDims::density));
  bodyA->setPose(RigidTransform3d((lenx1 + lenx2) / 2, 0, 1.5 * lenx1));
  // Hinge at the touching ends, its z axis along world −y (D rotated
  // 90° about x, as the guide's TDW).
  RigidTransform3d TDW(lenx1 / 2, 0, 1.5 * lenx1, 1, 0, 0, M_PI / 2);
  joint = &mech->addBodyConnector(std::make_unique<HingeJoint>(*bodyA, bodyB, TDW, "joint"));
  joint->setTheta(35);  // moves bodyA, the free body
}

void registerRigidBodyJoint(ModelRegistry& reg) {
  reg.add("RigidBodyJoint", [] { return std::make_unique<RigidBodyJoint>(); },
          "a body hinged to a fixed body (§3.3.6)");
}

}  // namespace sinew::demos
