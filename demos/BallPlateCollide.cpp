// BallPlateCollide (guide §8.5.1): an icosahedral ball, tilted so that it
// does not land symmetrically, drops onto a fixed plate with friction 0.2.
// The collision manager's compliance and damping (§8.7.1) are its build
// arguments: "-compliance 0.001 -damping 30" makes the ball land softly.
#include <cmath>

#include "demos/Demos.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class BallPlateCollide : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto& ball = mech.addRigidBody(RigidBody::createIcosahedralSphere("ball", 0.8, 0.1, 1));
    // The guide's pose (0, 0, 2) with roll 0.4, pitch 0.1, yaw 0.1.
    const Matrix3d R = (Eigen::AngleAxisd(0.4, Vector3d::UnitZ()) * Eigen::AngleAxisd(0.1, Vector3d::UnitY()) *
                        Eigen::AngleAxisd(0.1, Vector3d::UnitX()))
                           .toRotationMatrix();
    ball.setPose(RigidTransform3d(Vector3d(0, 0, 2), R));
    auto& plate = mech.addRigidBody(RigidBody::createBox("plate", 5, 5, 0.4, 1));
    plate.setDynamic(false);
    mech.setDefaultCollisionBehavior(true, 0.20);
    CollisionManager& cm = mech.getCollisionManager();
    cm.setCompliance(argValue(args, "-compliance", 0));
    cm.setDamping(argValue(args, "-damping", 0));
  }
};

void registerBallPlateCollide(ModelRegistry& reg) {
  reg.add("BallPlateCollide", [] { return std::make_unique<BallPlateCollide>(); },
          "a ball dropped onto a plate, with optional compliant contact (§8.5.1)");
}

}  // namespace sinew::demos
