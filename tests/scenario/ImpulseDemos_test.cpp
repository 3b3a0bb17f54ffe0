// The seed 004 scenes under the Impulse integrator over 10 s (scenario
// label: slow): joint errors after every step and the energy bound.
#include <gtest/gtest.h>

#include <cmath>

#include "DemoRuns.h"
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

}  // namespace
}  // namespace sinew
