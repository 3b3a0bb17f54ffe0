// Bad input raises the specific typed exception that says where the problem
// is (sinew/Error.h, DESIGN §4 "Errors"): ModelError names the component
// path, ParseError the file and line, SolverError the time and component.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <unistd.h>

#include "TestModels.h"
#include "demos/Demos.h"
#include "sinew/Error.h"
#include "sinew/control/NumericProbes.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

namespace fs = std::filesystem;
using test::TestRoot;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

/// A fresh temporary directory, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    myPath = fs::temp_directory_path() /
             ("sinew-badinput-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" + info->name());
    fs::remove_all(myPath);
    fs::create_directories(myPath);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(myPath, ec);
  }
  std::string file(const std::string& name, const std::string& contents) const {
    std::string p = (myPath / name).string();
    std::ofstream(p) << contents;
    return p;
  }

 private:
  fs::path myPath;
};

bool bitIdentical(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0);
}

// ------------------------------------------------------------ mass, NaN

TEST(BadInput, NegativeParticleMassNamesTheParticle) {
  TestRoot tr;
  try {
    tr.mech.addParticle("heavy", -1, 0, 0, 0);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_TRUE(contains(e.path(), "heavy") || contains(e.what(), "heavy"))
        << "path '" << e.path() << "', message '" << e.what() << "'";
  }
}

TEST(BadInput, NegativeMassOnParticleInModelNamesItsPath) {
  TestRoot tr;
  Particle& p = tr.mech.addParticle("p1", 1, 0, 0, 0);
  try {
    p.setMass(-2);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/models/mech/particles/p1");
    EXPECT_TRUE(contains(e.what(), "mass")) << e.what();
  }
  EXPECT_EQ(p.getMass(), 1) << "a rejected mass leaves the old one";
}

TEST(BadInput, NaNParticleMassIsRejected) {
  TestRoot tr;
  Particle& p = tr.mech.addParticle("p1", 1, 0, 0, 0);
  EXPECT_THROW(p.setMass(kNaN), ModelError);
  EXPECT_THROW(p.setMass(std::numeric_limits<double>::infinity()), ModelError);
  EXPECT_EQ(p.getMass(), 1);
}

TEST(BadInput, NaNMassThroughPropertyIsRejected) {
  TestRoot tr;
  Particle& p = tr.mech.addParticle("p1", 1, 0, 0, 0);
  try {
    p.getProperty("mass").set(kNaN);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_TRUE(contains(e.path(), "/models/mech/particles/p1")) << e.path();
  }
  // Also through a path from the model.
  EXPECT_THROW(tr.mech.getPropertyByPath("particles/p1:mass").set(kNaN), ModelError);
  EXPECT_THROW(tr.mech.getPropertyByPath("particles/p1:mass").set(-1.0), ModelError);
  EXPECT_EQ(p.getMass(), 1);
}

TEST(BadInput, RigidBodyNegativeDensityAndMass) {
  TestRoot tr;
  RigidBody& box = tr.mech.addRigidBody(RigidBody::createBox("box", 1, 1, 1, 2));
  const double m0 = box.getMass();
  try {
    box.setDensity(-1);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/models/mech/rigidBodies/box");
    EXPECT_TRUE(contains(e.what(), "density")) << e.what();
  }
  EXPECT_THROW(box.setDensity(kNaN), ModelError);
  try {
    box.setInertia(-1, 1, 1, 1);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/models/mech/rigidBodies/box");
    EXPECT_TRUE(contains(e.what(), "mass")) << e.what();
  }
  EXPECT_THROW(box.setInertia(1, kNaN, 1, 1), ModelError);
  EXPECT_THROW(box.setInertia(1, -1, 1, 1), ModelError);
  EXPECT_THROW(box.setMass(-3), ModelError);
  EXPECT_DOUBLE_EQ(box.getMass(), m0) << "rejected values leave the inertia unchanged";
}

TEST(BadInput, NaNParametersAreRejected) {
  TestRoot tr;
  Particle& p1 = tr.mech.addParticle("p1", 1, 0, 0, 0);
  Particle& p2 = tr.mech.addParticle("p2", 1, 1, 0, 0);
  auto& spr = tr.mech.attachAxialSpring(p1, p2, std::make_unique<AxialSpring>("spr", 10, 1, 0.5));
  EXPECT_THROW(p1.setPosition(kNaN, 0, 0), ModelError);
  EXPECT_THROW(p1.setVelocity(Vector3d(0, kNaN, 0)), ModelError);
  EXPECT_THROW(tr.mech.setGravity(0, 0, kNaN), ModelError);
  EXPECT_THROW(spr.setRestLength(kNaN), ModelError);
  EXPECT_THROW(spr.setRestLength(-1), ModelError);
  EXPECT_THROW(spr.getProperty("material.stiffness").set(kNaN), ModelError);
  EXPECT_THROW(tr.mech.getPropertyByPath("particles/p2:position").set(Eigen::VectorXd(Vector3d(0, kNaN, 0))),
               ModelError);
  EXPECT_THROW(tr.root->setMaxStepSize(kNaN), ModelError);
  // Nothing was changed by the rejected values.
  EXPECT_EQ(p1.getPosition(), Vector3d(0, 0, 0));
  EXPECT_EQ(p2.getPosition(), Vector3d(1, 0, 0));
  EXPECT_EQ(spr.getRestLength(), 0.5);
  EXPECT_TRUE(tr.mech.getGravity().allFinite());
}

// ------------------------------------------------------------ paths

TEST(BadInput, UnknownComponentPathIsNamed) {
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  try {
    tr.mech.getPropertyByPath("particles/nope:position");
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_TRUE(contains(e.what(), "particles/nope")) << e.what();
  }
}

TEST(BadInput, UnknownPropertyNameIsNamed) {
  TestRoot tr;
  Particle& p = tr.mech.addParticle("p1", 1, 0, 0, 0);
  try {
    tr.mech.getPropertyByPath("particles/p1:nope");
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_TRUE(contains(e.what(), "nope")) << e.what();
    EXPECT_EQ(e.path(), "/models/mech/particles/p1");
  }
  EXPECT_THROW(p.getProperty("nope"), ModelError);
  EXPECT_THROW(p.getProperty("position.x"), ModelError);  // not a composite
}

TEST(BadInput, ProbeOnUnknownPathIsRejected) {
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  try {
    NumericOutputProbe probe(tr.mech, "particles/nope:position");
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_TRUE(contains(e.what(), "particles/nope")) << e.what();
  }
  EXPECT_THROW(NumericOutputProbe(tr.mech, "particles/p1:nope"), ModelError);
  EXPECT_THROW(NumericInputProbe(tr.mech, "particles/p1:name", 0.0, 1.0), ModelError);  // not numeric
}

// ------------------------------------------------------------ probe files

TEST(BadInput, MalformedProbeFileNamesFileAndLine) {
  TempDir dir;
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  const std::string path = dir.file("bad.txt",
                                    "0.0 2.0 1.0\n"
                                    "Linear 3 explicit\n"
                                    "0.0 0 0 0\n"
                                    "1.0 1 2\n"  // line 4: one value missing
                                    "2.0 0 0 0\n");
  try {
    NumericInputProbe probe(tr.mech, "particles/p1:targetPosition", path);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 4);
    EXPECT_TRUE(contains(e.what(), path + ":4")) << e.what();
  }
}

TEST(BadInput, MalformedProbeValueNamesItsLine) {
  TempDir dir;
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  const std::string path = dir.file("bad.txt",
                                    "# a comment line\n"
                                    "0.0 2.0 1.0\n"
                                    "Linear 3 1.0\n"
                                    "0 0 0\n"
                                    "\n"
                                    "1 abc 0\n");  // line 6: not a number
  try {
    NumericInputProbe probe(tr.mech, "particles/p1:targetPosition", path);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 6);
  }
}

TEST(BadInput, ProbeFileVsizeMismatchNamesLine2) {
  TempDir dir;
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  const std::string path = dir.file("two.txt",
                                    "0.0 1.0 1.0\n"
                                    "Linear 2 explicit\n"
                                    "0.0 1 2\n"
                                    "1.0 3 4\n");
  try {
    NumericInputProbe probe(tr.mech, "particles/p1:targetPosition", path);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 2);
  }
}

TEST(BadInput, MissingProbeFileIsAnError) {
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  EXPECT_THROW(NumericInputProbe(tr.mech, "particles/p1:targetPosition", "/nonexistent/dir/none.txt"), Error);
}

// ------------------------------------------------------------ springs

/// Two particles at the same place joined by a spring of rest length l0;
/// p0 fixed, p1 free.
struct CoincidentSpring {
  TestRoot tr{Vector3d(0, 0, -9.8)};
  Particle& p0 = tr.mech.addParticle("p0", 1, 0.5, 0.25, 1);
  Particle& p1 = tr.mech.addParticle("p1", 1, 0.5, 0.25, 1);
  AxialSpring* spr = nullptr;
  explicit CoincidentSpring(double l0) {
    p0.setDynamic(false);
    spr = &tr.mech.attachAxialSpring(p0, p1, std::make_unique<AxialSpring>("spr", 20, 1, l0));
  }
};

/// A constrainer with no rows that fails the step (a SolverError) when it is
/// asked about a configuration in which `body` has fallen below `zMin`:
/// that happens only after the step has moved the bodies.
struct FailsBelow : Component, Constrainer {
  FailsBelow(const Particle& b, double z) : Component("failsBelow"), body(&b), zMin(z) {}
  void getBilateralConstraints(ConstraintBuilder&) override { check(); }
  bool getRowErrors(double*, int) override {
    check();
    return true;
  }
  double getMaxHardError() override {
    check();
    return 0;
  }
  void check() const {
    if (body->getPosition().z() < zMin) throw SolverError(0, getPathName(), "failed after the move");
  }
  const Particle* body;
  double zMin;
};

TEST(BadInput, SolveFailingAfterTheBodiesMovedLeavesTheStateAtT0) {
  // A falling particle; the constrainer's check fails once the particle is
  // below -1 mm, which a step finds only after it has moved it.
  TestRoot tr(Vector3d(0, 0, -9.8));
  auto& p = tr.mech.addParticle("p", 1.0, 0, 0, 0);
  tr.mech.addParticleConstraint(std::make_unique<FailsBelow>(p, -1e-3));
  RootModel& root = *tr.root;
  root.setMaxStepSize(1e-3);
  root.initialize(0);
  double z0 = 0;
  try {
    for (int k = 0; k < 100; ++k) {
      z0 = p.getPosition().z();
      root.advance(k * 1e-3, (k + 1) * 1e-3);
    }
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    EXPECT_EQ(e.path(), "/models/mech/particleConstraints/failsBelow");
  }
  EXPECT_EQ(p.getPosition().z(), z0);
  EXPECT_GE(p.getPosition().z(), -1e-3);
}

class ZeroLengthSpring : public ::testing::TestWithParam<std::string> {};

TEST_P(ZeroLengthSpring, NonzeroRestLengthFailsTheStepAndKeepsTheState) {
  CoincidentSpring m(/*l0=*/0.3);
  m.tr.mech.getProperty("integrator").set(GetParam());
  RootModel& root = *m.tr.root;
  root.setMaxStepSize(0.01);
  root.initialize(0);
  Eigen::VectorXd before;
  root.getState(before);
  try {
    root.advance(0, 0.01);
    FAIL() << "expected SolverError";
  } catch (const SolverError& e) {
    EXPECT_EQ(e.path(), "/models/mech/axialSprings/spr");
    EXPECT_TRUE(contains(e.what(), "zero length")) << e.what();
    // The path is named once: "t=…  /models/…/spr: … zero length …".
    const std::string what = e.what();
    EXPECT_EQ(what.find(e.path()), what.rfind(e.path())) << what;
    EXPECT_GE(e.time(), 0.0);
    EXPECT_LE(e.time(), 0.01);
  }
  Eigen::VectorXd after;
  root.getState(after);
  EXPECT_TRUE(after.allFinite());
  EXPECT_TRUE(bitIdentical(after, before)) << "the state after the failed step is the state before it";
  EXPECT_EQ(root.getTime(), 0.0);
  EXPECT_EQ(m.p1.getPosition(), Vector3d(0.5, 0.25, 1));
  EXPECT_EQ(m.p1.getVelocity(), Vector3d::Zero());
}

INSTANTIATE_TEST_SUITE_P(Integrators, ZeroLengthSpring,
                         ::testing::Values("ForwardEuler", "SymplecticEuler", "RungeKutta4",
                                           "ConstrainedBackwardEuler", "Trapezoidal"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// A zero-rest-length spring at rest with coincident points has zero tension:
// that is a valid state, and the model steps from it.
TEST(BadInput, ZeroRestLengthSpringAtZeroLengthSteps) {
  CoincidentSpring m(/*l0=*/0);
  RootModel& root = *m.tr.root;
  root.setMaxStepSize(0.01);
  root.initialize(0);
  ASSERT_NO_THROW(root.run(0.5));
  EXPECT_TRUE(m.p1.getPosition().allFinite());
  EXPECT_LT(m.p1.getPosition().z(), 1.0) << "p1 falls under gravity";
}

TEST(BadInput, SpringWithoutPointsFailsAtInitialize) {
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  tr.mech.addAxialSpring(std::make_unique<AxialSpring>("lonely", 10, 0, 0));
  try {
    tr.root->initialize(0);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/models/mech/axialSprings/lonely");
  }
}

TEST(BadInput, SpringWithoutPointsFailsAtFirstAdvance) {
  TestRoot tr;
  tr.mech.addParticle("p1", 1, 0, 0, 0);
  tr.root->initialize(0);
  tr.mech.addAxialSpring(std::make_unique<AxialSpring>("lonely", 10, 0, 0));
  try {
    tr.root->advance(0, 0.01);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.path(), "/models/mech/axialSprings/lonely");
  }
}

TEST(BadInput, SpringOnOnePointTwiceIsRejected) {
  TestRoot tr;
  Particle& p = tr.mech.addParticle("p1", 1, 0, 0, 0);
  AxialSpring spr("s", 10, 0, 0);
  EXPECT_THROW(spr.setPoints(p, p), ModelError);
}

// ------------------------------------------------------------ divergence

TEST(BadInput, DivergingExplicitStepIsReportedWithTimeAndComponent) {
  auto root = demos::createDemo("ParticleSpring");
  auto* mech = root->findComponent<MechModel>("models/mech");
  ASSERT_NE(mech, nullptr);
  mech->getProperty("integrator").set(std::string("ForwardEuler"));
  root->setMaxStepSize(1.0);
  root->initialize(0);
  const int maxSteps = 100000;
  Eigen::VectorXd lastGood;
  bool threw = false;
  for (int k = 0; k < maxSteps && !threw; ++k) {
    root->getState(lastGood);
    try {
      root->advance(k * 1.0, (k + 1) * 1.0);
    } catch (const SolverError& e) {
      threw = true;
      EXPECT_GT(e.time(), 0.0);
      EXPECT_DOUBLE_EQ(e.time(), (k + 1) * 1.0) << "the time of the failed step";
      EXPECT_FALSE(e.path().empty());
      EXPECT_EQ(e.path(), "/models/mech/particles/p2") << "p2 is the only dynamic component";
      EXPECT_TRUE(contains(e.what(), "t=")) << e.what();
      EXPECT_TRUE(contains(e.what(), e.path())) << e.what();
      EXPECT_GT(k, 0) << "the first steps are finite";
    }
  }
  ASSERT_TRUE(threw) << "forward Euler with h = 1 s did not diverge";
  for (auto& p : mech->particles()) {
    EXPECT_TRUE(p.getPosition().allFinite()) << p.getPathName();
    EXPECT_TRUE(p.getVelocity().allFinite()) << p.getPathName();
  }
  Eigen::VectorXd after;
  root->getState(after);
  EXPECT_TRUE(after.allFinite());
  EXPECT_TRUE(bitIdentical(after, lastGood)) << "the model is left at the start of the failed step";
}

}  // namespace
}  // namespace sinew
