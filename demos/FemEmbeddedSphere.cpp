// FemEmbeddedSphere (guide §6.3.3): a 0.4 cube of 4 × 4 × 4 hexahedra
// (density 10, particle damping 2, LinearMaterial E = 4000, ν = 0.33) with
// its face x = −0.2 fixed, sagging under gravity, and an octahedral sphere
// mesh (radius 0.15, 3 subdivisions) embedded in it as "sphere": the
// sphere's vertices keep their natural coordinates, so it deforms with the
// cube (§6.3.2).
#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class FemEmbeddedSphere : public RootModel {
 public:
  void build(const std::vector<std::string>& args) override {
    (void)args;
    mech = &addModel(std::make_unique<MechModel>("mech"));
    fem = &mech->addModel(std::make_unique<FemModel3d>("fem"));
    FemFactory::createHexGrid(*fem, 0.4, 0.4, 0.4, 4, 4, 4);
    fem->setParticleDamping(2);
    fem->setDensity(10);
    fem->setMaterial(LinearMaterial(4000, 0.33));
    // The sphere is centred in the cube already, so it needs no moving.
    sphere = &fem->addMesh("sphere", MeshFactory::createOctahedralSphere(0.15, 3));
    sphere->setCollidable(Collidability::External);
    // Boundary condition: the left face is fixed.
    for (auto& n : fem->nodes())
      if (n.getPosition().x() == -0.2) n.setDynamic(false);
  }

 protected:
  MechModel* mech = nullptr;
  FemModel3d* fem = nullptr;
  FemMeshComp* sphere = nullptr;
};

void registerFemEmbeddedSphere(ModelRegistry& reg) {
  reg.add("FemEmbeddedSphere", [] { return std::make_unique<FemEmbeddedSphere>(); },
          "hex FEM cube with an embedded sphere mesh that deforms with it (§6.3.3)");
}

}  // namespace sinew::demos
