// The Auto backend for SPD matrices (LinearSolver.h): it must pick the
// supernodal factorization for 3D-mesh fill, the simplicial one for banded
// systems and PCG for diagonally dominant ones — and every choice must solve
// the system to round-off.
#include <gtest/gtest.h>

#include <vector>

#include "sinew/solver/LinearSolver.h"

namespace sinew {
namespace {

/// The 7-point Laplacian on an n³ grid plus a diagonal shift: the fill
/// pattern of a 3D mesh (fronts of n² unknowns), SPD, and not diagonally
/// dominant with margin once the shift is small.
SparseMatrixd gridLaplacian(int n, double shift) {
  auto id = [n](int i, int j, int k) { return (k * n + j) * n + i; };
  std::vector<Eigen::Triplet<double>> t;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int r = id(i, j, k);
        t.emplace_back(r, r, 6.0 + shift);
        if (i + 1 < n) t.emplace_back(r, id(i + 1, j, k), -1.0), t.emplace_back(id(i + 1, j, k), r, -1.0);
        if (j + 1 < n) t.emplace_back(r, id(i, j + 1, k), -1.0), t.emplace_back(id(i, j + 1, k), r, -1.0);
        if (k + 1 < n) t.emplace_back(r, id(i, j, k + 1), -1.0), t.emplace_back(id(i, j, k + 1), r, -1.0);
      }
  SparseMatrixd A(n * n * n, n * n * n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

/// A 1D chain Laplacian (tridiagonal): no fill at all.
SparseMatrixd chainLaplacian(int n, double shift) {
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, 2.0 + shift);
    if (i + 1 < n) t.emplace_back(i, i + 1, -1.0), t.emplace_back(i + 1, i, -1.0);
  }
  SparseMatrixd A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

double relativeResidual(const SparseMatrixd& A, const Eigen::VectorXd& x, const Eigen::VectorXd& b) {
  return (A * x - b).norm() / b.norm();
}

std::string solveWithAuto(const SparseMatrixd& A, double* residual) {
  auto s = LinearSolver::create(LinearSolverType::Auto, A.rows(), 0);
  EXPECT_TRUE(s->factor(A, 0, true));
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows(), -1.0, 2.0);
  Eigen::VectorXd x;
  s->solve(b, x);
  *residual = relativeResidual(A, x, b);
  return s->name();
}

TEST(LinearSolver, AutoPicksTheBackendByFillAndDominance) {
  double r = 0;
  // 3D grid, 8,000 unknowns: ~1e8 flops of factorization.
  const std::string grid = solveWithAuto(gridLaplacian(20, 1e-3), &r);
  EXPECT_EQ(grid, LinearSolver::hasSuiteSparse() ? "Auto(Cholmod)" : "Auto(EigenLDLT)");
  EXPECT_LT(r, 1e-12);
  // A tridiagonal chain of the same size: a few flops per unknown.
  EXPECT_EQ(solveWithAuto(chainLaplacian(8000, 1e-3), &r), "Auto(EigenLDLT)");
  EXPECT_LT(r, 1e-12);
  // A mass-dominated matrix (shift ≫ off-diagonals): PCG.
  EXPECT_EQ(solveWithAuto(gridLaplacian(12, 100.0), &r), "Auto(PCG)");
  EXPECT_LT(r, 1e-10);
}

TEST(LinearSolver, AutoFallsBackToLDLTWhenTheMatrixIsNotPositiveDefinite) {
  // Symmetric, indefinite (one negative eigenvalue) and large enough to be
  // offered to the supernodal LLᵀ, which must fail and hand over.
  SparseMatrixd A = gridLaplacian(20, 1e-3);
  A.coeffRef(0, 0) = -50.0;
  double r = 0;
  EXPECT_EQ(solveWithAuto(A, &r), "Auto(EigenLDLT)");
  EXPECT_LT(r, 1e-10);
}

}  // namespace
}  // namespace sinew
