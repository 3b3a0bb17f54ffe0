// State save/restore (DESIGN §1 "State"): save the state, step, restore it,
// step again over the very same times, and the results are bit-identical.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "DemoRuns.h"
#include "demos/Demos.h"
#include "sinew/Error.h"
#include "sinew/contact/CollisionManager.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

/// True if a and b have the same size and the same bits in every element.
::testing::AssertionResult bitIdentical(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "sizes differ: " << a.size() << " vs " << b.size();
  if (a.size() > 0 && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) != 0) {
    for (Eigen::Index i = 0; i < a.size(); ++i)
      if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0)
        return ::testing::AssertionFailure()
               << "element " << i << " differs: " << a[i] << " vs " << b[i] << " (diff " << a[i] - b[i] << ")";
  }
  return ::testing::AssertionSuccess();
}

bool allFinite(const Eigen::VectorXd& v) { return v.allFinite(); }

/// Advances root over steps [times[k], times[k+1]] and returns the full state
/// after every step.
std::vector<Eigen::VectorXd> advanceOver(RootModel& root, const std::vector<double>& times) {
  std::vector<Eigen::VectorXd> states;
  for (size_t k = 0; k + 1 < times.size(); ++k) {
    root.advance(times[k], times[k + 1]);
    states.emplace_back();
    root.getState(states.back());
  }
  return states;
}

/// Step times t0, t0 + h, ..., computed once so both passes use identical values.
std::vector<double> stepTimes(double t0, double h, int n) {
  std::vector<double> t;
  for (int k = 0; k <= n; ++k) t.push_back(t0 + k * h);
  return t;
}

/// Initializes, runs `warmup` seconds, saves the state, advances `n` steps,
/// restores, advances the same steps again and checks every intermediate
/// state is bit-identical to the first pass.
void checkSaveRestore(RootModel& root, double warmup, int n) {
  root.initialize(0);
  root.run(warmup);
  const double h = root.getMaxStepSize();
  const std::vector<double> times = stepTimes(root.getTime(), h, n);

  Eigen::VectorXd saved;
  root.getState(saved);
  ASSERT_GT(saved.size(), 1) << "the model has no state";
  ASSERT_TRUE(allFinite(saved));

  std::vector<Eigen::VectorXd> first = advanceOver(root, times);
  ASSERT_EQ(first.size(), static_cast<size_t>(n));
  // The test is only meaningful if the model actually moved.
  ASSERT_FALSE(bitIdentical(first.back(), saved)) << "the state did not change over the steps";
  EXPECT_EQ(first.back()[0], times.back()) << "the state records the time";

  root.setState(saved);
  Eigen::VectorXd restored;
  root.getState(restored);
  ASSERT_TRUE(bitIdentical(restored, saved)) << "getState after setState differs from the saved state";
  EXPECT_EQ(root.getTime(), times.front());

  std::vector<Eigen::VectorXd> second = advanceOver(root, times);
  ASSERT_EQ(second.size(), first.size());
  for (size_t k = 0; k < first.size(); ++k) {
    ASSERT_TRUE(allFinite(first[k])) << "step " << k;
    ASSERT_TRUE(bitIdentical(second[k], first[k])) << "after step " << k + 1 << " of " << n;
  }
}

using test::mechOf;

// ------------------------------------------------------------------ demos

class StateRestoreDemo : public ::testing::TestWithParam<std::string> {};

TEST_P(StateRestoreDemo, SaveStepRestoreStepIsBitIdentical) {
  auto root = demos::createDemo(GetParam());
  checkSaveRestore(*root, /*warmup=*/0.1, /*n=*/25);
}

INSTANTIATE_TEST_SUITE_P(Demos, StateRestoreDemo,
                         ::testing::Values("RigidBodySpring", "ParticleAttachment", "FrameBodyAttachment",
                                           "NetDemo", "SimpleMuscleWithProbes", "SimpleMuscleWithController",
                                           "RigidCompositeBody", "ParticleSpring"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// -------------------------------------------------------------- integrators

class StateRestoreIntegrator : public ::testing::TestWithParam<std::string> {};

TEST_P(StateRestoreIntegrator, RigidBodySpringBitIdentical) {
  auto root = demos::createDemo("RigidBodySpring");
  MechModel& mech = mechOf(*root);
  mech.getProperty("integrator").set(GetParam());
  ASSERT_EQ(std::get<std::string>(mech.getProperty("integrator").get()), GetParam());
  checkSaveRestore(*root, /*warmup=*/0.05, /*n=*/30);
}

INSTANTIATE_TEST_SUITE_P(Integrators, StateRestoreIntegrator,
                         ::testing::Values("ForwardEuler", "SymplecticEuler", "RungeKutta4",
                                           "ConstrainedBackwardEuler", "Trapezoidal"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// ----------------------------------------------------------- other checks

// Restoring a state saved mid-run and running on reproduces the run's end
// state bit for bit, also through root.run() (not only advance()).
TEST(StateRestore, RunFromRestoredStateReproducesRun) {
  auto root = demos::createDemo("SimpleMuscleWithProbes");
  root->initialize(0);
  root->run(0.5);
  Eigen::VectorXd saved;
  root->getState(saved);
  root->run(1.5);
  Eigen::VectorXd end1;
  root->getState(end1);

  root->setState(saved);
  ASSERT_EQ(root->getTime(), 0.5);
  root->run(1.5);
  Eigen::VectorXd end2;
  root->getState(end2);
  EXPECT_TRUE(bitIdentical(end2, end1));
}

// The same restored state can be stepped many times, always giving the same result.
TEST(StateRestore, RepeatedRestoreGivesSameResult) {
  auto root = demos::createDemo("NetDemo");
  root->initialize(0);
  root->run(0.05);
  Eigen::VectorXd saved;
  root->getState(saved);
  const double t0 = root->getTime(), h = root->getMaxStepSize();
  Eigen::VectorXd ref;
  for (int rep = 0; rep < 3; ++rep) {
    root->setState(saved);
    root->advance(t0, t0 + h);
    Eigen::VectorXd s;
    root->getState(s);
    if (rep == 0)
      ref = s;
    else
      EXPECT_TRUE(bitIdentical(s, ref)) << "repetition " << rep;
  }
}

// A state of the wrong size is refused with a ModelError naming the model.
TEST(StateRestore, WrongSizeStateIsRejected) {
  auto root = demos::createDemo("RigidBodySpring");
  root->initialize(0);
  MechModel& mech = mechOf(*root);
  Eigen::VectorXd s;
  mech.getState(s);
  Eigen::VectorXd bad = Eigen::VectorXd::Zero(s.size() + 1);
  try {
    mech.setState(bad);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/models/mech");
  }
}

// The collision manager's part (the last contact forces) varies in size:
// its count is read back from the state, and a count that is not a whole
// number or runs past the state's end is refused before anything is set.
TEST(StateRestore, AContactPartOfTheWrongSizeIsRejected) {
  auto root = demos::createDemo("BallPlateCollide");
  root->initialize(0);
  root->run(0.5);  // the ball rests on the plate
  MechModel& mech = mechOf(*root);
  Eigen::VectorXd s, q0, after;
  mech.getState(s);
  const int contacts = static_cast<int>(mech.getCollisionManager().getContacts().size());
  ASSERT_GT(contacts, 0);
  // The manager's part is the last: the warm contacts' count and values,
  // then the count of pulled contacts (none here).
  ASSERT_EQ(s[s.size() - 1], 0);
  const Eigen::Index count = s.size() - 2 - 13 * contacts;  // vertex, forces, position, normal
  ASSERT_EQ(s[count], contacts);
  mech.setState(s);  // as saved: accepted
  for (double bad : {contacts + 1.0, contacts - 0.5, -1.0, 1e9}) {
    Eigen::VectorXd t = s;
    t[count] = bad;
    t.head(3).setConstant(123.0);  // would move the first component if it were set
    EXPECT_THROW(mech.setState(t), ModelError) << bad;
    mech.getState(after);
    EXPECT_EQ(after.head(3), s.head(3)) << "nothing is set from a refused state";
  }
}

}  // namespace
}  // namespace sinew
