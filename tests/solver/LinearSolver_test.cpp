// The Auto backend (LinearSolver.h): for SPD matrices it must pick the
// supernodal factorization for 3D-mesh fill, the simplicial one for banded
// systems and PCG for diagonally dominant ones; for KKT matrices the Schur
// complement over CHOLMOD when a large S has few rows — and every choice
// must solve the system to round-off.
#include <gtest/gtest.h>

#include <vector>

#include "sinew/Error.h"
#include "SparseTestMatrices.h"
#include "TestModels.h"
#include "sinew/solver/LinearSolver.h"

namespace sinew {
namespace {

using test::chainLaplacian;
using test::gridLaplacian;

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

TEST(LinearSolver, EveryBackendIsAValueOfTheLinearSolverProperty) {
  // The property takes the names parseLinearSolverType reads (Mumps was
  // missing from it once).
  test::TestRoot r;
  for (auto t : {LinearSolverType::Auto, LinearSolverType::EigenLDLT, LinearSolverType::Umfpack,
                 LinearSolverType::Cholmod, LinearSolverType::PCG, LinearSolverType::Mumps}) {
    r.mech.getProperty("linearSolver").set(toString(t));
    EXPECT_EQ(r.mech.getLinearSolver(), t) << toString(t);
    EXPECT_EQ(parseLinearSolverType(toString(t)), t);
  }
  EXPECT_THROW(parseLinearSolverType("Pardiso"), ModelError);
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

/// The backend Auto hands a large KKT matrix to when LLᵀ cannot take it
/// (a build without SuiteSparse has no Auto for KKT matrices: EigenLDLT).
std::string largeIndefinite() {
  if (!LinearSolver::hasSuiteSparse()) return "EigenLDLT";
  return LinearSolver::hasMumps() ? "Auto(Mumps)" : "Auto(EigenLDLT)";
}

TEST(LinearSolver, AutoFallsBackToLDLTWhenTheMatrixIsNotPositiveDefinite) {
  // Symmetric, indefinite (one negative eigenvalue) and large enough to be
  // offered to the supernodal LLᵀ, which must fail and hand over: to the
  // LDLᵀ with pivoting of MUMPS where the build has it.
  SparseMatrixd A = gridLaplacian(20, 1e-3);
  A.coeffRef(0, 0) = -50.0;
  double r = 0;
  EXPECT_EQ(solveWithAuto(A, &r),
            LinearSolver::hasSuiteSparse() && LinearSolver::hasMumps() ? "Auto(Mumps)" : "Auto(EigenLDLT)");
  EXPECT_LT(r, 1e-10);
}

/// The KKT matrix [S Bᵀ; B −R] of S with m rows, each over a few
/// scattered unknowns; with `redundant` the last row repeats the first.
SparseMatrixd kktOf(const SparseMatrixd& S, int m, double compliance, bool redundant) {
  const int n = static_cast<int>(S.rows());
  std::vector<Eigen::Triplet<double>> t;
  for (int c = 0; c < n; ++c)
    for (SparseMatrixd::InnerIterator it(S, c); it; ++it) t.emplace_back(it.row(), c, it.value());
  for (int i = 0; i < m; ++i) {
    const int row = redundant && i == m - 1 ? 0 : i;
    for (int k = 0; k < 3; ++k) {
      const int col = (row * 977 + k * 131) % n;
      const double v = 1.0 + 0.5 * k - 0.1 * row;
      t.emplace_back(n + i, col, v);
      t.emplace_back(col, n + i, v);
    }
    t.emplace_back(n + i, n + i, -compliance);
  }
  SparseMatrixd K(n + m, n + m);
  K.setFromTriplets(t.begin(), t.end());
  return K;
}

/// Solves K x = b (b = K x* for a known x*, so redundant rows stay
/// consistent) and returns the backend's name and the residual.
std::string solveKKTWith(LinearSolverType type, const SparseMatrixd& K, int m, double* residual) {
  auto s = LinearSolver::create(type, K.rows(), m);
  EXPECT_TRUE(s->factor(K, m, true));
  const Eigen::VectorXd xs = Eigen::VectorXd::LinSpaced(K.rows(), 1.0, -2.0);
  const Eigen::VectorXd b = K * xs;
  Eigen::VectorXd x;
  s->solve(b, x);
  *residual = relativeResidual(K, x, b);
  return s->name();
}

TEST(LinearSolver, AutoEliminatesFewRowsOfALargeSPDMatrixThroughTheSchurComplement) {
  const SparseMatrixd S = gridLaplacian(20, 1e-3);  // 8,000 unknowns, 3D fill
  const bool ss = LinearSolver::hasSuiteSparse();
  double r = 0;
  // Twelve hard rows: S by CHOLMOD, the rows by their dense complement.
  EXPECT_EQ(solveKKTWith(LinearSolverType::Auto, kktOf(S, 12, 0.0, false), 12, &r),
            ss ? "Auto(CholmodSchur)" : "EigenLDLT");
  EXPECT_LT(r, 1e-13);
  // Compliant rows, and a row given twice (singular complement, as
  // redundant contacts make it): still solved to round-off.
  EXPECT_EQ(solveKKTWith(LinearSolverType::Auto, kktOf(S, 12, 1e-3, false), 12, &r),
            ss ? "Auto(CholmodSchur)" : "EigenLDLT");
  EXPECT_LT(r, 1e-13);
  EXPECT_EQ(solveKKTWith(LinearSolverType::Auto, kktOf(S, 12, 0.0, true), 12, &r),
            ss ? "Auto(CholmodSchur)" : "EigenLDLT");
  EXPECT_LT(r, 1e-12);
  if (!ss) return;
  // Many rows: their solves and complement would cost more than S's
  // factorization, so the whole matrix goes to an LDLᵀ (with pivoting,
  // MUMPS, since S alone is supernodal-sized).
  EXPECT_EQ(solveKKTWith(LinearSolverType::Auto, kktOf(S, 200, 0.0, false), 200, &r), largeIndefinite());
  EXPECT_LT(r, 1e-12);
  // The Cholmod backend takes the Schur path even then.
  EXPECT_EQ(solveKKTWith(LinearSolverType::Cholmod, kktOf(S, 200, 0.0, false), 200, &r), "CholmodSchur");
  EXPECT_LT(r, 1e-12);
}

TEST(LinearSolver, AutoKKTGoesBackToLDLTWhenSIsIndefinite) {
  // An FEM tangent under compression can make S indefinite: LLᵀ fails on
  // S, and the whole KKT matrix is factored by LDLᵀ instead.
  SparseMatrixd S = gridLaplacian(20, 1e-3);
  S.coeffRef(0, 0) = -50.0;
  double r = 0;
  const SparseMatrixd K = kktOf(S, 12, 0.0, false);
  EXPECT_EQ(solveKKTWith(LinearSolverType::Auto, K, 12, &r), largeIndefinite());
  EXPECT_LT(r, 1e-10);
}

TEST(LinearSolver, MumpsSolvesIndefiniteAndKKTMatricesToRoundOff) {
  if (!LinearSolver::hasMumps()) {
    EXPECT_THROW(LinearSolver::create(LinearSolverType::Mumps, 10, 0), ModelError);
    GTEST_SKIP() << "this build has no MUMPS";
  }
  double r = 0;
  // A small chain and a 3D grid, SPD; then the grid made indefinite,
  // which LDLᵀ without pivoting factors only by luck.
  EXPECT_EQ(solveKKTWith(LinearSolverType::Mumps, chainLaplacian(500, 1e-3), 0, &r), "Mumps");
  EXPECT_LT(r, 1e-12);
  SparseMatrixd S = gridLaplacian(12, 1e-3);
  EXPECT_EQ(solveKKTWith(LinearSolverType::Mumps, S, 0, &r), "Mumps");
  EXPECT_LT(r, 1e-12);
  S.coeffRef(0, 0) = -50.0;
  EXPECT_EQ(solveKKTWith(LinearSolverType::Mumps, S, 0, &r), "Mumps");
  EXPECT_LT(r, 1e-12);
  // KKT matrices of it: hard rows, compliant rows, and a row given twice
  // (the regularization keeps it factorable, refinement exact).
  for (const auto& [compliance, redundant] : {std::pair{0.0, false}, std::pair{1e-3, false}, std::pair{0.0, true}}) {
    EXPECT_EQ(solveKKTWith(LinearSolverType::Mumps, kktOf(S, 30, compliance, redundant), 30, &r), "Mumps");
    EXPECT_LT(r, 1e-12) << compliance << " " << redundant;
  }
}

TEST(LinearSolver, MumpsKeepsItsAnalysisForTheSamePatternAndRedoesItForANewOne) {
  if (!LinearSolver::hasMumps()) GTEST_SKIP() << "this build has no MUMPS";
  auto s = LinearSolver::create(LinearSolverType::Mumps, 0, 0);
  const Eigen::VectorXd b1 = Eigen::VectorXd::LinSpaced(1000, -1.0, 2.0), b2 = Eigen::VectorXd::LinSpaced(1728, 1.0, 3.0);
  Eigen::VectorXd x;
  for (double shift : {1e-3, 0.5}) {  // new values, same pattern
    const SparseMatrixd A = gridLaplacian(10, shift);
    ASSERT_TRUE(s->factor(A, 0, shift == 1e-3));
    s->solve(b1, x);
    EXPECT_LT(relativeResidual(A, x, b1), 1e-12) << shift;
  }
  const SparseMatrixd B = gridLaplacian(12, 1e-3);  // a new pattern and size
  ASSERT_TRUE(s->factor(B, 0, true));
  s->solve(b2, x);
  EXPECT_LT(relativeResidual(B, x, b2), 1e-12);
  // A new pattern of the same size, not announced: found by its entry
  // count, and analysed again (else MUMPS would read the old coordinates).
  const SparseMatrixd C = chainLaplacian(1728, 1e-3);
  ASSERT_TRUE(s->factor(C, 0, false));
  s->solve(b2, x);
  EXPECT_LT(relativeResidual(C, x, b2), 1e-12);
  // A singular matrix is refused, not an error.
  SparseMatrixd Z = gridLaplacian(10, 0.0);
  Z.coeffRef(5, 5) = 0;
  for (int k = 0; k < Z.outerSize(); ++k)
    for (SparseMatrixd::InnerIterator it(Z, k); it; ++it)
      if (it.row() == 5 || it.col() == 5) it.valueRef() = 0;
  EXPECT_FALSE(s->factor(Z, 0, true));
}

}  // namespace
}  // namespace sinew
