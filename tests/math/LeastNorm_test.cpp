// leastNormSolve: the least-norm least-squares solution at a chosen rank
// threshold, against the pseudo-inverse of an SVD at the same threshold.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/SVD>

#include "sinew/math/LeastNorm.h"

namespace sinew {
namespace {

// Two nearly redundant rows (W's singular values 2 − ε and ε, ε = 1e-12),
// as two contacts of one face give: at a threshold of 1e-10 the ε direction
// (1, −1) is dropped, and b = (1, 0) is solved by its part along (1, 1),
// x = (1, 1)/(2(2 − ε)). At round-off's threshold the ε direction stays and
// the solve is the inverse's, whose components are about ±1/(2ε). (The
// decomposition drops its small pivot where the SVD drops its small
// singular value: the two rank-1 truncations differ at order ε.) The
// threshold set after the decomposition (before 2026-11-27) gave neither:
// the solve read Z coefficients that were never formed.
TEST(LeastNorm, NearlyRedundantRowsDropTheirDifferenceAtTheThreshold) {
  const double eps = 1e-12;
  Eigen::MatrixXd W(2, 2);
  W << 1, 1 - eps, 1 - eps, 1;
  const Eigen::VectorXd b = Eigen::Vector2d(1, 0);
  const Eigen::VectorXd x = leastNormSolve(W, b, 1e-10);
  const double expected = 1 / (2 * (2 - eps));
  EXPECT_NEAR(x[0], expected, 4 * eps);
  EXPECT_NEAR(x[1], expected, 4 * eps);
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(W, Eigen::ComputeThinU | Eigen::ComputeThinV);
  svd.setThreshold(1e-10);
  EXPECT_LE((x - svd.solve(b)).norm(), 4 * eps);
  // Round-off's threshold keeps the ε direction: the inverse's solution.
  const Eigen::VectorXd xFull = leastNormSolve(W, b);
  EXPECT_NEAR(xFull[0] - xFull[1], 1 / eps, 1e-3 / eps);
  EXPECT_LE((W * xFull - b).norm(), 1e-3);
}

// A wide system of rank 2 (three unknowns): every solution of A x = b
// differs from the least-norm one by a null vector, to which it is
// orthogonal.
TEST(LeastNorm, AWideSystemGetsTheSolutionOrthogonalToItsNullSpace) {
  Eigen::MatrixXd A(2, 3);
  A << 1, 2, 3, 2, 4, 7;
  const Eigen::VectorXd b = Eigen::Vector2d(1, 3);
  const Eigen::VectorXd x = leastNormSolve(A, b, 1e-10);
  EXPECT_LE((A * x - b).norm(), 1e-13);
  const Eigen::Vector3d null = Eigen::Vector3d(1, 2, 3).cross(Eigen::Vector3d(2, 4, 7)).normalized();
  EXPECT_NEAR(x.dot(null), 0, 1e-13);
}

}  // namespace
}  // namespace sinew
