// The seed 004 scenes under the Impulse integrator over 10 s (scenario
// label: slow): joint errors after every step and the energy bound.
#include <gtest/gtest.h>

#include <cmath>

#include "DemoRuns.h"
#include "bench/Scenes.h"
#include "demos/Demos.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

using namespace test;  // demoUnder, mechOf, maxJointError, runTracked

TEST(ImpulseDemos, TriplePendulumKeepsItsJointsAndEnergy) {
  auto root = demoUnder("TriplePendulum", "Impulse");
  const Tracked r = runTracked(*root, 10.0);
  // Each step ends where the look-ahead was corrected to positionTol.
  EXPECT_LT(r.maxError, 1e-8);
  // The seed's method is first order and dissipative (velocity correction
  // removes the chord velocity's normal part at each step's end): within
  // 3 % of the chain's m g L = 3 · 9.8 · 1 J over 10 s at h = 1 ms.
  EXPECT_LT(r.energyDrift, 0.03 * 3 * 9.8) << "energy within 3 % of m g L over 10 s";
  const ImpulseReport& rep = mechOf(*root).getImpulseReport();
  EXPECT_FALSE(rep.interrupted);
  EXPECT_GT(rep.corrections, 0);
  EXPECT_LE(rep.lookAheadError, 1e-9);
}

TEST(ImpulseDemos, EightLinkLoopStaysClosed) {
  auto root = demoUnder("EightLinkLoop", "Impulse");
  const Tracked r = runTracked(*root, 10.0);
  EXPECT_LT(r.maxError, 1e-8);
  EXPECT_LT(r.energyDrift, 0.03 * 8 * 9.8) << "energy within 3 % of m g L over 10 s";
}

TEST(ImpulseDemos, WhippingChainKeepsItsEnergyWhenTheSweepsRunOut) {
  // Ten links released horizontal (the benchmark chain): as the free end
  // whips through a nearly straight chain, Gauss–Seidel sweeps stop
  // converging within the 200-sweep budget. Accepting their residual fed
  // energy in (+330 J of the chain's N m g L = 98 J by 1 s, then
  // divergence); the step now ends with the direct projection, and the
  // chain keeps its joints and loses energy only, as under the MLCP
  // (0.24 J in 1 s).
  auto root = bench::makeHingeChain(10);
  mechOf(*root).setIntegrator(Integrator::Impulse);
  const Tracked r = runTracked(*root, 1.0);
  EXPECT_LT(r.maxError, 1e-8);
  EXPECT_LT(root->getEnergy(), r.E0) << "no energy gained";
  EXPECT_LT(r.energyDrift, 0.01 * 10 * 9.8) << "within 1 % of N m g L";
}

}  // namespace
}  // namespace sinew
