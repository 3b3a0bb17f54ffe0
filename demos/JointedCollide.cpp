// JointedCollide (guide §8.1.3) and JointedBallCollide (§8.3.1): the
// RigidBodyJoint assembly made to collide. In the first, bodyB is freed and
// the pair falls onto an inclined plane and slides off it; in the second, a
// ball added to the tip of bodyA as its only collision mesh strikes bodyB.
#include <cmath>

#include "demos/Demos.h"
#include "demos/RigidBodyJoint.h"
#include "sinew/geometry/MeshFactory.h"

namespace sinew::demos {

class JointedCollide : public RigidBodyJoint {
 public:
  void build(const std::vector<std::string>& args) override {
    RigidBodyJoint::build(args);
    bodyB->setDynamic(true);  // allow bodyB to fall freely
    // The inclined plane: a thin box, translated and tilted by −π/8 about y.
    auto base = RigidBody::createBox("base", 25, 25, 2, 0.2);
    base->setPose(RigidTransform3d(5, 0, 0, 0, 1, 0, -M_PI / 8));
    base->setDynamic(false);
    mech->addRigidBody(std::move(base));
    // Collisions everywhere, except between the jointed bodies, which the
    // joint keeps permanently touching.
    mech->setDefaultCollisionBehavior(true, 0.20);
    mech->setCollisionBehavior(*bodyA, *bodyB, false);
  }
};

class JointedBallCollide : public RigidBodyJoint {
 public:
  void build(const std::vector<std::string>& args) override {
    RigidBodyJoint::build(args);
    // A ball at the tip of bodyA becomes its collision mesh; its surface
    // mesh, permanently touching bodyB at the hinge, is not collidable.
    auto ball = std::make_shared<PolygonalMesh>(MeshFactory::createIcosahedralSphere(2.5, 1));
    ball->transform(Eigen::Isometry3d(Eigen::Translation3d(5, 0, 0)));
    bodyA->getSurfaceMeshComp()->setIsCollidable(false);
    bodyA->addMesh(ball, /*hasMass=*/true, /*collidable=*/true);
    mech->setCollisionBehavior(*bodyA, *bodyB, true);
  }
};

void registerJointedCollide(ModelRegistry& reg) {
  reg.add("JointedCollide", [] { return std::make_unique<JointedCollide>(); },
          "a hinged pair falls onto an inclined plane and slides off (§8.1.3)");
  reg.add("JointedBallCollide", [] { return std::make_unique<JointedBallCollide>(); },
          "a ball at the tip of a hinged body strikes the fixed body (§8.3.1)");
}

}  // namespace sinew::demos
