// FemBeam (guide §6.2.5): a 1 × 0.3 × 0.3 beam of 6 × 3 × 3 hexahedra
// (density 10, particle damping 0.1, LinearMaterial E = 4000, ν = 0.33)
// inside a MechModel, its left end fixed, sagging under gravity.
// FemBeamWithBlock (§6.4.2): the same beam with its right-hand nodes
// attached to a rigid block, which it carries. FemBeamWithFemSphere
// (§6.4.4): the same beam with a tetrahedral FEM sphere stuck to its end.
// FemBeamWithMuscle (§6.5.1): the beam pulled up by a muscle from a fixed
// point to a FemMarker near its free end.
#include "demos/Demos.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/PointFem3dAttachment.h"
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

class FemBeamWithFemSphere : public FemBeam {
 public:
  void build(const std::vector<std::string>& args) override {
    FemBeam::build(args);
    auto& sphere = mech->addModel(std::make_unique<FemModel3d>("sphere"));
    // The guide reads TetGen's sphere2.1.node/.ele (a unit sphere) and
    // scales it by 0.22. Sinew ships no third-party meshes, so TetGen meshes
    // a unit icosahedral sphere here (162 surface vertices, radius–edge
    // ratio at most 1.5), scaled as the guide's is.
    FemFactory::createIcosahedralSphere(sphere, 1.0, /*ndivisions=*/2, /*quality=*/1.5);
    sphere.scaleDistance(0.22);
    sphere.setDensity(10);
    sphere.setParticleDamping(2);
    sphere.setMaterial(LinearMaterial(4000, 0.33));
    sphere.transformGeometry(RigidTransform3d(length / 2 + width / 2, 0, 0));
    // Attach the sphere nodes inside the beam to the elements containing them.
    for (auto& n : sphere.nodes())
      if (const FemElement3d* e = fem->findContainingElement(n.getPosition()))
        mech->addAttachment(std::make_unique<PointFem3dAttachment>(n, *e));
  }
};

class FemBeamWithMuscle : public FemBeam {
 public:
  void build(const std::vector<std::string>& args) override {
    FemBeam::build(args);
    // A fixed particle above the beam's fixed end, and a marker near its
    // free end (attached by addMarker to the element containing it).
    auto& p1 = mech->addParticle("p1", /*mass=*/0, -length / 2, 0, 2 * width);
    p1.setDynamic(false);
    auto& mkr = fem->addMarker(std::make_unique<FemMarker>("marker", Vector3d(length / 2 - 0.1, 0, width / 2)));
    auto muscle = std::make_unique<Muscle>("muscle", /*restLength=*/0);
    muscle->setMaterial(SimpleAxialMuscle(/*stiffness=*/20, /*damping=*/10, /*fmax=*/10));
    mech->attachAxialSpring(p1, mkr, std::move(muscle));
  }
};

void registerFemBeam(ModelRegistry& reg) {
  reg.add("FemBeam", [] { return std::make_unique<FemBeam>(); },
          "hex FEM beam fixed at one end, sagging under gravity (§6.2.5)");
  reg.add("FemBeamWithBlock", [] { return std::make_unique<FemBeamWithBlock>(); },
          "FemBeam carrying a rigid block attached to its free end (§6.4.2)");
  reg.add("FemBeamWithFemSphere", [] { return std::make_unique<FemBeamWithFemSphere>(); },
          "FemBeam with a TetGen-meshed FEM sphere attached to its free end (§6.4.4)");
  reg.add("FemBeamWithMuscle", [] { return std::make_unique<FemBeamWithMuscle>(); },
          "FemBeam held up by a muscle from a fixed point to a FemMarker (§6.5.1)");
}

}  // namespace sinew::demos
