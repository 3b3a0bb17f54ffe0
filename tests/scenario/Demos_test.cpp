// Whole demos: every registered model builds and runs, and several of them
// show the physical facts the guide describes for them.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "DemoRuns.h"
#include "demos/Demos.h"
#include "sinew/Error.h"
#include "sinew/control/NumericProbes.h"
#include "sinew/fem/FemFactory.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

std::vector<std::string> registeredDemos() {
  demos::registerDemos();
  std::vector<std::string> names;
  for (auto& [name, entry] : ModelRegistry::instance().entries()) names.push_back(name);
  return names;
}

using test::mechOf;

template <class T>
T& find(RootModel& root, const std::string& path) {
  auto* c = root.findComponent<T>(path);
  if (!c) throw ModelError("no component '" + path + "'");
  return *c;
}

::testing::AssertionResult near(const Vector3d& a, const Vector3d& b, double tol) {
  if ((a - b).cwiseAbs().maxCoeff() <= tol) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "(" << a.transpose() << ") vs (" << b.transpose() << "), max diff "
                                       << (a - b).cwiseAbs().maxCoeff() << " > " << tol;
}

// ------------------------------------------------------------ every demo

TEST(Demos, TheGuideDemosAreRegistered) {
  std::vector<std::string> names = registeredDemos();
  std::set<std::string> have(names.begin(), names.end());
  for (const char* n : {"ParticleSpring", "RigidBodySpring", "RigidCompositeBody", "ParticleAttachment",
                        "FrameBodyAttachment", "NetDemo", "SimpleMuscle", "SimpleMuscleWithController",
                        "SimpleMuscleWithProbes", "RigidBodyJoint", "FourBarLinkage", "CustomJointDemo",
                        "HingeJointDemo", "SliderJointDemo", "CylindricalJointDemo", "SlottedHingeJointDemo",
                        "UniversalJointDemo", "GimbalJointDemo", "SphericalJointDemo", "PlanarJointDemo",
                        "EllipsoidJointDemo", "PlanarConnectorDemo", "SegmentedPlanarConnectorDemo",
                        "LumbarFrameSpring", "FemBeam", "FemBeamWithBlock", "FemEmbeddedSphere",
                        "PointFemAttachment", "FrameFemAttachment", "JointedFemBeams", "MaterialBundleDemo",
                        "FemBeamWithFemSphere", "LumbarFEMDisk", "FemBeamWithMuscle", "JointedCollide",
                        "JointedBallCollide", "BallPlateCollide", "ElasticFoundationContact"})
    EXPECT_TRUE(have.count(n)) << n;
  EXPECT_TRUE(have.count(demos::defaultDemo()));
  for (auto& [name, entry] : ModelRegistry::instance().entries())
    EXPECT_FALSE(entry.description.empty()) << name;
}

TEST(Demos, UnknownDemoIsAModelError) {
  try {
    demos::createDemo("NoSuchDemo");
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("NoSuchDemo"), std::string::npos) << e.what();
  }
}

class EveryDemo : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryDemo, BuildsAndRunsOneSecondWithFiniteState) {
  // Its FEM sphere is meshed by the external tetgen program.
  if (GetParam() == "FemBeamWithFemSphere" && FemFactory::findTetGenProgram().empty())
    GTEST_SKIP() << FemFactory::tetgenNotFoundMessage();
  std::unique_ptr<RootModel> root;
  ASSERT_NO_THROW(root = demos::createDemo(GetParam()));
  ASSERT_TRUE(root);
  ASSERT_GT(root->models().size(), 0);
  root->initialize(0);
  Eigen::VectorXd s0;
  root->getState(s0);
  ASSERT_TRUE(s0.allFinite());
  // Each MechModel's positions and velocities: its state begins with them,
  // and the auxiliary part after them grows with the contacts that carry a
  // force (they start the next contact solve).
  auto motion = [&] {
    std::vector<Eigen::VectorXd> out;
    for (auto& m : root->models())
      if (auto* mech = dynamic_cast<MechModel*>(&m)) {
        Eigen::VectorXd s;
        mech->getState(s);
        const MechSystem& sys = mech->solver().system();
        out.push_back(s.head(sys.fullPosSize() + sys.fullVelSize()));
      }
    return out;
  };
  const std::vector<Eigen::VectorXd> m0 = motion();
  int steps = 0;
  ASSERT_NO_THROW(root->run(1.0, [&](double) { ++steps; }));
  EXPECT_DOUBLE_EQ(root->getTime(), 1.0);
  EXPECT_EQ(steps, static_cast<int>(std::lround(1.0 / root->getMaxStepSize())));
  Eigen::VectorXd s1;
  root->getState(s1);
  EXPECT_TRUE(s1.allFinite());
  const std::vector<Eigen::VectorXd> m1 = motion();
  ASSERT_EQ(m1.size(), m0.size());
  bool moved = false;
  for (size_t k = 0; k < m0.size(); ++k) {
    ASSERT_EQ(m1[k].size(), m0[k].size());
    moved = moved || m1[k] != m0[k];
  }
  EXPECT_TRUE(moved) << "every demo moves under gravity";
  // Default integrator; the scenes of seed 004 run under its Impulse solver.
  const std::set<std::string> seed004Scenes = {"TriplePendulum", "EightLinkLoop", "SlidingCubes", "SledgePendulum",
                                                "RotatingEgg", "WalkingMachine"};
  const bool seed004 = seed004Scenes.count(GetParam()) > 0;
  for (auto& m : root->models())
    if (auto* mech = dynamic_cast<MechModel*>(&m))
      EXPECT_EQ(mech->getIntegrator(), seed004 ? Integrator::Impulse : Integrator::ConstrainedBackwardEuler);
}

INSTANTIATE_TEST_SUITE_P(All, EveryDemo, ::testing::ValuesIn(registeredDemos()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// ------------------------------------------------------------ physics

// p2 hangs from the fixed p1 by a damped zero-rest-length spring: it settles
// at −mg/k = −2·9.8/20 = −0.98 below p1, losing energy all the way.
TEST(DemoPhysics, ParticleSpringSettlesAtMgOverKAndLosesEnergy) {
  auto root = demos::createDemo("ParticleSpring");
  Particle& p1 = find<Particle>(*root, "models/mech/particles/p1");
  Particle& p2 = find<Particle>(*root, "models/mech/particles/p2");
  root->initialize(0);
  std::vector<double> energy{root->getEnergy()};
  ASSERT_TRUE(std::isfinite(energy[0]));
  root->run(60.0, [&](double) { energy.push_back(root->getEnergy()); });
  ASSERT_EQ(energy.size(), 6001u);
  for (size_t k = 1; k + 1 < energy.size(); ++k) {
    ASSERT_TRUE(std::isfinite(energy[k + 1]));
    ASSERT_LE(energy[k + 1], energy[k] + 1e-9) << "energy rose at step " << k + 1;
  }
  EXPECT_LT(energy.back(), energy.front());
  EXPECT_EQ(p1.getPosition(), Vector3d(0, 0, 0)) << "p1 is fixed";
  // The spring damps only along its axis, so the vertical motion settles
  // first; the sideways swing (in y it never starts) decays more slowly.
  EXPECT_NEAR(p2.getPosition().z(), -0.98, 1e-3);
  EXPECT_EQ(p2.getPosition().y(), 0.0);
}

// The box (mass 0.5·0.3·0.3·20 = 0.9) hangs from the marker, which settles
// mg/k = 0.9·9.8/20 = 0.441 below p1.
TEST(DemoPhysics, RigidBodySpringMarkerSettlesAtMgOverK) {
  auto root = demos::createDemo("RigidBodySpring");
  RigidBody& box = find<RigidBody>(*root, "models/mech/rigidBodies/box");
  Particle& p1 = find<Particle>(*root, "models/mech/particles/p1");
  FrameMarker& mkr = find<FrameMarker>(*root, "models/mech/frameMarkers/0");
  EXPECT_NEAR(box.getMass(), 0.9, 1e-12);
  root->initialize(0);
  root->run(60.0);
  EXPECT_NEAR(mkr.getPosition().z() - p1.getPosition().z(), -0.441, 1e-3);
  // The marker is on the box.
  EXPECT_TRUE(near(mkr.getPosition(), box.getPose().transformPoint(Vector3d(-0.25, 0, 0)), 1e-12));
}

// The input probe drives p1 through the knots of simpleMuscleP1Pos.txt; the
// output probe samples the marker velocity every 0.01 s.
TEST(DemoPhysics, SimpleMuscleWithProbesFollowsTheInputData) {
  auto root = demos::createDemo("SimpleMuscleWithProbes");
  Particle& p1 = find<Particle>(*root, "models/mech/particles/p1");
  root->initialize(0);
  const Vector3d knots[] = {{0.5, 0, 0.5}, {0, 0, 1}, {-0.5, 0, 0.5}};
  for (int t = 1; t <= 3; ++t) {
    root->run(t);
    ASSERT_DOUBLE_EQ(root->getTime(), t);
    EXPECT_TRUE(near(p1.getPosition(), knots[t - 1], 1e-12)) << "t = " << t;
  }
  auto* probe = dynamic_cast<NumericOutputProbe*>(root->outputProbes().get("FrameMarkerVelocity"));
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->getVsize(), 3);
  const NumericList& data = probe->getNumericList();
  ASSERT_EQ(data.numKnots(), 301);
  for (int k = 0; k < data.numKnots(); ++k) {
    EXPECT_NEAR(data.knot(k).t, 0.01 * k, 1e-9) << "knot " << k;
    EXPECT_TRUE(data.knot(k).v.allFinite());
  }
  // The marker moves, so the recorded velocity is not all zero.
  double vmax = 0;
  for (int k = 0; k < data.numKnots(); ++k) vmax = std::max(vmax, data.knot(k).v.norm());
  EXPECT_GT(vmax, 0.1);
}

// The controller moves p1 along (0.5 sin(πt/2), 0, 0.5(1 − cos(πt/2))).
TEST(DemoPhysics, SimpleMuscleWithControllerFollowsTheArc) {
  auto root = demos::createDemo("SimpleMuscleWithController");
  Particle& p1 = find<Particle>(*root, "models/mech/particles/p1");
  root->initialize(0);
  for (double t : {0.5, 1.0, 1.5}) {
    root->run(t);
    double a = M_PI * t / 2;
    EXPECT_TRUE(near(p1.getPosition(), Vector3d(0.5 * std::sin(a), 0, 0.5 * (1 - std::cos(a))), 1e-12))
        << "t = " << t;
  }
}

TEST(DemoPhysics, SimpleMuscleWithControllerAtOneSecond) {
  auto root = demos::createDemo("SimpleMuscleWithController");
  Particle& p1 = find<Particle>(*root, "models/mech/particles/p1");
  root->initialize(0);
  root->run(1.0);
  EXPECT_TRUE(near(p1.getPosition(), Vector3d(0.5, 0, 0.5), 1e-12));
}

// p2 is attached to p3 and p4 to the box at (0, 0, 0.15).
TEST(DemoPhysics, ParticleAttachmentKeepsAttachedPointsTogether) {
  auto root = demos::createDemo("ParticleAttachment");
  MechModel& mech = mechOf(*root);
  ASSERT_EQ(mech.particles().size(), 4);
  Particle& p1 = mech.particles().get(0);
  Particle& p2 = mech.particles().get(1);
  Particle& p3 = mech.particles().get(2);
  Particle& p4 = mech.particles().get(3);
  RigidBody& box = find<RigidBody>(*root, "models/mech/rigidBodies/box");
  const Vector3d p1start = p1.getPosition();
  const Vector3d boxStart = box.getPosition();
  root->initialize(0);
  root->run(1.0);
  EXPECT_TRUE(near(p2.getPosition(), p3.getPosition(), 1e-12));
  EXPECT_TRUE(near(p2.getVelocity(), p3.getVelocity(), 1e-12));
  EXPECT_TRUE(near(p4.getPosition(), box.getPose().transformPoint(Vector3d(0, 0, 0.15)), 1e-12));
  EXPECT_EQ(p1.getPosition(), p1start) << "p1 is fixed";
  EXPECT_LT(box.getPosition().z(), boxStart.z()) << "the box falls";
}

// bodyA is attached to bodyB and the auxiliary frame to bodyA: their
// relative poses do not change while the pair swings.
TEST(DemoPhysics, FrameBodyAttachmentKeepsRelativePoses) {
  auto root = demos::createDemo("FrameBodyAttachment");
  RigidBody& bodyA = find<RigidBody>(*root, "models/mech/rigidBodies/bodyA");
  RigidBody& bodyB = find<RigidBody>(*root, "models/mech/rigidBodies/bodyB");
  Frame& frame = find<Frame>(*root, "models/mech/frames/frame");
  root->initialize(0);
  const RigidTransform3d AB0 = bodyB.getPose().inverse() * bodyA.getPose();
  const RigidTransform3d FA0 = bodyA.getPose().inverse() * frame.getPose();
  const Vector3d posB0 = bodyB.getPosition();
  root->run(1.0);
  const RigidTransform3d AB1 = bodyB.getPose().inverse() * bodyA.getPose();
  const RigidTransform3d FA1 = bodyA.getPose().inverse() * frame.getPose();
  EXPECT_LE((AB1.R - AB0.R).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_TRUE(near(AB1.p, AB0.p, 1e-9));
  EXPECT_LE((FA1.R - FA0.R).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_TRUE(near(FA1.p, FA0.p, 1e-9));
  EXPECT_GT((bodyB.getPosition() - posB0).norm(), 1e-3) << "the pair moves";
}

// The net is held along its edges x = ±10 and sags symmetrically.
TEST(DemoPhysics, NetDemoSagsSymmetrically) {
  auto root = demos::createDemo("NetDemo");
  MechModel& mech = mechOf(*root);
  const int numx = 8, numy = 8;
  auto ball = [&](int i, int j) -> Particle& {
    return find<Particle>(*root, "models/mech/balls/" + std::to_string(i * (numy + 1) + j));
  };
  ASSERT_NE(mech.findComponent("balls/" + std::to_string((numx + 1) * (numy + 1) - 1)), nullptr);
  ASSERT_EQ(mech.findComponent("balls/" + std::to_string((numx + 1) * (numy + 1))), nullptr);
  std::vector<Vector3d> start;
  for (int i = 0; i <= numx; ++i)
    for (int j = 0; j <= numy; ++j) start.push_back(ball(i, j).getPosition());
  root->initialize(0);
  root->run(1.0);
  for (int i = 0; i <= numx; ++i)
    for (int j = 0; j <= numy; ++j) {
      const Vector3d x = ball(i, j).getPosition();
      ASSERT_TRUE(x.allFinite());
      const Vector3d mx = ball(numx - i, j).getPosition();
      const Vector3d my = ball(i, numy - j).getPosition();
      EXPECT_TRUE(near(x, Vector3d(-mx.x(), mx.y(), mx.z()), 1e-9)) << "ball (" << i << "," << j << ") vs x mirror";
      EXPECT_TRUE(near(x, Vector3d(my.x(), -my.y(), my.z()), 1e-9)) << "ball (" << i << "," << j << ") vs y mirror";
      if (i == 0 || i == numx)
        EXPECT_EQ(x, start[i * (numy + 1) + j]) << "edge ball (" << i << "," << j << ") is fixed";
    }
  // The interior sags under gravity, most in the middle.
  EXPECT_LT(ball(numx / 2, numy / 2).getPosition().z(), ball(1, numy / 2).getPosition().z());
  EXPECT_LT(ball(1, numy / 2).getPosition().z(), 0.0);
}

}  // namespace
}  // namespace sinew
