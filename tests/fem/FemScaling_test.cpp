// Changing units (guide §4.2.1, Table 4.1) on an FEM model: scaleDistance
// and scaleMass. A change of units must not change the physics: the scaled
// model, run with gravity in the new units, moves exactly as the original
// does, in the new units.
#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"
#include "sinew/Error.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/fem/LinearMaterial.h"
#include "sinew/fem/NeoHookeanMaterial.h"
#include "sinew/fem/ShellElement3d.h"
#include "sinew/fem/StVenantKirchoffMaterial.h"

namespace sinew {
namespace {

/// A neo-Hookean cantilever sagging under gravity, with an element of its
/// own material and density, an augmenting bundle, a tip load, and both
/// kinds of damping (shells: the test after).
struct Sagging {
  test::TestRoot r{Vector3d(0, 0, -9.8)};
  FemModel3d& fem;
  Sagging() : fem(r.mech.addModel(std::make_unique<FemModel3d>("fem"))) {
    FemFactory::createHexGrid(fem, 0.4, 0.1, 0.1, 4, 1, 1);
    fem.setMaterial(NeoHookeanMaterial(2e5, 0.3));
    fem.setDensity(800);
    fem.setParticleDamping(1.5);
    fem.setStiffnessDamping(0.005);
    fem.getElement(1).setMaterial(LinearMaterial(4e5, 0.25));
    fem.getElement(2).setDensity(2000);
    auto& bundle = fem.addMaterialBundle(std::make_unique<MaterialBundle>("b", StVenantKirchoffMaterial(5e4, 0.3)));
    bundle.addElement(fem.getElement(3));
    for (auto& n : fem.nodes()) {
      if (n.getRestPosition().x() < -0.2 + 1e-12) n.setDynamic(false);
      if (n.getRestPosition().x() > 0.2 - 1e-12) n.setExternalForce(Vector3d(0.5, 0, -1));
    }
  }
  std::vector<Vector3d> run() {
    r.run(0.3, 0.01);
    std::vector<Vector3d> x;
    for (auto& n : fem.nodes()) x.push_back(n.getPosition());
    return x;
  }
};

TEST(FemScaling, ScaledDistanceRunsTheSameMotionInTheNewUnits) {
  const double s = 100;  // metres to centimetres
  Sagging a, b;
  b.fem.scaleDistance(s);
  b.r.mech.setGravity(s * b.r.mech.getGravity());  // the world's gravity, in cm/s²
  EXPECT_NEAR(b.fem.getMass(), a.fem.getMass(), 1e-12 * a.fem.getMass()) << "mass is not a distance";
  EXPECT_NEAR(b.fem.getRestVolume(), s * s * s * a.fem.getRestVolume(), 1e-9 * b.fem.getRestVolume());
  const auto xa = a.run(), xb = b.run();
  double sag = 0, err = 0;
  for (size_t k = 0; k < xa.size(); ++k) {
    sag = std::max(sag, (xa[k] - a.fem.getNode(k).getRestPosition()).norm());
    err = std::max(err, (xb[k] / s - xa[k]).norm());
  }
  EXPECT_GT(sag, 1e-3);
  EXPECT_LT(err, 1e-9 * sag);
  // And back: the model returns to its own values.
  b.fem.scaleDistance(1 / s);
  EXPECT_NEAR(b.fem.getDensity(), 800, 1e-9);
  EXPECT_NEAR(dynamic_cast<const NeoHookeanMaterial&>(b.fem.getMaterial()).getYoungsModulus(), 2e5, 1e-6);
}

TEST(FemScaling, ScaledMassChangesNoMotion) {
  Sagging a, b;
  b.fem.scaleMass(3);
  EXPECT_NEAR(b.fem.getMass(), 3 * a.fem.getMass(), 1e-12 * b.fem.getMass());
  const auto xa = a.run(), xb = b.run();
  double err = 0;
  for (size_t k = 0; k < xa.size(); ++k) err = std::max(err, (xb[k] - xa[k]).norm());
  EXPECT_LT(err, 1e-12);
}

TEST(FemScaling, ShellsScaleTheirThicknessAndDirectors) {
  // A sheet of regular shells sagging from a clamped edge, with a moving
  // start: positions, rest positions, velocities, directors and thickness
  // scale together, so the scaled sheet runs the same motion in the new
  // units (its MechModel's gravity scaled by hand).
  const double s = 10;
  auto make = [](test::TestRoot& r) -> FemModel3d& {
    auto& fem = r.mech.addModel(std::make_unique<FemModel3d>("sheet"));
    FemFactory::createShellQuadGrid(fem, 0.4, 0.2, 4, 2, 0.01);
    fem.setMaterial(NeoHookeanMaterial(1e6, 0.3));
    for (auto& n : fem.nodes()) {
      if (n.getRestPosition().x() < -0.2 + 1e-12) n.setDynamic(false);
      n.setVelocity(Vector3d(0, 0, 0.05 * (n.getRestPosition().x() + 0.2)));
    }
    return fem;
  };
  test::TestRoot a(Vector3d(0, 0, -9.8)), b(Vector3d(0, 0, -9.8 * s));
  FemModel3d& fa = make(a);
  FemModel3d& fb = make(b);
  fb.scaleDistance(s);
  EXPECT_NEAR(fb.getMass(), fa.getMass(), 1e-12 * fa.getMass());
  EXPECT_NEAR(fb.getShellElements().get(0).getDefaultThickness(), 0.1, 1e-15);
  for (int i = 0; i < fa.numNodes(); ++i)
    EXPECT_LT((fb.getNode(i).getRestDirector() - s * fa.getNode(i).getRestDirector()).norm(), 1e-14);
  a.run(0.2, 0.01);
  b.run(0.2, 0.01);
  double sag = 0, err = 0;
  for (int i = 0; i < fa.numNodes(); ++i) {
    sag = std::max(sag, (fa.getNode(i).getPosition() - fa.getNode(i).getRestPosition()).norm());
    err = std::max(err, (fb.getNode(i).getPosition() / s - fa.getNode(i).getPosition()).norm());
  }
  EXPECT_GT(sag, 1e-3);
  EXPECT_LT(err, 1e-9 * sag);
  // Mass units: loads on back nodes too.
  ASSERT_GT(fb.backNodes().size(), 0);
  fb.backNodes().get(0).setExternalForce(Vector3d(0, 0, 2));
  const double m = fb.getMass();
  fb.scaleMass(3);
  EXPECT_EQ(fb.backNodes().get(0).getExternalForce(), Vector3d(0, 0, 6));
  EXPECT_NEAR(fb.getMass(), 3 * m, 1e-12 * m);
}

TEST(FemScaling, TheGuidesSphereIsSizedByScaleDistance) {
  // §6.4.4: a mesh made at unit size is scaled to radius 0.22, then given
  // its density and material.
  FemModel3d sphere("sphere");
  FemFactory::createHexGrid(sphere, 2, 2, 2, 2, 2, 2);  // a stand-in of half-width 1
  sphere.scaleDistance(0.22);
  double r = 0;
  for (auto& n : sphere.nodes()) r = std::max(r, n.getPosition().cwiseAbs().maxCoeff());
  EXPECT_NEAR(r, 0.22, 1e-15);
  sphere.setDensity(10);
  EXPECT_NEAR(sphere.getMass(), 10 * std::pow(0.44, 3), 1e-12);
  EXPECT_THROW(sphere.scaleDistance(0), ModelError);
  EXPECT_THROW(sphere.scaleDistance(std::nan("")), ModelError);
  EXPECT_THROW(sphere.scaleMass(-1), ModelError);
}

}  // namespace
}  // namespace sinew
