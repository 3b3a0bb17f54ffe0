// RigidBodySpring (guide §3.2.2): a box hung from a fixed particle by a
// spring to a marker on the box; it falls and swings under gravity.
#include "demos/Demos.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class RigidBodySpring : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto& p1 = mech.addParticle("p1", /*mass=*/2, 0, 0, 0);
    p1.setDynamic(false);
    auto& box = mech.addRigidBody(RigidBody::createBox("box", 0.5, 0.3, 0.3, /*density=*/20));
    box.setPose(RigidTransform3d(0.75, 0, 0));
    auto& mkr = mech.addFrameMarker(box, Vector3d(-0.25, 0, 0));
    mech.attachAxialSpring(p1, mkr, std::make_unique<AxialSpring>("spr", /*k=*/20, /*d=*/10, /*l0=*/0));
  }
};

void registerRigidBodySpring(ModelRegistry& reg) {
  reg.add("RigidBodySpring", [] { return std::make_unique<RigidBodySpring>(); },
          "box on a spring from a fixed particle (§3.2.2)");
}

}  // namespace sinew::demos
