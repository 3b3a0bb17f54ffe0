// Determinism (issue: verification report): the benchmark scenes — a hinge
// chain, a pile of boxes in contact, a tall stack solved by Gauss–Seidel
// from the last step's contact forces, and an FEM beam, plain and hard-
// incompressible (MUMPS) — run twice, and with
// one and with two TBB threads (FEM elements are evaluated in parallel),
// end in bit-identical states; restoring a state saved mid-run and running
// on reproduces the run's end bit for bit. The scenes are bench/Scenes.h's,
// the ones the benchmarks time.
#include <gtest/gtest.h>
#include <tbb/global_control.h>

#include <cstring>
#include <functional>

#include "bench/Scenes.h"

namespace sinew {
namespace {

struct Scene {
  std::string name;
  std::function<std::unique_ptr<RootModel>()> make;
  double duration;
};

std::unique_ptr<RootModel> articulated(std::unique_ptr<RootModel> root) {
  static_cast<MechModel&>(root->models().get(0)).setIntegrator(Integrator::Articulated);
  return root;
}

std::vector<Scene> scenes() {
  return {
      {"hingeChain10", [] { return bench::makeHingeChain(10); }, 0.5},
      // reduced coordinates, and a loop cut and held by impulses
      {"hingeChain10Articulated", [] { return articulated(bench::makeHingeChain(10)); }, 0.5},
      {"hingeLoop8Articulated", [] { return articulated(bench::makeHingeLoop(8)); }, 0.5},
      {"boxPile10", [] { return bench::makeBoxes(10, true); }, 1.0},  // they land at 0.45 s and tumble
      // 240 friction rows: ContactLCP, started from the last step's contact
      // forces, which the state carries (the cubes' watched corners, the
      // plane's contacts, and a contour region's points by their position)
      {"boxStack30", [] { return bench::makeBoxes(30, false); }, 0.04},
      {"femHexBeam", [] {
         FemModel3d* fem;
         auto root = bench::makeFemBeam(false, 256, fem);
         root->setMaxStepSize(0.01);
         root->initialize(0);
         return root;
       }, 0.3},
      // hard incompressibility: its KKT matrices go to MUMPS's LDLᵀ with
      // pivoting, S's to CHOLMOD with OpenMP held serial
      {"femHexBeamIncompressible", [] {
         FemModel3d* fem;
         auto root = bench::makeFemBeam(false, 256, fem, IncompMethod::ELEMENT);
         root->setMaxStepSize(0.01);
         root->initialize(0);
         return root;
       }, 0.2},
  };
}

Eigen::VectorXd finalState(const Scene& s, int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  auto root = s.make();
  root->run(s.duration);
  Eigen::VectorXd state;
  root->getState(state);
  return state;
}

/// Index of the first element whose bits differ, or −1 if none (and the
/// sizes agree).
Eigen::Index firstDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size()) return 0;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return i;
  return -1;
}

TEST(Determinism, ScenesRepeatBitForBitWithOneOrTwoThreads) {
  for (const Scene& s : scenes()) {
    const Eigen::VectorXd one = finalState(s, 1), again = finalState(s, 1), two = finalState(s, 2);
    ASSERT_GT(one.size(), 1) << s.name;
    EXPECT_TRUE(one.allFinite()) << s.name;
    EXPECT_EQ(firstDifference(one, again), -1) << s.name << ": a second run differs";
    EXPECT_EQ(firstDifference(one, two), -1) << s.name << ": two threads differ from one";
  }
}

TEST(Determinism, RestoredStateContinuesBitForBit) {
  for (const Scene& s : scenes()) {
    auto root = s.make();
    root->run(s.duration / 2);
    Eigen::VectorXd saved, end1, end2;
    root->getState(saved);
    root->run(s.duration);
    root->getState(end1);
    ASSERT_NE(firstDifference(saved, end1), -1) << s.name << ": the state did not change";
    root->setState(saved);
    root->run(s.duration);
    root->getState(end2);
    EXPECT_EQ(firstDifference(end1, end2), -1) << s.name;
  }
}

}  // namespace
}  // namespace sinew
