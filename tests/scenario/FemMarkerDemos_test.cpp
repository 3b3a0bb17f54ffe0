// FemBeamWithMuscle (guide §6.5.1): a muscle from a fixed point to a
// FemMarker holds the beam up. At static equilibrium the supports, the
// beam's weight and the muscle's pull on the marker balance.
#include <gtest/gtest.h>

#include "demos/Demos.h"
#include "sinew/fem/FemModel3d.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

TEST(FemMarkerDemos, FemBeamWithMuscleBalancesSupportsWeightAndMuscle) {
  auto root = demos::createDemo("FemBeamWithMuscle");
  auto& mech = *root->findComponent<MechModel>("models/mech");
  auto& fem = *root->findComponent<FemModel3d>("models/mech/models/fem");
  auto& marker = *root->findComponent<FemMarker>("models/mech/models/fem/markers/marker");
  auto& p1 = *root->findComponent<Particle>("models/mech/particles/p1");
  ASSERT_NE(marker.getAttachment(), nullptr);
  root->initialize(0);
  const auto residuals = mech.solveStatic();
  ASSERT_GE(residuals.size(), 2u);
  ASSERT_LT(residuals.back(), 1e-8 * residuals.front());

  // SimpleAxialMuscle at zero excitation and rest: f = k l (rest length 0),
  // pulling the marker toward p1.
  const Vector3d pull = 20.0 * (p1.getPosition() - marker.getPosition());
  const Vector3d g = mech.getGravity();
  // The supports' force on the beam: minus the elastic force and weight of
  // the fixed nodes.
  for (auto& n : fem.nodes()) n.zeroForces();
  fem.applyForces(0);
  Vector3d R = Vector3d::Zero();
  for (auto& n : fem.nodes())
    if (!n.isDynamic()) R -= n.getForce() + n.getMass() * g;
  const Vector3d W = fem.getMass() * g;
  EXPECT_LT((R + W + pull).norm(), 1e-6 * W.norm()) << (R + W + pull).transpose();
  // The muscle holds the tip up: the marker rises above its rest height.
  EXPECT_GT(marker.getPosition().z(), 0.15);
  // The marker stays at the weighted sum of its element's nodes.
  Vector3d p = Vector3d::Zero();
  const auto& a = *marker.getAttachment();
  for (size_t k = 0; k < a.getNodes().size(); ++k) p += a.getWeights()[k] * a.getNodes()[k]->getPosition();
  EXPECT_LT((p - marker.getPosition()).norm(), 1e-12);
}

}  // namespace
}  // namespace sinew
