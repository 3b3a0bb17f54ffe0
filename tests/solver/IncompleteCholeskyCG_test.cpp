// IncompleteCholeskyCG (sinew/solver/IncompleteCholeskyCG.h), the iterative
// solve Auto uses for SPD matrices whose direct factorization would be
// very large: it must reach a relative residual of 1e-12, start from the
// guess it is given, and say when it cannot converge so that Auto factors
// the matrix directly instead.
#include <gtest/gtest.h>

#include "SparseTestMatrices.h"
#include "sinew/solver/IncompleteCholeskyCG.h"

namespace sinew {
namespace {

using test::gridLaplacian;

TEST(IncompleteCholeskyCG, ReachesRoundOffFromNothingAndStaysAtTheSolutionGiven) {
  const SparseMatrixd A = gridLaplacian(20, 1e-2);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows(), -1.0, 2.0);
  IncompleteCholeskyCG cg;
  ASSERT_TRUE(cg.factor(A, true));
  Eigen::VectorXd x;
  ASSERT_TRUE(cg.solve(b, x));
  EXPECT_LT((A * x - b).norm() / b.norm(), 1e-12);
  const int cold = cg.lastIterations();
  EXPECT_GT(cold, 0);
  // Started from that solution it has nothing left to do.
  Eigen::VectorXd again = x;
  ASSERT_TRUE(cg.solve(b, again));
  EXPECT_LE(cg.lastIterations(), 1);
  EXPECT_LT((A * again - b).norm() / b.norm(), 1e-12);
  // New values on the same pattern: the preconditioner is formed again.
  const SparseMatrixd B = gridLaplacian(20, 1.0);
  ASSERT_TRUE(cg.factor(B, false));
  ASSERT_TRUE(cg.solve(b, x));
  EXPECT_LT((B * x - b).norm() / b.norm(), 1e-12);
}

TEST(IncompleteCholeskyCG, SolvesAMildlyIndefiniteMatrixItConvergesOn) {
  // Half the diagonal negated: conjugate gradients are not made for it,
  // but the shifted incomplete factor still leads them to the solution,
  // and "converged" means solved.
  SparseMatrixd A = gridLaplacian(12, 1e-2);
  for (int i = 0; i < A.rows(); i += 2) A.coeffRef(i, i) = -A.coeff(i, i);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows(), -1.0, 2.0);
  IncompleteCholeskyCG cg;
  Eigen::VectorXd x;
  ASSERT_TRUE(cg.factor(A, true) && cg.solve(b, x));
  EXPECT_LT((A * x - b).norm() / b.norm(), 1e-12);
}

TEST(IncompleteCholeskyCG, SaysSoWhenItCannotConverge) {
  // A system with no solution (an unknown that no equation holds, and a
  // right-hand side asking for it): the caller must hear that it failed.
  SparseMatrixd A = gridLaplacian(12, 1e-2);
  for (int k = 0; k < A.outerSize(); ++k)
    for (SparseMatrixd::InnerIterator it(A, k); it; ++it)
      if (it.row() == 7 || it.col() == 7) it.valueRef() = 0;
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(A.rows());
  IncompleteCholeskyCG cg;
  Eigen::VectorXd x;
  ASSERT_TRUE(cg.factor(A, true)) << "the shifted factor forms; the solve must fail";
  EXPECT_FALSE(cg.solve(b, x));
}

}  // namespace
}  // namespace sinew
