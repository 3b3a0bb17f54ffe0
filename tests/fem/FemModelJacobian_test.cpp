// A whole FEM model's force Jacobians against central differences of its
// nodal forces (guide §6.1.1 damping, §6.1.3 materials): Rayleigh damping
// f_d = −(d_M M + d_K K) v with K the tangent at the current positions,
// the corotated linear material's exact tangent, of which the model hands
// the solver the symmetric part, and the update after rest positions change.
#include <gtest/gtest.h>

#include "FemTestUtil.h"
#include "JacobianCheck.h"

namespace sinew {
namespace {

using namespace femtest;

TEST(FemModelJacobian, RayleighDampingIsMinusMassAndStiffnessTimesVelocity) {
  auto fem = deformedBlock(NeoHookeanMaterial(50000, 0.3));
  fem->setDensity(1000);
  const double dM = 2.0, dK = 0.01;
  fem->setParticleDamping(dM);
  fem->setStiffnessDamping(dK);
  const auto nodes = nodeList(*fem);
  const Eigen::VectorXd f0 = nodeForces(*fem);  // at rest: the elastic forces alone
  test::checkJacobians(*fem, nodes, 1e-6);

  // D = ∂f/∂v = −d_M M − d_K K, where ∂f/∂x = −K.
  test::DenseJacobian dfdx(nodes), dfdv(nodes);
  fem->declareJacobianBlocks(dfdx);
  fem->declareJacobianBlocks(dfdv);
  fem->addPosJacobian(dfdx, 1.0);
  fem->addVelJacobian(dfdv, 1.0);
  const int n = static_cast<int>(nodes.size());
  Eigen::MatrixXd expected = dK * dfdx.J;
  for (int i = 0; i < n; ++i) expected.diagonal().segment<3>(3 * i).array() -= dM * fem->getNode(i).getMass();
  EXPECT_GT(fem->getNode(0).getMass(), 0);
  EXPECT_LT((dfdv.J - expected).norm(), 1e-12 * expected.norm());

  // The damping force is exactly linear in the velocities.
  Noise noise(9);
  Eigen::VectorXd v(3 * n);
  for (int i = 0; i < n; ++i) {
    v.segment<3>(3 * i) = noise.vec();
    fem->getNode(i).setVelocity(v.segment<3>(3 * i));
  }
  const Eigen::VectorXd fd = nodeForces(*fem) - f0;
  EXPECT_LT((fd - expected * v).norm(), 1e-12 * fd.norm());
  EXPECT_LT(fd.dot(v), 0) << "damping takes energy out";
}

TEST(FemModelJacobian, ExactCorotatedTangentGivesTheSolverTheSymmetricPartOfTheDerivative) {
  // A deformed and turned hex block: the model's K equals the symmetric
  // part of −∂f/∂x with `exactTangent`; stiffness warping differs from it.
  LinearMaterial exact(50000, 0.3, true), warped(50000, 0.3, true);
  exact.setExactTangent(true);
  auto fem = deformedBlock(exact);
  const Matrix3d Q = axisRotation(0, 0.8) * axisRotation(2, 1.1);
  for (auto& node : fem->nodes()) node.setPosition(Q * node.getPosition());
  const auto nodes = nodeList(*fem);
  nodeForces(*fem);
  test::checkJacobians(*fem, nodes, 1e-6, /*symmetric=*/true);

  auto jacobian = [&](const FemMaterial& mat) {
    fem->setMaterial(mat);
    nodeForces(*fem);  // the tangent of this state
    test::DenseJacobian K(nodes);
    fem->declareJacobianBlocks(K);
    fem->addPosJacobian(K, 1.0);
    return Eigen::MatrixXd(K.J);
  };
  const Eigen::MatrixXd Ke = jacobian(exact), Kw = jacobian(warped);
  EXPECT_LT((Ke - Ke.transpose()).norm(), 1e-12 * Ke.norm());
  EXPECT_GT((Ke - Kw).norm(), 1e-2 * Ke.norm());
}

TEST(FemModelJacobian, RestPositionChangesReachTheMassesAndUpdateStressAndStiffness) {
  // §6.1.2.1: changing rest positions invalidates what depends on them;
  // the masses are relumped before their next use, and
  // updateStressAndStiffness() brings masses and element stiffness up to
  // date at once, the same as the next step's force evaluation would.
  auto fem = deformedBlock(NeoHookeanMaterial(50000, 0.3));
  fem->setDensity(1000);
  const double m0 = fem->getMass();
  EXPECT_NEAR(m0, 1000 * 1.0 * 0.8 * 0.6, 1e-9);
  for (auto& node : fem->nodes()) {
    Vector3d X = node.getRestPosition();
    X.x() *= 1.5;
    node.setRestPosition(X);
  }
  fem->getNode(0).setExternalForce(Vector3d(0.1, 0.2, 0.3));  // a load, restored exactly too
  for (auto& node : fem->nodes()) node.zeroForces(), node.addForce(Vector3d(1, 2, 3));  // gathered so far
  std::vector<Vector3d> before;
  for (auto& node : fem->nodes()) before.push_back(node.getForce());
  fem->updateStressAndStiffness();
  for (int i = 0; i < fem->numNodes(); ++i) EXPECT_EQ(fem->getNode(i).getForce(), before[i]);
  EXPECT_EQ(fem->getNode(0).getExternalForce(), Vector3d(0.1, 0.2, 0.3));
  double sum = 0;
  for (auto& node : fem->nodes()) sum += node.getMass();
  EXPECT_NEAR(sum, 1.5 * m0, 1e-9) << "node masses relumped from the new rest volume";
  EXPECT_NEAR(fem->getMass(), 1.5 * m0, 1e-9);
  const auto nodes = nodeList(*fem);
  test::DenseJacobian updated(nodes), stepped(nodes);
  fem->declareJacobianBlocks(updated);
  fem->addPosJacobian(updated, 1.0);
  nodeForces(*fem);
  fem->declareJacobianBlocks(stepped);
  fem->addPosJacobian(stepped, 1.0);
  EXPECT_EQ(updated.J, stepped.J);
  test::checkJacobians(*fem, nodes, 1e-6);
}

}  // namespace
}  // namespace sinew
