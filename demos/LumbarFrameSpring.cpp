// LumbarFrameSpring (guide §3.5.4): two lumbar vertebrae joined by a 6-dof
// frame spring; lumbar2 is fixed and lumbar1 sags slightly under gravity
// until the spring holds it.
//
// The guide reads the meshes lumbar1.obj and lumbar2.obj. Sinew ships no
// third-party data, so each vertebra is a procedural stand-in of similar
// size: a cylindrical vertebral body along the spine (y before the model is
// turned) with a box-shaped spinous process behind it (−x), as one mesh.
#include <cmath>

#include "demos/Demos.h"
#include "demos/LumbarVertebra.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {

/// Vertebral body (radius 2 cm, height 2.5 cm, axis y) plus a 3 × 1 × 1.2 cm
/// process that touches it at x = −2 cm; the two shells do not overlap, so
/// the mesh volume is their sum.
std::shared_ptr<PolygonalMesh> vertebraMesh() {
  const double r = 0.02, h = 0.025, len = 0.03;
  auto mesh = std::make_shared<PolygonalMesh>(MeshFactory::createCylinder(r, h, 24));
  mesh->transform(Eigen::Isometry3d(Eigen::AngleAxisd(-M_PI / 2, Vector3d::UnitX())));
  PolygonalMesh process = MeshFactory::createBox(len, 0.01, 0.012);
  process.translate(Vector3d(-r - len / 2, 0, 0));
  mesh->addMesh(process);
  return mesh;
}

}  // namespace

MechModel& addLumbarVertebrae(RootModel& root, double lumbar1Height) {
  auto& mech = root.addModel(std::make_unique<MechModel>("mech"));
  mech.setGravity(0, 0, -1.0);
  mech.setFrameDamping(0.10);
  mech.setRotaryDamping(0.001);

  auto addBone = [&](const std::string& name) -> RigidBody& {
    return mech.addRigidBody(RigidBody::createFromMesh(name, vertebraMesh(), kLumbarDensity, /*scale=*/1));
  };
  RigidBody& lumbar1 = addBone("lumbar1");
  RigidBody& lumbar2 = addBone("lumbar2");
  lumbar1.setPose(RigidTransform3d(-0.016, lumbar1Height, 0));
  lumbar2.setDynamic(false);

  // Turn the whole model 90° about x: the spine, along y so far, stands
  // along z, and lumbar1 sits above lumbar2.
  mech.transformGeometry(RigidTransform3d(0, 0, 0, 1, 0, 0, M_PI / 2));
  return mech;
}

class LumbarFrameSpring : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    MechModel& mech = addLumbarVertebrae(*this, 0.039);
    RigidBody& lumbar1 = *mech.rigidBodies().get("lumbar1");
    RigidBody& lumbar2 = *mech.rigidBodies().get("lumbar2");

    auto spring = std::make_unique<FrameSpring>();
    spring->setMaterial(LinearFrameMaterial(/*ktrans=*/100, /*krot=*/0.01, /*dtrans=*/0, /*drot=*/0));
    spring->setFrames(lumbar1, &lumbar2, lumbar1.getPose());
    mech.addFrameSpring(std::move(spring)).setAxisLength(0.02);
  }
};

void registerLumbarFrameSpring(ModelRegistry& reg) {
  reg.add("LumbarFrameSpring", [] { return std::make_unique<LumbarFrameSpring>(); },
          "two vertebrae joined by a frame spring (§3.5.4)");
}

}  // namespace sinew::demos
