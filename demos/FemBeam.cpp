// FemBeam (guide §6.2.5): a 1 × 0.3 × 0.3 beam of 6 × 3 × 3 hexahedra
// (density 10, particle damping 0.1, LinearMaterial E = 4000, ν = 0.33)
// inside a MechModel, its left end fixed, sagging under gravity.
// FemBeamWithBlock (§6.4.2): the same beam with its right-hand nodes
// attached to a rigid block, which it carries.
#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class FemBeam : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    (void)args;
    mech = &addModel(std::make_unique<MechModel>("mech"));
    fem = &mech->addModel(std::make_unique<FemModel3d>("fem"));
    FemFactory::createHexGrid(*fem, length, width, width, /*nx=*/6, /*ny=*/3, /*nz=*/3);
    fem->setDensity(density);
    fem->setParticleDamping(0.1);
    fem->setMaterial(LinearMaterial(4000, 0.33));
    // Fix the left-hand nodes (the boundary condition of §6.1.4).
    for (auto& n : fem->nodes())
      if (n.getPosition().x() <= -length / 2 + eps) n.setDynamic(false);
  }

 protected:
  MechModel* mech = nullptr;
  FemModel3d* fem = nullptr;
  const double length = 1, density = 10, width = 0.3, eps = 1e-15;
};

class FemBeamWithBlock : public FemBeam {
 public:
  void build(const std::vector<std::string>& args) override {
    FemBeam::build(args);
    // A rigid block beside the beam's free end, carried by its end nodes.
    auto& block = mech->addRigidBody(RigidBody::createBox("block", width / 2, 1.2 * width, 1.2 * width, 2 * density));
    block.setPose(RigidTransform3d(length / 2 + width / 4, 0, 0));
    for (auto& n : fem->nodes())
      if (n.getPosition().x() >= length / 2 - eps) mech->attachPoint(n, block);
  }
};

void registerFemBeam(ModelRegistry& reg) {
  reg.add("FemBeam", [] { return std::make_unique<FemBeam>(); },
          "hex FEM beam fixed at one end, sagging under gravity (§6.2.5)");
  reg.add("FemBeamWithBlock", [] { return std::make_unique<FemBeamWithBlock>(); },
          "FemBeam carrying a rigid block attached to its free end (§6.4.2)");
}

}  // namespace sinew::demos
