// A pile of boxes dropped onto a plate (bench/Scenes.h makeBoxes, the pile
// of the contact benchmarks): contact and friction only take energy.
#include <gtest/gtest.h>

#include <cmath>

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
  // potential is in the total, so no step may raise it (beyond round-off):
  // contacts push only as far as they must, friction only dissipates, and
  // no box is ever faster than a fall from the top layer's height lets it
  // be. The exact friction pass once met nearly singular responses among
  // redundant face-on-face contacts here and multiplied the kinetic energy
  // by 10⁶ in one step (KKTSolver now checks every friction pass's energy
  // and falls back to Gauss–Seidel, ContactLCP).
  auto root = bench::makeBoxes(27, true);
  MechModel& mech = mechOf(*root);
  const double E0 = root->getEnergy();
  double E = E0, largestRise = 0, fastest = 0;
  root->addMonitor("energy", [&](double, double) {
    const double E1 = root->getEnergy();
    largestRise = std::max(largestRise, E1 - E);
    E = E1;
    for (int i = 0; i < mech.rigidBodies().size(); ++i)
      fastest = std::max(fastest, mech.rigidBodies().get(i).getVelocity().head<3>().norm());
  });
  root->run(1.5);
  VERIFY_BELOW("27-box pile: largest energy rise in one step / E0", "0 (contact and friction are dissipative)",
               largestRise / E0, 1e-9);
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
  // top layer. (The default budget's steps gain nothing: the test above.)
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
