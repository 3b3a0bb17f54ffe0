// LumbarFEMDisk (guide §6.4.7): the two vertebrae of LumbarFrameSpring
// (§3.5.4) held apart by an FEM "spring" instead of a frame spring: a
// hollow hex torus (R 0.011, rin 0.003, rout 0.008, 16 × 30 × 2 elements,
// density 1500, LinearMaterial(20000, 0.4)) whose nodes within 1 mm of a
// vertebra's surface are attached to that vertebra. lumbar2 is fixed;
// lumbar1 sinks under gravity until the disk carries it.
//
// The guide places the disk with RigidTransform3d(−0.012, 0, 0.040, 0,
// −25°, 90°), a pose that fits its lumbar1.obj and lumbar2.obj. Sinew's
// stand-in vertebrae (demos/LumbarVertebra.h) are upright cylinders, so here
// the disk lies flat between their end faces: lumbar1 starts 2 mm higher
// than in LumbarFrameSpring, making the gap between the bodies (1.6 cm)
// the disk's thickness, and the disk is centred midway between their axes.
#include "demos/Demos.h"
#include "demos/LumbarVertebra.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {

/// Attaches every node of fem within tol of body's surface to body.
void attachNearbyNodes(MechModel& mech, FemModel3d& fem, RigidBody& body, double tol) {
  const PolygonalMesh& surface = *body.getSurfaceMesh();  // in body coordinates
  for (auto& n : fem.nodes())
    if (!n.isAttached() && surface.distanceToPoint(body.getPose().inverseTransformPoint(n.getPosition())) < tol)
      mech.attachPoint(n, body);
}

}  // namespace

class LumbarFEMDisk : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    // lumbar1 is 2 mm higher than in LumbarFrameSpring (0.039): the gap
    // between the bodies is then the disk's thickness.
    MechModel& mech = addLumbarVertebrae(*this, 0.041);
    RigidBody& lumbar1 = *mech.rigidBodies().get("lumbar1");
    RigidBody& lumbar2 = *mech.rigidBodies().get("lumbar2");

    // The torus-shaped disk, flat (axis z) with its bottom on lumbar2's top
    // face (z = 0.0125) and its top on lumbar1's bottom face (z = 0.0285).
    auto& fem = mech.addModel(std::make_unique<FemModel3d>("disk"));
    fem.setDensity(1500);
    fem.setMaterial(LinearMaterial(20000, 0.4));
    FemFactory::createHexTorus(fem, 0.011, 0.003, 0.008, 16, 30, 2);
    fem.transformGeometry(RigidTransform3d(-0.008, 0, 0.0205));

    const double tol = 0.001;
    attachNearbyNodes(mech, fem, lumbar1, tol);
    attachNearbyNodes(mech, fem, lumbar2, tol);
  }
};

void registerLumbarFEMDisk(ModelRegistry& reg) {
  reg.add("LumbarFEMDisk", [] { return std::make_unique<LumbarFEMDisk>(); },
          "two vertebrae held apart by a hex-torus FEM disk (§6.4.7)");
}

}  // namespace sinew::demos
