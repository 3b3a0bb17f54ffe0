// The shared finite-difference check of force Jacobians (DESIGN §4): a
// force effector's ∂f/∂q and ∂f/∂u against central differences of its
// forces, over a list of dynamic components.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>

#include "sinew/mech/DynamicComponent.h"

namespace sinew::test {

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

inline Eigen::VectorXd forces(ForceEffector& e, const std::vector<DynamicComponent*>& comps, int n) {
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
inline void differentiate(ForceEffector& e, const std::vector<DynamicComponent*>& comps, DynamicComponent& c, int k,
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
inline void checkJacobians(ForceEffector& e, const std::vector<DynamicComponent*>& comps, double tol,
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

}  // namespace sinew::test
