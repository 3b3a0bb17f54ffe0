// FourBarLinkage (guide §3.3.9): four links joined in a closed loop by four
// hinges, one link grounded. The loop is overconstrained (20 constraints on
// 18 dofs), so, as in the guide, every joint is made slightly compliant
// (compliance 1e-6, damping 25000), which keeps the system solvable with
// sensible forces. The linkage falls and swings under gravity.
#include <cmath>

#include "demos/Demos.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/joints/HingeJoint.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class FourBarLinkage : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    mech.setFrameDamping(1.0);
    mech.setRotaryDamping(4.0);
    // A link of length 1 (along its z), width 0.25 and the given depth,
    // posed in the x–z plane at (x, z) turned by deg about y.
    auto link = [&](const char* name, double depth, double x, double z, double deg) -> RigidBody& {
      auto mesh = std::make_shared<PolygonalMesh>(MeshFactory::createBox(0.25, depth, 1.0));
      auto& b = mech.addRigidBody(RigidBody::createFromMesh(name, mesh, /*density=*/1000.0));
      b.setPose(RigidTransform3d(x, 0, z, 0, 1, 0, deg * M_PI / 180));
      return b;
    };
    RigidBody* bars[4] = {&link("link0", 0.2, -0.5, 0.0, 0), &link("link1", 0.3, 0.0, 0.5, 90),
                          &link("link2", 0.2, 0.5, 0.0, 180), &link("link3", 0.3, 0.0, -0.5, 270)};
    bars[0]->setDynamic(false);  // ground the left bar
    // Each hinge joins the +z end of one link (C) to the −z end of the next
    // (D), its axis along y.
    const RigidTransform3d TCA(0, 0, 0.5, 1, 0, 0, M_PI / 2), TDB(0, 0, -0.5, 1, 0, 0, M_PI / 2);
    const double compliance = argValue(args, "-compliance", 1e-6);
    for (int i = 0; i < 4; ++i) {
      auto joint = std::make_unique<HingeJoint>("joint" + std::to_string(i));
      joint->setBodies(*bars[i], TCA, bars[(i + 1) % 4], TDB);
      joint->setLinearCompliance(compliance);
      joint->setRotaryCompliance(compliance);
      joint->setCompliantDamping(compliance > 0 ? 25000 : 0);
      mech.addBodyConnector(std::move(joint));
    }
  }
};

void registerFourBarLinkage(ModelRegistry& reg) {
  reg.add("FourBarLinkage", [] { return std::make_unique<FourBarLinkage>(); },
          "closed four-bar linkage of hinges, made solvable by compliance (§3.3.9)");
}

}  // namespace sinew::demos
