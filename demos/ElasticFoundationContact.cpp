// ElasticFoundationContact (guide §8.7.4): a ball of radius 0.7 drops into
// a bowl and rolls in it on an elastic foundation (LinearElasticContact,
// E = 1e5, ν = 0.4, damping 0.1, thickness 0.1), friction 0.1. The guide
// reads the bowl from data/bowl.obj; here it is built in code: a
// hemispherical shell of inner radius 1.5 and outer radius 1.7 whose
// cavity's centre is at (0, 0, 0.5).
#include <cmath>

#include "demos/Demos.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/geometry/MeshFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {
/// A closed hemispherical shell opening toward +z, centred at the origin:
/// outer and inner surfaces of `rings` latitude rings and `segs` segments,
/// joined by a flat rim at z = 0.
PolygonalMesh createBowl(double rin, double rout, int rings, int segs) {
  PolygonalMesh m;
  auto addSurface = [&](double r) {
    const int pole = m.addVertex(Vector3d(0, 0, -r));
    for (int k = 1; k <= rings; ++k) {
      const double phi = 0.5 * M_PI * k / rings;
      for (int j = 0; j < segs; ++j) {
        const double th = 2 * M_PI * j / segs;
        m.addVertex(r * Vector3d(std::sin(phi) * std::cos(th), std::sin(phi) * std::sin(th), -std::cos(phi)));
      }
    }
    return pole;
  };
  const int po = addSurface(rout), pi = addSurface(rin);
  auto o = [&](int k, int j) { return po + 1 + (k - 1) * segs + (j % segs); };
  auto in = [&](int k, int j) { return pi + 1 + (k - 1) * segs + (j % segs); };
  for (int j = 0; j < segs; ++j) {
    // Outer faces wind outward (away from the centre), inner ones the
    // other way, so that the solid's normals all point out of it.
    m.addFace({po, o(1, j + 1), o(1, j)});
    m.addFace({pi, in(1, j), in(1, j + 1)});
    for (int k = 1; k < rings; ++k) {
      m.addFace({o(k, j), o(k, j + 1), o(k + 1, j + 1), o(k + 1, j)});
      m.addFace({in(k, j), in(k + 1, j), in(k + 1, j + 1), in(k, j + 1)});
    }
    m.addFace({o(rings, j), o(rings, j + 1), in(rings, j + 1), in(rings, j)});
  }
  return m;
}
}  // namespace

class ElasticFoundationContact : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    mech.setGravity(0, 0, -9.8);
    auto bowlMesh = std::make_shared<PolygonalMesh>(createBowl(1.5, 1.7, 24, 48));
    bowlMesh->transform(Eigen::Isometry3d(Eigen::Translation3d(0, 0, 0.5)));
    auto& bowl = mech.addRigidBody(RigidBody::createFromMesh("bowl", bowlMesh, 1000.0));
    bowl.setDynamic(false);
    auto& ball = mech.addRigidBody(RigidBody::createFromMesh(
        "ball", std::make_shared<PolygonalMesh>(MeshFactory::createIcosahedralSphere(0.7, 3)), 1000.0));
    ball.setPose(RigidTransform3d(0.1, 0, 0));  // the drop position
    // EFC needs vertex penetration (§8.7.3); friction 0.1 makes the ball roll.
    auto behav = std::make_unique<CollisionBehavior>(true, 0.1);
    behav->setMethod(CollisionBehavior::Method::VertexPenetration);
    behav->setForceBehavior(std::make_shared<LinearElasticContact>(1e5, 0.4, 0.1, 0.1));
    mech.setCollisionBehavior(ball, bowl, std::move(behav));
  }
};

void registerElasticFoundationContact(ModelRegistry& reg) {
  reg.add("ElasticFoundationContact", [] { return std::make_unique<ElasticFoundationContact>(); },
          "a ball dropped into a bowl, on an elastic foundation (§8.7.4)");
}

}  // namespace sinew::demos
