// FemSelfCollide (guide §8.3.3, Figure 8.5): an open torus of hexahedra,
// hung by the nodes at its top, sags under gravity until the two ends of
// its gap meet. Contact meshes wrapped round the elements at each end
// (createVolumetricSurfaceMesh, the guide's createVolumetricSurface) and a
// self-collision behaviour for the model (§8.3.2) keep the ends from
// passing through each other.
//
// Differences from the guide's listing: the torus is built about z and
// turned with its ring upright and its gap at the bottom (Sinew's
// createPartialHexTorus lies in the x–y plane); the end elements are chosen
// by where they are (the first and last slice of the ring, 20 elements
// each, as the guide's 0…19 and 180…199) rather than by number; and the
// contacts are unilateral rows (below). The behaviour is the guide's:
// VERTEX_EDGE_PENETRATION with the AJL_CONTOUR collider.
#include <cmath>

#include "demos/Demos.h"
#include "sinew/contact/CollisionBehavior.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/mech/MechModel.h"

namespace sinew::demos {

namespace {
constexpr double kGapAngle = M_PI / 4;  // the torus spans 2π − π/4

Vector3d centroid(const FemElement3d& e) {
  Vector3d c = Vector3d::Zero();
  for (const FemNode3d* n : e.getNodes()) c += n->getPosition();
  return c / e.numNodes();
}
}  // namespace

class FemSelfCollide : public RootModel {
 public:
  void build(const std::vector<std::string>&) override {
    auto& mech = addModel(std::make_unique<MechModel>("mech"));
    auto& ptorus = mech.addModel(std::make_unique<FemModel3d>("ptorus"));
    const int nl = 20;  // slices round the ring
    FemFactory::createPartialHexTorus(ptorus, 0.15, 0.03, 0.06, 10, nl, 2, 2 * M_PI - kGapAngle);

    // The elements of the first and last slice of the ring (azimuth about
    // z, before the torus is turned upright).
    const double slice = (2 * M_PI - kGapAngle) / nl;
    std::vector<FemElement3d*> left, right;
    for (auto& e : ptorus.elements()) {
      const Vector3d c = centroid(e);
      double phi = std::atan2(c.y(), c.x());
      if (phi < 0) phi += 2 * M_PI;
      if (phi < slice) right.push_back(&e);
      else if (phi > 2 * M_PI - kGapAngle - slice) left.push_back(&e);
    }

    // Ring upright in the x–z plane, gap at the bottom: the gap's centre
    // (azimuth −π/8) turns to −y, then −y to −z.
    ptorus.transformGeometry(RigidTransform3d(Vector3d::Zero(), axisRotation(0, M_PI / 2) *
                                                                    axisRotation(2, -M_PI / 2 + kGapAngle / 2)));
    ptorus.setMaterial(LinearMaterial(5e4, 0.45));
    ptorus.setParticleDamping(1.0);

    // Anchor the FEM by fixing the nodes at the top centre.
    for (auto& n : ptorus.nodes())
      if (std::abs(n.getPosition().x()) < 1e-9 && n.getPosition().z() > 0) n.setDynamic(false);

    // Contact meshes at the two ends; INTERNAL, so they collide only with
    // each other.
    ptorus.createVolumetricSurfaceMesh("leftMesh", left);
    ptorus.createVolumetricSurfaceMesh("rightMesh", right);

    // Self-collision of the model, frictionless, with the guide's method and
    // collider: edge–edge contacts help these coarse meshes. The ends meet at speed, so
    // the contacts are unilateral rows, which watch vertices arriving
    // within the step and hold them at the penetration tolerance; the
    // bilateral rows FEM contacts default to act only once a vertex is in
    // (here up to 0.5 mm deep for a step).
    auto behav = std::make_unique<CollisionBehavior>(true, 0.0);
    behav->setMethod(CollisionBehavior::Method::VertexEdgePenetration);
    behav->setBilateralVertexContact(false);
    behav->setColliderType(ColliderType::AjlContour);
    mech.setCollisionBehavior(ptorus, ptorus, std::move(behav));
  }
};

void registerFemSelfCollide(ModelRegistry& reg) {
  reg.add("FemSelfCollide", [] { return std::make_unique<FemSelfCollide>(); },
          "an open torus that sags until the ends of its gap collide with each other (§8.3.3)");
}

}  // namespace sinew::demos
