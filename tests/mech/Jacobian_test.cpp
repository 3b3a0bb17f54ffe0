// The shared finite-difference check of force Jacobians (DESIGN §4): every
// force effector's ∂f/∂q and ∂f/∂u must match central differences.
#include <gtest/gtest.h>

#include <map>

#include "TestModels.h"

namespace sinew {
namespace {

/// Dense Jacobian over a list of components, each taking its velocity size.
class DenseJacobian : public JacobianPattern, public JacobianMatrix {
 public:
  explicit DenseJacobian(const std::vector<DynamicComponent*>& comps) : myComps(comps) {
    int n = 0;
    for (auto* c : myComps) {
      myOffsets.push_back(n);
      n += c->getVelStateSize();
    }
    J = Eigen::MatrixXd::Zero(n, n);
  }
  int declareBlock(const DynamicComponent& r, const DynamicComponent& c) override {
    myBlocks.push_back({index(r), index(c)});
    return static_cast<int>(myBlocks.size()) - 1;
  }
  void addBlock(int h, const Eigen::Ref<const Eigen::MatrixXd>& B) override {
    J.block(myOffsets[myBlocks[h].first], myOffsets[myBlocks[h].second], B.rows(), B.cols()) += B;
  }
  int index(const DynamicComponent& c) const {
    for (size_t i = 0; i < myComps.size(); ++i)
      if (myComps[i] == &c) return static_cast<int>(i);
    throw std::runtime_error("unknown component");
  }
  std::vector<DynamicComponent*> myComps;
  std::vector<int> myOffsets;
  std::vector<std::pair<int, int>> myBlocks;
  Eigen::MatrixXd J;
};

Eigen::VectorXd forces(ForceEffector& e, const std::vector<DynamicComponent*>& comps, int n) {
  for (auto* c : comps) c->zeroForces();
  e.applyForces(0);
  Eigen::VectorXd f(n);
  for (int i = 0, off = 0; i < static_cast<int>(comps.size()); off += comps[i++]->getVelStateSize())
    comps[i]->getForce(f.data() + off);
  return f;
}

/// Central differences of the forces along velocity dof k of component c:
/// positions move through addPosImpulse (the exponential map for frames,
/// the same map the integrators use), velocities directly.
void differentiate(ForceEffector& e, const std::vector<DynamicComponent*>& comps, DynamicComponent& c, int k,
                   int n, Eigen::Ref<Eigen::VectorXd> dfdq, Eigen::Ref<Eigen::VectorXd> dfdu) {
  const double eps = 1e-6;
  Eigen::VectorXd q0(c.getPosStateSize()), u0(c.getVelStateSize());
  c.getPosState(q0.data());
  c.getVelState(u0.data());
  Eigen::VectorXd du = Eigen::VectorXd::Unit(u0.size(), k), q = q0;
  c.addPosImpulse(q.data(), eps, du.data());
  c.setPosState(q.data());
  Eigen::VectorXd fp = forces(e, comps, n);
  q = q0;
  c.addPosImpulse(q.data(), -eps, du.data());
  c.setPosState(q.data());
  dfdq = (fp - forces(e, comps, n)) / (2 * eps);
  c.setPosState(q0.data());
  Eigen::VectorXd u = u0 + eps * du;
  c.setVelState(u.data());
  fp = forces(e, comps, n);
  u = u0 - eps * du;
  c.setVelState(u.data());
  dfdu = (fp - forces(e, comps, n)) / (2 * eps);
  c.setVelState(u0.data());
}

/// Checks K = ∂f/∂q and D = ∂f/∂u of effector e on components comps; with
/// `symmetric`, K is compared with the symmetric part of the difference
/// quotients (what an effector hands a symmetric solver).
void checkJacobians(ForceEffector& e, const std::vector<DynamicComponent*>& comps, double tol,
                    bool symmetric = false) {
  DenseJacobian K(comps), D(comps);
  e.declareJacobianBlocks(K);
  e.declareJacobianBlocks(D);
  e.addPosJacobian(K, 1.0);
  e.addVelJacobian(D, 1.0);
  const int n = static_cast<int>(K.J.rows());
  Eigen::MatrixXd Kfd(n, n), Dfd(n, n);
  for (int i = 0; i < static_cast<int>(comps.size()); ++i)
    for (int k = 0; k < comps[i]->getVelStateSize(); ++k)
      differentiate(e, comps, *comps[i], k, n, Kfd.col(K.myOffsets[i] + k), Dfd.col(K.myOffsets[i] + k));
  if (symmetric) Kfd = (0.5 * (Kfd + Kfd.transpose())).eval();
  // The velocity-dependence of the direction (∂u/∂x · l̇) is left out of K,
  // as in ArtiSynth; compare at zero relative velocity for K.
  EXPECT_LT((K.J - Kfd).norm(), tol * (1 + Kfd.norm())) << "K\n" << K.J << "\nFD\n" << Kfd;
  EXPECT_LT((D.J - Dfd).norm(), tol * (1 + Dfd.norm())) << "D\n" << D.J << "\nFD\n" << Dfd;
}

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
