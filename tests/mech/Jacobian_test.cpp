// The shared finite-difference check of force Jacobians (DESIGN §4): every
// force effector's ∂f/∂q and ∂f/∂u must match central differences.
#include <gtest/gtest.h>

#include <map>

#include "TestModels.h"

namespace sinew {
namespace {

/// Dense Jacobian over a list of points, for the check.
class DenseJacobian : public JacobianPattern, public JacobianMatrix {
 public:
  explicit DenseJacobian(std::vector<Point*> pts) : myPts(std::move(pts)), J(Eigen::MatrixXd::Zero(3 * myPts.size(), 3 * myPts.size())) {}
  int declareBlock(const DynamicComponent& r, const DynamicComponent& c) override {
    myBlocks.push_back({index(r), index(c)});
    return static_cast<int>(myBlocks.size()) - 1;
  }
  void addBlock(int h, const Eigen::Ref<const Eigen::MatrixXd>& B) override {
    J.block<3, 3>(3 * myBlocks[h].first, 3 * myBlocks[h].second) += B;
  }
  int index(const DynamicComponent& c) const {
    for (size_t i = 0; i < myPts.size(); ++i)
      if (myPts[i] == &c) return static_cast<int>(i);
    throw std::runtime_error("unknown component");
  }
  std::vector<Point*> myPts;
  std::vector<std::pair<int, int>> myBlocks;
  Eigen::MatrixXd J;
};

Eigen::VectorXd forces(ForceEffector& e, const std::vector<Point*>& pts) {
  for (auto* p : pts) p->zeroForces();
  e.applyForces(0);
  Eigen::VectorXd f(3 * pts.size());
  for (size_t i = 0; i < pts.size(); ++i) f.segment<3>(3 * i) = pts[i]->getForce();
  return f;
}

/// Checks K = ∂f/∂x and D = ∂f/∂v of effector e on points pts.
void checkJacobians(ForceEffector& e, const std::vector<Point*>& pts, double tol) {
  DenseJacobian K(pts), D(pts);
  e.declareJacobianBlocks(K);
  e.declareJacobianBlocks(D);
  e.addPosJacobian(K, 1.0);
  e.addVelJacobian(D, 1.0);
  const double eps = 1e-6;
  const int n = 3 * static_cast<int>(pts.size());
  Eigen::MatrixXd Kfd(n, n), Dfd(n, n);
  for (int j = 0; j < n; ++j) {
    Point& p = *pts[j / 3];
    Vector3d x0 = p.getPosition(), v0 = p.getVelocity();
    Vector3d dx = Vector3d::Zero();
    dx[j % 3] = eps;
    p.setPosition(x0 + dx);
    Eigen::VectorXd fp = forces(e, pts);
    p.setPosition(x0 - dx);
    Eigen::VectorXd fm = forces(e, pts);
    p.setPosition(x0);
    Kfd.col(j) = (fp - fm) / (2 * eps);
    p.setVelocity(v0 + dx);
    fp = forces(e, pts);
    p.setVelocity(v0 - dx);
    fm = forces(e, pts);
    p.setVelocity(v0);
    Dfd.col(j) = (fp - fm) / (2 * eps);
  }
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

}  // namespace
}  // namespace sinew
