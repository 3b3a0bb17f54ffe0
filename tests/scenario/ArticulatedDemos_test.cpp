// The joint-type demos (guide §3.4) under the Articulated integrator
// (scenario label: slow): each link on its joint, hinged to a non-dynamic
// base, with rotary damping, and a gimbal's pitch range and a ball joint's
// tilt limit, follows the motion the MLCP solver gives, to first order in
// h, with its joint held.
#include <gtest/gtest.h>

#include <cmath>

#include "DemoRuns.h"
#include "demos/Demos.h"
#include "sinew/mech/MechModel.h"

namespace sinew {
namespace {

using namespace test;  // mechOf, runTracked

struct Run {
  std::unique_ptr<RootModel> root;
  double maxError = 0;
};

Run runDemo(const std::string& name, Integrator integ, double h, double duration) {
  Run r{demos::createDemo(name, {})};
  mechOf(*r.root).setIntegrator(integ);
  r.root->setMaxStepSize(h);
  r.root->initialize(0);
  r.maxError = runTracked(*r.root, duration).maxError;
  return r;
}

/// The largest distance between the two runs' bodies after 1 s at step h;
/// the Articulated run's largest joint error over it in `maxError`.
double differenceFromMlcp(const std::string& name, double h, double& maxError) {
  Run a = runDemo(name, Integrator::Articulated, h, 1.0);
  Run b = runDemo(name, Integrator::ConstrainedBackwardEuler, h, 1.0);
  maxError = std::max(maxError, a.maxError);
  double d = 0;
  for (int i = 0; i < mechOf(*a.root).rigidBodies().size(); ++i)
    d = std::max(d, (mechOf(*a.root).rigidBodies().get(i).getPosition() -
                     mechOf(*b.root).rigidBodies().get(i).getPosition()).norm());
  return d;
}

TEST(ArticulatedDemos, EveryJointTypeItTakesMovesAsUnderTheMlcpSolver) {
  for (const char* name : {"HingeJointDemo", "SliderJointDemo", "CylindricalJointDemo", "PlanarJointDemo",
                           "GimbalJointDemo", "SphericalJointDemo", "RigidBodyJoint"}) {
    SCOPED_TRACE(name);
    double maxError = 0;
    const double coarse = differenceFromMlcp(name, 1e-3, maxError), fine = differenceFromMlcp(name, 1e-4, maxError);
    // Tree joints hold to round-off; the gimbal's range and the ball
    // joint's tilt limit to the stabilization tolerance (1e-10).
    EXPECT_LT(maxError, 2e-10);
    // Sliding along a straight axis or plane under constant gravity, both
    // methods are exact; where they differ, the difference is first order.
    EXPECT_LT(fine, 2e-4);
    if (coarse > 1e-9) EXPECT_GT(coarse / fine, 5.0);
  }
}

}  // namespace
}  // namespace sinew
