// The shared finite-difference check of force Jacobians (DESIGN §4): every
// force effector's ∂f/∂q and ∂f/∂u must match central differences.
#include <gtest/gtest.h>

#include <map>

#include "JacobianCheck.h"
#include "TestModels.h"

namespace sinew {
namespace {

using test::checkJacobians;

TEST(Jacobian, AxialSpringLinearMaterial) {
  Particle a("a", 1, 0.1, -0.2, 0.3), b("b", 1, 0.9, 0.4, -0.5);
  a.setVelocity(Vector3d(0.3, 0.1, -0.2));
  b.setVelocity(Vector3d(0.3, 0.1, -0.2));  // no relative motion
  AxialSpring s("s", 50, 3, 0.4);
  s.setPoints(a, b);
  checkJacobians(s, {&a, &b}, 1e-7);
}

TEST(Jacobian, MuscleWithExcitation) {
  Particle a("a", 1, 0.1, -0.2, 0.3), b("b", 1, -0.7, 0.4, 0.5);
  Muscle m("m", 0.2);
  m.setMaterial(SimpleAxialMuscle(20, 4, 10));
  m.setExcitation(0.6);
  m.setPoints(a, b);
  checkJacobians(m, {&a, &b}, 1e-7);
}

TEST(Jacobian, ZeroRestLengthSpringAtCoincidentPoints) {
  // With l0 = 0 the force k(x1 − x0) is linear, so K = k·I blocks even
  // when the points meet and the direction is undefined.
  Particle a("a", 1, 0.2, 0.2, 0.2), b("b", 1, 0.2, 0.2, 0.2);
  AxialSpring s("s", 30, 0, 0);
  s.setPoints(a, b);
  checkJacobians(s, {&a, &b}, 1e-7);
}

// Frame springs: two rotated bodies, frames C and D offset and turned in
// them, and D displaced from C so that the force turns with the frames
// (the geometric terms). Velocities are zero so K has no velocity part.
struct TwoBodySpring {
  RigidBody a{"a"}, b{"b"};
  FrameSpring spring{"spring"};
  TwoBodySpring(std::unique_ptr<FrameMaterial> mat, bool withB) {
    a.setPose(RigidTransform3d(0.1, -0.3, 0.2, 1, 2, -1, 0.7));
    b.setPose(RigidTransform3d(0.6, 0.2, -0.1, -1, 0.5, 2, 1.1));
    spring.setMaterial(std::move(mat));
    const RigidTransform3d TCA(0.2, 0.1, -0.3, 0, 1, 1, 0.4), TDB(-0.1, 0.25, 0.1, 1, 0, 1, -0.6);
    spring.setFrames(a, TCA, withB ? &b : nullptr, withB ? TDB : b.getPose() * TDB);
  }
};

std::unique_ptr<LinearFrameMaterial> anisotropic(std::unique_ptr<LinearFrameMaterial> m) {
  m->setStiffness(Vector3d(30, 50, 70));
  m->setRotaryStiffness(Vector3d(2, 5, 3));
  m->setDamping(Vector3d(1, 2, 3));
  m->setRotaryDamping(Vector3d(0.2, 0.1, 0.3));
  return m;
}

TEST(Jacobian, FrameSpringLinearMaterialBetweenTwoBodies) {
  TwoBodySpring t(anisotropic(std::make_unique<LinearFrameMaterial>()), true);
  t.spring.setSymmetricJacobian(false);
  checkJacobians(t.spring, {&t.a, &t.b}, 1e-7);
}

TEST(Jacobian, FrameSpringRotAxisMaterialToTheWorld) {
  TwoBodySpring t(anisotropic(std::make_unique<RotAxisFrameMaterial>()), false);
  t.spring.setSymmetricJacobian(false);
  checkJacobians(t.spring, {&t.a}, 1e-7);
}

TEST(Jacobian, FrameSpringSymmetrizedForTheSolver) {
  // The default hands the solver the symmetric part of the exact K.
  TwoBodySpring t(anisotropic(std::make_unique<LinearFrameMaterial>()), true);
  EXPECT_TRUE(t.spring.isSymmetricJacobian());
  checkJacobians(t.spring, {&t.a, &t.b}, 1e-7, /*symmetric=*/true);
}

}  // namespace
}  // namespace sinew
