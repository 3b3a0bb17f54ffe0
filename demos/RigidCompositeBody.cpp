// RigidCompositeBody (guide §3.2.10): a dumbbell body made of three meshes,
// one ball lighter than the rest, hung by a spring; it tilts as it swings.
#include <cmath>

#include "demos/Demos.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

class RigidCompositeBody : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto ball1 = std::make_shared<PolygonalMesh>(MeshFactory::createIcosahedralSphere(0.8, 1));
    ball1->translate(Vector3d(1.5, 0, 0));
    auto ball2 = std::make_shared<PolygonalMesh>(MeshFactory::createIcosahedralSphere(0.8, 1));
    ball2->translate(Vector3d(-1.5, 0, 0));
    auto axis = std::make_shared<PolygonalMesh>(MeshFactory::createCylinder(0.2, 2.0, 12));
    axis->transform(Eigen::Isometry3d(Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitY())));

    auto body = std::make_unique<RigidBody>("body");
    body->setDensity(10);
    body->setFrameDamping(10);
    body->addMesh(axis);
    RigidMeshComp& bcomp1 = body->addMesh(ball1);
    body->addMesh(ball2);
    auto& b = mech.addRigidBody(std::move(body));

    auto& p1 = mech.addParticle("p1", /*mass=*/0, 0, 0, 2);
    p1.setDynamic(false);
    auto& mkr = mech.addFrameMarkerWorld(b, Vector3d(0, 0, 0.2));
    mech.attachAxialSpring(p1, mkr, std::make_unique<AxialSpring>("spr", /*k=*/150, /*d=*/0, /*l0=*/0));
    bcomp1.setDensity(8);  // ball1 is lighter than the rest of the body
  }
};

void registerRigidCompositeBody(ModelRegistry& reg) {
  reg.add("RigidCompositeBody", [] { return std::make_unique<RigidCompositeBody>(); },
          "dumbbell body built from three meshes (§3.2.10)");
}

}  // namespace sinew::demos
