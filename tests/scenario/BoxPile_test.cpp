// A pile of boxes dropped onto a plate (bench/Scenes.h makeBoxes, the pile
// of the contact benchmarks): contact and friction only take energy.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "DemoRuns.h"
#include "Verification.h"
#include "bench/Scenes.h"
#include "sinew/Error.h"
#include "sinew/solver/KKTSolver.h"

namespace sinew {
namespace {

using test::mechOf;

TEST(BoxPile, TwentySevenBoxesTumbleIntoAPileWithoutGainingEnergy) {
  // Three layers of unit boxes land edge first on each other. Gravity's
  // potential is in the total: contacts and friction take energy, and the
  // pile ends with less. Two things may give a trace back in one step:
  // position stabilization lifts what sank beyond the penetration
  // tolerance within the step (a box's corner moves 3 mm a step here),
  // and the pile's budgeted solve (contactSweeps) may stop at impulses
  // that keep a little more energy than the exact ones. Over 24 starts
  // with box 0 moved by 0 to 23 mm the largest rise in a step was 2.5e-5
  // of E0 (four starts rose by more than 1e-9, the bound this test held
  // until 2026-11-27, which this start met by luck). What the test guards
  // against is orders above that: nearly singular responses in the exact
  // friction pass once multiplied the kinetic energy by 10⁶ in one step
  // (KKTSolver now checks every friction pass's energy and falls back to
  // Gauss–Seidel, ContactLCP). Apart from stabilization's lift a step's
  // rise was at most 7.5e-8 of E0 over those starts (and 24 more with the
  // held rows' coupling formed island by island): bounded at 1e-6. And
  // stabilization lifts the pile by no more than its weight times the
  // distance its boxes' points moved in the step (|v| + |ω|·√3/2 for a
  // unit box, times h; at most 0.44 of it in those starts).
  auto root = bench::makeBoxes(27, true);
  MechModel& mech = mechOf(*root);
  const int n = mech.rigidBodies().size();
  const double E0 = root->getEnergy(), g = 9.8;
  double E = E0, largestRise = 0, largestSolveRise = 0, fastest = 0, largestExcess = -1;
  std::vector<double> z(n);
  for (int i = 0; i < n; ++i) z[i] = mech.rigidBodies().get(i).getPosition().z();
  root->addMonitor("energy", [&](double t0, double t1) {
    const double E1 = root->getEnergy(), h = t1 - t0, rise = E1 - E;
    largestRise = std::max(largestRise, rise);
    E = E1;
    // Stabilization moves positions alone: the lift is what the bodies
    // rose beyond h times their final velocity, against their reach.
    double lift = 0, reach = 0;
    for (int i = 0; i < n; ++i) {
      const RigidBody& b = mech.rigidBodies().get(i);
      const Twist& v = b.getVelocity();
      lift += b.getMass() * g * (b.getPosition().z() - z[i] - h * v[2]);
      reach += b.getMass() * g * h * (v.head<3>().norm() + v.tail<3>().norm() * std::sqrt(3.0) / 2);
      z[i] = b.getPosition().z();
      fastest = std::max(fastest, v.head<3>().norm());
    }
    largestSolveRise = std::max(largestSolveRise, rise - lift);
    largestExcess = std::max(largestExcess, (lift - reach) / E0);
  });
  root->run(1.5);
  VERIFY_BELOW("27-box pile: largest energy rise in one step / E0",
               "0, up to stabilization's lift of what sank in the step (≤ 2.5e-5 over 24 starts)", largestRise / E0,
               1e-4);
  EXPECT_LE(largestSolveRise / E0, 1e-6) << "a step's solve gained energy beyond stabilization's lift";
  EXPECT_LE(largestExcess, 1e-12) << "stabilization lifted the pile further than its boxes moved in the step";
  EXPECT_LT(E, E0);
  // The top layer starts at z = 4 (centres), the plate's top at 0.
  EXPECT_LT(fastest, std::sqrt(2 * 9.8 * 4.0));
  EXPECT_GT(mech.getCollisionManager().getContacts().size(), 27u) << "the boxes lie on each other";
}

TEST(BoxPile, ContactSweepsBoundEachStepOfThePilesContactSolve) {
  // The pile's contact solve (ContactLCP, warm started) takes at most
  // contactSweeps sweeps a step (its fallbacks, counted apart, run to their
  // tolerance). With a budget of 3 the contacts are far from converged, yet
  // the pile still loses energy overall and no box outruns a fall from the
  // top layer. (Under the default budget a step gains at most a trace
  // beyond stabilization's lift: the test above.)
  auto root = bench::makeBoxes(27, true);
  MechModel& mech = mechOf(*root);
  EXPECT_EQ(mech.getContactSweeps(), 100);
  EXPECT_THROW(mech.setContactSweeps(0), ModelError);
  EXPECT_THROW(mech.getProperty("contactSweeps").set(100001), Error);
  mech.getProperty("contactSweeps").set(3);
  const double E0 = root->getEnergy();
  const KKTSolver& kkt = mech.solver().kktSolver();
  long fallbacks = 0;
  int pileSteps = 0, mostSweeps = 0;
  double fastest = 0;
  root->addMonitor("sweeps", [&](double, double) {
    for (int i = 0; i < mech.rigidBodies().size(); ++i)
      fastest = std::max(fastest, mech.rigidBodies().get(i).getVelocity().head<3>().norm());
    const long f = kkt.lcpFallbacks() + kkt.frictionFallbacks();
    const bool fellBack = f != fallbacks;
    fallbacks = f;
    if (kkt.backendName() != "ContactLCP" || fellBack) return;
    ++pileSteps;
    mostSweeps = std::max(mostSweeps, kkt.contactSolver().lastSweeps());
  });
  root->run(1.5);
  EXPECT_GT(pileSteps, 100);
  EXPECT_LE(mostSweeps, 3);
  EXPECT_LT(root->getEnergy(), E0);
  EXPECT_LT(fastest, std::sqrt(2 * 9.8 * 4.0));
}

}  // namespace
}  // namespace sinew
