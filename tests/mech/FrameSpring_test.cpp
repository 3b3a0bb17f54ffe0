// Frame springs (guide §3.5): static deflection, restoring torque and the
// small-angle period, action and reaction, forces as the gradient of the
// energy, and bad input. The Jacobians are checked in Jacobian_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "TestModels.h"

namespace sinew {
namespace {

using test::TestRoot;
const double g = 9.8;

/// A body in a test model held by a frame spring to the world at its own
/// initial pose (C and D at the body's origin, no initial displacement).
struct GroundedBody {
  TestRoot r;
  RigidBody& body;
  FrameSpring& spring;
  GroundedBody(const Vector3d& gravity, std::unique_ptr<RigidBody> b, const RigidTransform3d& TDW,
               std::unique_ptr<FrameMaterial> mat)
      : r(gravity), body(r.mech.addRigidBody(std::move(b))),
        spring(r.mech.addFrameSpring(std::make_unique<FrameSpring>("spring"))) {
    body.setPose(TDW);
    spring.setMaterial(std::move(mat));
    spring.setFrames(body, nullptr, TDW);
  }
};

TEST(FrameSpring, HangingBodySettlesAtStaticDeflection) {
  // f = k_t·x balances m g: the body sinks m g / k_t and the spring wrench
  // on C is (0, 0, m g) with no moment (C is at the centre of mass).
  const double k = 1000;
  auto box = RigidBody::createBox("box", 0.2, 0.2, 0.2, 1000);
  const double m = box->getMass(), d = 2 * std::sqrt(k * m);  // critically damped
  GroundedBody t(Vector3d(0, 0, -g), std::move(box), RigidTransform3d(0.3, -0.2, 1.0),
                 std::make_unique<LinearFrameMaterial>(k, 10, d, 1));
  t.r.run(3.0, 0.01);
  EXPECT_NEAR(t.body.getPosition().z(), 1.0 - m * g / k, 1e-9);
  EXPECT_NEAR((t.body.getPosition().head<2>() - Eigen::Vector2d(0.3, -0.2)).norm(), 0, 1e-12);
  Wrench w = t.r.mech.getPropertyByPath("frameSprings/spring:springForce").getNumeric();
  EXPECT_NEAR((w - (Wrench() << 0, 0, m * g, 0, 0, 0).finished()).norm(), 0, 1e-6 * m * g) << w.transpose();
}

TEST(FrameSpring, AnisotropicStiffnessActsAlongTheAxesOfC) {
  // D (and C) turned 90° about x: C's y axis points along world z, so
  // gravity stretches the spring along y and the deflection is m g / k_ty.
  auto mat = std::make_unique<LinearFrameMaterial>(0, 10, 0, 1);
  mat->setStiffness(Vector3d(100, 400, 900));
  mat->setDamping(Vector3d(20, 40, 60));
  auto box = RigidBody::createBox("box", 0.1, 0.1, 0.1, 1000);
  const double m = box->getMass();
  GroundedBody t(Vector3d(0, 0, -g), std::move(box), RigidTransform3d(0, 0, 0, 1, 0, 0, M_PI / 2),
                 std::move(mat));
  t.r.run(3.0, 0.01);
  EXPECT_NEAR(t.body.getPosition().z(), -m * g / 400, 1e-9);
  EXPECT_NEAR(t.spring.getCurrentTDC().p.y(), m * g / 400, 1e-9) << "D lies above C along C's y";
}

TEST(FrameSpring, SmallRotationGivesTorqueKrTheta) {
  // C turned by θ about y relative to D: the moment on C is −k_r sin θ ≈
  // −k_r θ about y, and nothing else.
  const double kr = 3, th = 0.01;
  GroundedBody t(Vector3d::Zero(), RigidBody::createBox("box", 1, 1, 1, 1), RigidTransform3d(),
                 std::make_unique<LinearFrameMaterial>(100, kr, 0, 0));
  t.body.setOrientation(AxisAngle(Vector3d::UnitY(), th));
  Wrench w = t.spring.getSpringForce();
  EXPECT_NEAR(w[4], -kr * th, kr * th * th * th);
  EXPECT_NEAR(w[4], -kr * std::sin(th), 1e-15);
  EXPECT_NEAR((w - Wrench::Unit(4) * w[4]).norm(), 0, 1e-15);
}

TEST(FrameSpring, SmallAngleOscillationPeriod) {
  // A body turning about z against k_r: T = 2π √(I / k_r), here 1 s.
  const double I = 0.02, kr = I * 4 * M_PI * M_PI;
  auto b = std::make_unique<RigidBody>("body");
  b->setInertia(1.0, 0.05, 0.03, I);
  GroundedBody t(Vector3d::Zero(), std::move(b), RigidTransform3d(),
                 std::make_unique<LinearFrameMaterial>(100, kr, 0, 0));
  t.body.setOrientation(AxisAngle(Vector3d::UnitZ(), 0.01));
  t.r.setIntegrator(Integrator::Trapezoidal);
  double T = test::measurePeriod(*t.r.root, 1e-3, 6.0, [&] { return t.body.getRotation()(1, 0); });
  EXPECT_NEAR(T, 2 * M_PI * std::sqrt(I / kr), 5e-5);  // trapezoidal: 1e-5 at h = 1 ms
}

TEST(FrameSpring, ReconnectingAfterAStepConservesMomentum) {
  // Moved from the world to a second free body after the model has been
  // compiled, the spring pulls the two together: no external force, so the
  // total linear momentum stays zero.
  TestRoot tr;
  auto& a = tr.mech.addRigidBody(RigidBody::createBox("a", 0.2, 0.2, 0.2, 1000));
  auto& b = tr.mech.addRigidBody(RigidBody::createBox("b", 0.2, 0.3, 0.2, 1000));
  b.setPose(RigidTransform3d(0.5, 0, 0));
  auto& s = tr.mech.addFrameSpring(std::make_unique<FrameSpring>("s", 100, 1, 0, 0));
  s.setFrames(a, nullptr, RigidTransform3d());
  tr.run(0.1, 0.01);
  s.setFrames(a, RigidTransform3d(), &b, RigidTransform3d(-0.3, 0.1, 0, 0, 0, 1, 0.2));
  tr.root->run(0.5);
  ASSERT_GT(b.getVelocity().norm(), 0.01);
  Vector3d momentum = a.getLinearMomentum() + b.getLinearMomentum();
  EXPECT_LT(momentum.norm(), 1e-9 * b.getLinearMomentum().norm());
}

// ------------------------------------------------------------ two bodies

/// Two bodies with offset, turned frames, D displaced from C and both
/// bodies moving, so every term of the wrench is present.
struct TwoBodies {
  RigidBody a{"a"}, b{"b"};
  FrameSpring spring{"spring"};
  explicit TwoBodies(std::unique_ptr<FrameMaterial> mat) {
    a.setPose(RigidTransform3d(0.1, -0.3, 0.2, 1, 2, -1, 0.7));
    b.setPose(RigidTransform3d(0.6, 0.2, -0.1, -1, 0.5, 2, 1.1));
    a.setVelocity((Twist() << 0.3, -0.1, 0.2, 0.5, 0.1, -0.4).finished());
    b.setVelocity((Twist() << -0.2, 0.4, 0.1, -0.3, 0.2, 0.6).finished());
    spring.setMaterial(std::move(mat));
    spring.setFrames(a, RigidTransform3d(0.2, 0.1, -0.3, 0, 1, 1, 0.4), &b,
                     RigidTransform3d(-0.1, 0.25, 0.1, 1, 0, 1, -0.6));
  }
  void apply() {
    a.zeroForces();
    b.zeroForces();
    spring.applyForces(0);
  }
};

/// The wrench w (about `from`) as a wrench about `to`.
Wrench transport(const Wrench& w, const Vector3d& from, const Vector3d& to) {
  Wrench t = w;
  t.tail<3>() += (from - to).cross(w.head<3>());
  return t;
}

TEST(FrameSpring, WrenchOnBIsMinusTheWrenchOnATransported) {
  auto mat = std::make_unique<LinearFrameMaterial>(0, 0, 0, 0);
  mat->setStiffness(Vector3d(30, 50, 70));
  mat->setRotaryStiffness(Vector3d(2, 5, 3));
  mat->setDamping(Vector3d(1, 2, 3));
  mat->setRotaryDamping(Vector3d(0.2, 0.1, 0.3));
  TwoBodies t(std::move(mat));
  t.apply();
  const Wrench fa = t.a.getForce(), fb = t.b.getForce();
  ASSERT_GT(fa.norm(), 1.0);
  EXPECT_NEAR((transport(fb, t.b.getPosition(), t.a.getPosition()) + fa).norm(), 0, 1e-12 * fa.norm());
  // The spring wrench reported on C is A's wrench seen from C, in C axes.
  const RigidTransform3d TCW = t.spring.getCurrentTCW();
  Wrench wc = transport(fa, t.a.getPosition(), TCW.p);
  wc.head<3>() = TCW.R.transpose() * wc.head<3>().eval();
  wc.tail<3>() = TCW.R.transpose() * wc.tail<3>().eval();
  EXPECT_NEAR((wc - t.spring.getSpringForce()).norm(), 0, 1e-12 * fa.norm());
}

/// Generalized force on body c from −∂U/∂q, by central differences along
/// the body's twist (the exponential map for the rotation).
Wrench energyGradientForce(FrameSpring& s, Frame& c) {
  const double eps = 1e-6;
  double q0[7];
  c.getPosState(q0);
  Wrench f;
  for (int k = 0; k < 6; ++k) {
    double q[7];
    Twist du = Twist::Unit(k);
    std::copy(q0, q0 + 7, q);
    c.addPosImpulse(q, eps, du.data());
    c.setPosState(q);
    const double up = s.getPotentialEnergy();
    std::copy(q0, q0 + 7, q);
    c.addPosImpulse(q, -eps, du.data());
    c.setPosState(q);
    f[k] = -(up - s.getPotentialEnergy()) / (2 * eps);
  }
  c.setPosState(q0);
  return f;
}

TEST(FrameSpring, ElasticForcesAreTheNegativeEnergyGradient) {
  // Conservative for an isotropic rotary stiffness, with any translational
  // stiffness: the force runs through D's origin.
  for (bool rotAxis : {false, true}) {
    std::unique_ptr<LinearFrameMaterial> mat;
    if (rotAxis) mat = std::make_unique<RotAxisFrameMaterial>(0, 4, 0, 0);
    else mat = std::make_unique<LinearFrameMaterial>(0, 4, 0, 0);
    mat->setStiffness(Vector3d(30, 50, 70));
    TwoBodies t(std::move(mat));
    t.a.setVelocity(Twist::Zero());
    t.b.setVelocity(Twist::Zero());
    t.apply();
    EXPECT_NEAR((t.a.getForce() - energyGradientForce(t.spring, t.a)).norm(), 0, 1e-7) << rotAxis;
    EXPECT_NEAR((t.b.getForce() - energyGradientForce(t.spring, t.b)).norm(), 0, 1e-7) << rotAxis;
  }
}

TEST(FrameSpring, RotAxisMaterialUsesTheFullRotationAngle) {
  // At 120° the linear material's moment is k_r sin θ, the rotation-axis
  // material's k_r θ; the energies are k_r(1 − cos θ) and ½ k_r θ².
  const double kr = 2, th = 2 * M_PI / 3;
  const RigidTransform3d TDC(Vector3d(0, 0, 0), AxisAngle(Vector3d::UnitX(), th).toMatrix());
  LinearFrameMaterial lin(10, kr, 0, 0);
  RotAxisFrameMaterial rot(10, kr, 0, 0);
  EXPECT_NEAR(lin.computeF(TDC, Twist::Zero())[3], kr * std::sin(th), 1e-14);
  EXPECT_NEAR(rot.computeF(TDC, Twist::Zero())[3], kr * th, 1e-14);
  EXPECT_NEAR(lin.computeEnergy(TDC), kr * (1 - std::cos(th)), 1e-14);
  EXPECT_NEAR(rot.computeEnergy(TDC), 0.5 * kr * th * th, 1e-14);
}

// ------------------------------------------------------------ bad input

bool contains(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

TEST(FrameSpringBadInput, NegativeStiffnessNamesTheSpring) {
  TestRoot tr;
  auto& body = tr.mech.addRigidBody(RigidBody::createBox("box", 1, 1, 1, 1));
  auto& s = tr.mech.addFrameSpring(std::make_unique<FrameSpring>("disc", 100, 1, 0, 0));
  s.setFrames(body, nullptr, RigidTransform3d());
  try {
    tr.mech.getPropertyByPath("frameSprings/disc:material.stiffness").set(Eigen::VectorXd(Vector3d(1, -2, 1)));
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_TRUE(contains(e.path(), "frameSprings/disc")) << e.what();
    EXPECT_TRUE(contains(e.what(), "stiffness")) << e.what();
  }
  EXPECT_EQ(static_cast<LinearFrameMaterial*>(s.getMaterial())->getStiffness(), Vector3d::Constant(100));
  EXPECT_THROW(LinearFrameMaterial(100, -1, 0, 0), ModelError);
  EXPECT_THROW(LinearFrameMaterial(100, 1, NAN, 0), ModelError);
  EXPECT_THROW(s.setMaterial(std::unique_ptr<FrameMaterial>()), ModelError);
  EXPECT_THROW(s.setFrames(body, &body, RigidTransform3d()), ModelError);
}

TEST(FrameSpringBadInput, SpringWithoutFramesIsAModelError) {
  TestRoot tr;
  tr.mech.addRigidBody(RigidBody::createBox("box", 1, 1, 1, 1));
  tr.mech.addFrameSpring(std::make_unique<FrameSpring>("loose"));
  try {
    tr.root->initialize(0);
    FAIL() << "expected ModelError";
  } catch (const ModelError& e) {
    EXPECT_TRUE(contains(e.path(), "frameSprings/loose")) << e.what();
    EXPECT_TRUE(contains(e.what(), "setFrames")) << e.what();
  }
}

}  // namespace
}  // namespace sinew
