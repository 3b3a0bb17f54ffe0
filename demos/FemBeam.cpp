// FemBeam (guide §6.2.5): a 1 × 0.3 × 0.3 beam of 6 × 3 × 3 hexahedra
// (density 10, particle damping 0.1, LinearMaterial E = 4000, ν = 0.33)
// inside a MechModel, its left end fixed, sagging under gravity.
#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class FemBeam : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    (void)args;
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto& fem = mech.addModel(std::make_unique<FemModel3d>("fem"));
    const double length = 1, width = 0.3, eps = 1e-15;
    FemFactory::createHexGrid(fem, length, width, width, /*nx=*/6, /*ny=*/3, /*nz=*/3);
    fem.setDensity(10);
    fem.setParticleDamping(0.1);
    fem.setMaterial(LinearMaterial(4000, 0.33));
    // Fix the left-hand nodes (the boundary condition of §6.1.4).
    for (auto& n : fem.nodes())
      if (n.getPosition().x() <= -length / 2 + eps) n.setDynamic(false);
  }
};

void registerFemBeam(ModelRegistry& reg) {
  reg.add("FemBeam", [] { return std::make_unique<FemBeam>(); },
          "hex FEM beam fixed at one end, sagging under gravity (§6.2.5)");
}

}  // namespace sinew::demos
