// Auto's choice for very large SPD matrices (docs/solvers.md, "Very large
// models"): past the flop count of kIterativeFlops its direct
// factorization would take GBs and tens of seconds, and Auto solves by
// incomplete-Cholesky CG instead, to the same relative residual. Slow for
// a unit test (a 343,000-unknown system), so it is a scenario.
#include <gtest/gtest.h>

#include "SparseTestMatrices.h"
#include "sinew/solver/LinearSolver.h"

namespace sinew {
namespace {

TEST(LargeSolves, AutoSolvesAVeryLargeSPDMatrixIterativelyToRoundOff) {
  // The 7-point Laplacian on a 70³ grid plus a shift that keeps it from
  // being diagonally dominant with margin (so not plain PCG): a 3D mesh's
  // fill, about 1e11 flops to factor.
  const SparseMatrixd A = test::gridLaplacian(70, 1e-2);
  auto s = LinearSolver::create(LinearSolverType::Auto, A.rows(), 0);
  ASSERT_TRUE(s->factor(A, 0, true));
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows(), -1.0, 2.0);
  Eigen::VectorXd x;
  s->solve(b, x);
  EXPECT_EQ(s->name(), "Auto(ICCG)");
  EXPECT_LT((A * x - b).norm() / b.norm(), 1e-12);
  // The same solver on a diagonally dominant matrix of another pattern:
  // PCG, to round-off.
  const SparseMatrixd D = test::gridLaplacian(30, 10.0);
  ASSERT_TRUE(s->factor(D, 0, true));
  const Eigen::VectorXd c = Eigen::VectorXd::LinSpaced(D.rows(), 1.0, 3.0);
  Eigen::VectorXd y;
  s->solve(c, y);
  EXPECT_EQ(s->name(), "Auto(PCG)");
  EXPECT_LT((D * y - c).norm() / c.norm(), 1e-12);
}

}  // namespace
}  // namespace sinew
