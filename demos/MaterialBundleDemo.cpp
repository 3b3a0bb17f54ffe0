// MaterialBundleDemo (guide §6.8.1, "FEM sheet with a stiff spine"): a thin
// 1 × 1 × 0.1 sheet of 10 × 10 × 1 hexahedra (density 1000, LinearMaterial
// E = 10000, ν = 0.45), its left edge fixed, falling under gravity. A
// MaterialBundle "spine" adds a NeoHookeanMaterial (5e6, 0.45) to the
// elements whose centroid lies within 0.1 of the x axis, so the sheet
// droops everywhere but along its stiff spine. (The guide's control panel
// and element widgets are viewer features, not built here.)
#include <cmath>

#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class MaterialBundleDemo : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    (void)args;
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    // A fem model consisting of a thin sheet of hexes.
    auto& fem = mech.addModel(std::make_unique<FemModel3d>("fem"));
    FemFactory::createHexGrid(fem, 1.0, 1.0, 0.1, 10, 10, 1);
    fem.setDensity(1000);
    fem.setMaterial(LinearMaterial(10000, 0.45));
    // Fix the left-most nodes.
    const double EPS = 1e-8;
    for (auto& n : fem.nodes())
      if (n.getPosition().x() <= -0.5 + EPS) n.setDynamic(false);
    // A "spine" of stiffer elements: a MaterialBundle with a stiffer
    // material, on the elements whose centroid is near the x axis.
    auto& bun = fem.addMaterialBundle(std::make_unique<MaterialBundle>("spine", NeoHookeanMaterial(5e6, 0.45), false));
    for (auto& e : fem.elements())
      if (std::abs(e.computeCentroid().y()) <= 0.1 + EPS) bun.addElement(e);
  }
};

void registerMaterialBundleDemo(ModelRegistry& reg) {
  reg.add("MaterialBundleDemo", [] { return std::make_unique<MaterialBundleDemo>(); },
          "FEM sheet stiffened along a spine by a MaterialBundle (§6.8.1)");
}

}  // namespace sinew::demos
